public import Conversion
public import Foundation
import Synchronization

/// Buffers history rows and appends them in chunks: when `chunkSize` rows are
/// waiting, `flushInterval` after the first waiting row, and on `finish()`.
/// Each chunk is one transaction: a run killed midway keeps every chunk
/// committed before the kill. Thread-safe (batch workers may record at once).
///
/// A failed write is reported on stderr once (through `report`); the rows are
/// kept and retried with the next chunk. `finish()` says whether every row was saved.
public final class HistoryRecorder: Sendable {
    public let store: any HistoryBackend
    public let runID: String
    public let chunkSize: Int
    public let flushInterval: TimeInterval
    private let report: @Sendable (String) -> Void

    /// Rows waiting to be written, and the flush timer.
    private struct Pending {
        var buffer: [HistoryEntry] = []
        var timerArmed = false
        var finished = false
    }

    /// What the writes did so far.
    private struct Written {
        var reported = false
        var saved = 0
        var failedError: HistoryError?
    }

    private let pending = Mutex(Pending())
    /// Held for the whole of a write, which serialises writes (rows stay in order);
    /// taken before `pending`, never after.
    private let written = Mutex(Written())

    public init(
        store: any HistoryBackend, runID: String = HistoryRecorder.newRunID(), chunkSize: Int = 200,
        flushInterval: TimeInterval = 1.0,
        report: @escaping @Sendable (String) -> Void = HistoryRecorder.stderrReport
    ) {
        self.store = store
        self.runID = runID
        self.chunkSize = max(1, chunkSize)
        self.flushInterval = flushInterval
        self.report = report
    }

    public static func newRunID() -> String {
        let stamp = Date().formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: false)
                .dateSeparator(.omitted).timeSeparator(.omitted))
        return "\(stamp)-\(String(UUID().uuidString.prefix(8)).lowercased())"
    }

    public static let stderrReport: @Sendable (String) -> Void = { message in
        try? FileHandle.standardError.write(contentsOf: Data("pricecam: \(message)\n".utf8))
    }

    /// Records one converted price; the row's `runID` is this recorder's.
    public func record(
        time: Date = Date(), source: String, rawText: String, amount: Decimal, currency: String?,
        converted: ConvertedAmount, confidence: Double, box: [Int]?
    ) {
        record(
            HistoryEntry(
                time: time, source: source, rawText: rawText, amount: amount, currency: currency,
                rate: converted.rate, converted: converted.value, home: converted.target,
                confidence: confidence, box: box, runID: runID))
    }

    public func record(_ entry: HistoryEntry) {
        let (full, arm) = pending.withLock { p in
            p.buffer.append(entry)
            let full = p.buffer.count >= chunkSize
            let arm = !full && !p.timerArmed && !p.finished
            if arm { p.timerArmed = true }
            return (full, arm)
        }
        if full {
            flush()
        } else if arm {
            DispatchQueue.global().asyncAfter(deadline: .now() + flushInterval) { [weak self] in
                guard let self else { return }
                self.pending.withLock { $0.timerArmed = false }
                self.flush()
            }
        }
    }

    /// Writes every waiting row now (one transaction).
    public func flush() {
        let firstFailure = written.withLock { w -> HistoryError? in
            let rows = pending.withLock { $0.buffer }
            guard !rows.isEmpty else { return nil }
            do throws(HistoryError) {
                try store.append(rows)
                pending.withLock { $0.buffer.removeFirst(rows.count) }
                w.saved += rows.count
                return nil
            } catch {
                w.failedError = error
                defer { w.reported = true }
                return w.reported ? nil : error
            }
        }
        if let firstFailure { report("warning: history not saved: \(firstFailure.description)") }
    }

    /// Flushes what is left. Returns true when every recorded row was saved.
    @discardableResult
    public func finish() -> Bool {
        pending.withLock { $0.finished = true }
        flush()
        let lost = pending.withLock { $0.buffer.count }
        if lost > 0 {
            report("warning: \(lost) history row(s) were not saved (\(store.location)); the output above is complete")
        }
        return lost == 0
    }

    /// Rows saved so far.
    public var savedCount: Int { written.withLock { $0.saved } }
    /// The last write error, if any.
    public var lastError: HistoryError? { written.withLock { $0.failedError } }
}
