import Conversion
import Foundation

/// Buffers history rows and appends them in chunks: when `chunkSize` rows are
/// waiting, `flushInterval` after the first waiting row, and on `finish()`.
/// Each chunk is one transaction: a run killed midway keeps every chunk
/// committed before the kill. Thread-safe (batch workers may record at once).
///
/// A failed write is reported on stderr once (through `report`); the rows are
/// kept and retried with the next chunk. `finish()` says whether every row was saved.
public final class HistoryRecorder: @unchecked Sendable {
    public let store: HistoryStore
    public let runID: String
    public let chunkSize: Int
    public let flushInterval: TimeInterval
    private let report: @Sendable (String) -> Void

    private let lock = NSLock()        // guards the state below
    private let writeLock = NSLock()   // serialises writes, keeping rows in order
    private var buffer: [HistoryEntry] = []
    private var timerArmed = false
    private var reported = false
    private var saved = 0
    private var failedError: HistoryError?
    private var finished = false

    public init(store: HistoryStore, runID: String = HistoryRecorder.newRunID(), chunkSize: Int = 200,
                flushInterval: TimeInterval = 1.0,
                report: @escaping @Sendable (String) -> Void = HistoryRecorder.stderrReport) {
        self.store = store
        self.runID = runID
        self.chunkSize = max(1, chunkSize)
        self.flushInterval = flushInterval
        self.report = report
    }

    public static func newRunID() -> String {
        let stamp = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false)
            .dateSeparator(.omitted).timeSeparator(.omitted))
        return "\(stamp)-\(String(UUID().uuidString.prefix(8)).lowercased())"
    }

    public static let stderrReport: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("pricecam: \(message)\n".utf8))
    }

    /// Records one converted price; the row's `runID` is this recorder's.
    public func record(time: Date = Date(), source: String, rawText: String, amount: Decimal, currency: String?,
                       converted: ConvertedAmount, confidence: Double, box: [Int]?) {
        record(HistoryEntry(time: time, source: source, rawText: rawText, amount: amount, currency: currency,
                            rate: converted.rate, converted: converted.value, home: converted.target,
                            confidence: confidence, box: box, runID: runID))
    }

    public func record(_ entry: HistoryEntry) {
        lock.lock()
        buffer.append(entry)
        let full = buffer.count >= chunkSize
        let arm = !full && !timerArmed && !finished
        if arm { timerArmed = true }
        lock.unlock()
        if full {
            flush()
        } else if arm {
            DispatchQueue.global().asyncAfter(deadline: .now() + flushInterval) { [weak self] in
                guard let self else { return }
                self.lock.lock(); self.timerArmed = false; self.lock.unlock()
                self.flush()
            }
        }
    }

    /// Writes every waiting row now (one transaction).
    public func flush() {
        writeLock.lock()
        defer { writeLock.unlock() }
        lock.lock()
        let rows = buffer
        lock.unlock()
        guard !rows.isEmpty else { return }
        do {
            try store.append(rows)
            lock.lock()
            buffer.removeFirst(rows.count)
            saved += rows.count
            lock.unlock()
        } catch {
            lock.lock()
            failedError = error
            let first = !reported
            reported = true
            lock.unlock()
            if first { report("warning: history not saved: \(error.description)") }
        }
    }

    /// Flushes what is left. Returns true when every recorded row was saved.
    @discardableResult
    public func finish() -> Bool {
        lock.lock(); finished = true; lock.unlock()
        flush()
        lock.lock()
        let lost = buffer.count
        lock.unlock()
        if lost > 0 {
            report("warning: \(lost) history row(s) were not saved (\(store.path)); the output above is complete")
        }
        return lost == 0
    }

    /// Rows saved so far.
    public var savedCount: Int { lock.lock(); defer { lock.unlock() }; return saved }
    /// The last write error, if any.
    public var lastError: HistoryError? { lock.lock(); defer { lock.unlock() }; return failedError }
}
