public import Conversion
public import Foundation
import Synchronization

/// The history side of one scan/batch/live run: records converted prices
/// (buffered, chunked through `HistoryRecorder`) and remembers whether any row
/// was lost. When the database could not be opened, `recorder` is nil and
/// each recorded price counts as lost. Thread-safe.
public final class HistorySession: Sendable {
    public let recorder: HistoryRecorder?
    /// The run id written to every row.
    public let runID: String

    /// Converted prices not recorded (no database).
    private let unrecorded = Mutex(0)
    private let report: @Sendable (String) -> Void

    /// Records through `recorder`.
    public init(recorder: HistoryRecorder) {
        self.recorder = recorder
        self.runID = recorder.runID
        self.report = HistoryRecorder.stderrReport
    }

    /// The database is unavailable: nothing is written, every recorded price is counted as lost.
    public init(unavailableWithRunID runID: String, report: @escaping @Sendable (String) -> Void = HistoryRecorder.stderrReport) {
        self.recorder = nil
        self.runID = runID
        self.report = report
    }

    public var isAvailable: Bool { recorder != nil }

    /// Appends one converted price. `source`: the file path, or `"/dev/video0#1234"`
    /// (device and frame number) on the live path.
    public func record(
        source: String, rawText: String, amount: Decimal, currency: String?, converted: ConvertedAmount,
        confidence: Double, box: [Int]?, time: Date = Date()
    ) {
        record(
            HistoryEntry(
                time: time, source: source, rawText: rawText, amount: amount, currency: currency, rate: converted.rate,
                converted: converted.value, home: converted.target, confidence: confidence, box: box, runID: runID))
    }

    /// Appends one row (its run id as given).
    public func record(_ entry: HistoryEntry) {
        if let recorder { recorder.record(entry) } else { unrecorded.withLock { $0 += 1 } }
    }

    /// Flushes. False when a converted price did not reach the history (the
    /// caller exits 1); the reason has already gone to stderr.
    @discardableResult
    public func finish() -> Bool {
        let saved = recorder?.finish() ?? true
        let lost = unrecorded.withLock { $0 }
        if lost > 0 {
            report(
                "warning: \(lost) converted price(s) were not added to the history (database unavailable, see above); the output is complete"
            )
        }
        return saved && lost == 0
    }
}
