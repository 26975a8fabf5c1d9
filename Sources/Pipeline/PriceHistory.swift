import PriceParsing
import Geometry
import Conversion
public import Foundation
public import History

extension HistoryEntry {
    /// The history row of a converted price: the one place a priced match becomes a row (scan,
    /// batch, live, the web app's scans and cameras). Nil for a price that was not converted.
    /// `source`: the file path, or the device (replay folder, `browser`) and frame as `NAME#FRAME`.
    public init?(_ price: PricedMatch, source: String, runID: String, time: Date = Date()) {
        guard let converted = price.conversion else { return nil }
        let m = price.match
        self.init(
            time: time, source: source, rawText: m.text, amount: m.amount, currency: m.currency, rate: converted.rate,
            converted: converted.value, home: converted.target, confidence: m.confidence, box: m.box?.array, runID: runID)
    }
}

extension HistoryRecorder {
    /// Records `price` when it was converted (the row's run id is this recorder's).
    public func record(_ price: PricedMatch, source: String) {
        if let entry = HistoryEntry(price, source: source, runID: runID) { record(entry) }
    }
}

extension HistorySession {
    /// Records `price` when it was converted (counted as lost when the history is unavailable).
    public func record(_ price: PricedMatch, source: String) {
        if let entry = HistoryEntry(price, source: source, runID: runID) { record(entry) }
    }
}
