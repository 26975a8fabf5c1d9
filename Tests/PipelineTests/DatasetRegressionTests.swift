import Foundation
import OCR
import Pipeline
import PriceParsing
import Testing

/// The real photo sets in `../shared/datasets` (README there: format and sources) through
/// the whole pipeline, each image with its shop's currency from gt.json as stored settings
/// would give it. Floors sit a little under the figures measured when they were set (in
/// the comments), so a regression fails and load on a shared machine does not.
/// Without the sets the tests are skipped, except on CI (`CI=true`), where a missing set
/// is a failure: CI always has `../shared` beside the clone.
@Suite("Dev set regression", .serialized)
struct DatasetRegressionTests {
    static let datasets = FixtureRegressionTests.root.appendingPathComponent("../shared/datasets").standardized.path
    static let onCI = ProcessInfo.processInfo.environment["CI"] == "true"

    struct Floor: Sendable, CustomTestStringConvertible {
        var name: String
        var totalRecall: Double?
        /// Share of images whose price marked `total` is the total (issue 27).
        var totalMarked: Double? = nil
        var amountRecall: Double?
        var amountPrecision: Double?
        var amountF1: Double?
        var testDescription: String { name }
    }

    static let floors: [Floor] = [
        // Measured 1.000 (26/26): a receipt's total is the one number a user must get. Marked
        // right on 0.962 (25/26; 0.885 before a card payment printed twice repaired a total one
        // digit off and a vote let `19,46` replace `19,416`).
        Floor(name: "receipts-de", totalRecall: 0.96, totalMarked: 0.92),
        // Measured 0.968 total (61/63: 262 too degraded, 347's truth not the total it prints),
        // amount F1 0.756 (2026-11-26, docs/benchmarks/2026-11-26-peers-total-words.md).
        // Marked right on 0.952 (60/63; 0.889 before a re-read kept the total's word and the
        // total choice weighed arithmetic that disagrees with itself, 0.809 before the line
        // above the change counted as the cash handed over).
        Floor(name: "sroie-dev", totalRecall: 0.93, totalMarked: 0.92, amountF1: 0.73),
        // Measured 0.980 (48/49) total recall with the learned detector, eng+jpn and the price
        // model, two agreeing model readings deciding (0.959 without; the Leptonica region
        // finder 0.959).
        Floor(name: "tags-jp-dev", totalRecall: 0.95),
        // Measured amount recall 0.980 (48/49), precision 0.608 with the detector working at
        // 1600 px (0.898 / 0.530 at 1280 px; the Leptonica region finder 0.857 / 0.538).
        // Issue 26's target: 0.95 with precision 0.5.
        Floor(name: "shelf-jp-dev", amountRecall: 0.95, amountPrecision: 0.55),
    ]

    static func present(_ set: String) -> Bool {
        FileManager.default.fileExists(atPath: "\(datasets)/\(set)/gt.json")
    }

    @Test("dev set keeps its floor", .enabled(if: onCI || floors.allSatisfy { present($0.name) }), arguments: floors)
    func devSet(_ floor: Floor) throws {
        try #require(
            Self.present(floor.name), "\(Self.datasets)/\(floor.name)/gt.json is missing (CI needs ../shared/datasets beside the clone)")
        let set = try EvaluationSet.load("\(Self.datasets)/\(floor.name)/gt.json", name: floor.name)
        var score = Score()
        var misses: [String] = []
        let byCurrency = Dictionary(grouping: set.entries, by: { $0.truth.currency })
        for (currency, entries) in byCurrency {
            let extractor = try Self.extractor(currency: currency)
            for entry in entries {
                let result = extractor.extract(path: entry.path)
                let found = result.prices.map(\.match.amount)
                let marked = result.prices.first { $0.match.role == .total }?.match.amount
                score.add(truth: entry.truth, found: found, marked: marked, failed: result.error != nil)
                if let total = entry.truth.total, !found.contains(total) {
                    misses.append("\((entry.path as NSString).lastPathComponent): total \(total), read \(found)")
                }
            }
        }
        let report =
            "\(floor.name): total recall \(score.totalRecall.map { "\($0)" } ?? "-"), marked \(score.totalMarkedRate.map { "\($0)" } ?? "-"), amounts P \(score.precision.map { "\($0)" } ?? "-") R \(score.recall.map { "\($0)" } ?? "-") F1 \(score.f1.map { "\($0)" } ?? "-")\n"
            + misses.joined(separator: "\n")
        #expect(score.failed == 0, "\(report)")
        if let f = floor.totalRecall { #expect(try #require(score.totalRecall) >= f, "\(report)") }
        if let f = floor.totalMarked { #expect(try #require(score.totalMarkedRate) >= f, "\(report)") }
        if let f = floor.amountRecall { #expect(try #require(score.recall) >= f, "\(report)") }
        if let f = floor.amountPrecision { #expect(try #require(score.precision) >= f, "\(report)") }
        if let f = floor.amountF1 { #expect(try #require(score.f1) >= f, "\(report)") }
    }

    /// An extractor as `pricecam batch` builds it for a shop of `currency`: the models
    /// `--lang auto` loads for it (JPY: eng+jpn) and the price model.
    static func extractor(currency: String?, accuracy: AccuracyOptions = AccuracyOptions(), limits: ImageLimits = .default) throws
        -> Extractor
    {
        let language = (["eng"] + Language.scriptModels(for: currency)).joined(separator: "+")
        return try Extractor(
            settings: ExtractionSettings(
                ocr: OCRConfiguration(
                    tessdata: try Tessdata.locate(explicit: nil, language: language), language: language,
                    priceModel: Tessdata.locatePriceModel(explicit: nil), detectorModel: try Tessdata.locateDetectorModel(),
                    recognizerModels: try Tessdata.locateRecognizerModels()),
                parser: ParserOptions(currencyHint: currency), converter: nil, limits: limits, accuracy: accuracy))
    }
}
