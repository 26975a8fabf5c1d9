import Foundation
import OCR
import Pipeline
import PriceParsing
import Testing

/// Every fixture image through the real Tesseract engine and the real parser.
/// Truth comes from the fixture generator's input (Fixtures/*/gt.json).
@Suite("Fixture regression", .serialized)
struct FixtureRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Fixtures").path

    /// Amount recall and precision floors for the degraded families; a drop
    /// below either fails. Floors sit just under the measured values (see the
    /// commit that last changed them for the figures). Raised with the
    /// preprocessing and second pass (README.md, "Accuracy" has the before/after).
    static let floors: [String: (recall: Double, precision: Double)] = [
        "blur": (0.97, 0.97),
        "noise": (0.97, 0.97),
        "lowcontrast": (0.99, 0.99),
        // With the learned detector one stray "9" beside a shadowed price (frame_0005): 0.984.
        "shadow": (0.97, 0.98),
        "small": (0.95, 0.99),
        // Region by region (frames), one thin £57.75 at 48 px reads as £57.15 in every
        // reading; the page reading had it (1 of 65 amounts).
        "jpeg": (0.98, 0.98),
        "rotate": (0.99, 0.99),
        "perspective": (0.97, 0.97),
        // ₹ ₩ 円: Debian's eng model cannot read these symbols at all. The learned detector's
        // boxes take the symbol with its digits, and eng reads ₩ as 4 or 7 and 円 as 9
        // (₩46,700 → 446,700). The price model reads ₩ as `W`, which the parser takes as a
        // repaired `₩` (`W44,300`): recall 0.364 → 0.727, precision 0.615 → 0.941. 円 stays
        // unread (`198F9`). With the shop's currency in the settings (KRW, JPY) the script's
        // model reads every one of them (`pricecam scan Fixtures/symbols/frame_0004.png --currency KRW`).
        "symbols": (0.70, 0.90),
    ]

    static func score(family: String) throws -> (Score, [String]) {
        let set = try EvaluationSet.load("\(fixtures)/\(family)/gt.json", name: family)
        let settings = ExtractionSettings(
            ocr: OCRConfiguration(
                tessdata: try Tessdata.locate(explicit: nil), priceModel: Tessdata.locatePriceModel(explicit: nil),
                detectorModel: try Tessdata.locateDetectorModel(),
                recognizerModels: try Tessdata.locateRecognizerModels()),
            parser: ParserOptions(), converter: nil)
        let extractor = try Extractor(settings: settings)
        var score = Score()
        var misses: [String] = []
        for entry in set.entries {
            let result = extractor.extract(path: entry.path)
            let found = result.prices.map(\.match.amount)
            score.add(truth: entry.truth, found: found, failed: result.error != nil)
            if let want = entry.truth.amounts, want.sorted() != found.sorted() {
                misses.append("\((entry.path as NSString).lastPathComponent): want \(want) got \(found) \(result.prices.map(\.match.text))")
            }
        }
        return (score, misses)
    }

    @Test("clean fixtures read exactly")
    func clean() throws {
        let (score, misses) = try Self.score(family: "clean")
        #expect(score.images >= 20)
        #expect(score.failed == 0)
        #expect(misses.isEmpty, "\(misses.joined(separator: "\n"))")
    }

    @Test("negatives give no price")
    func negatives() throws {
        let (score, misses) = try Self.score(family: "negatives")
        #expect(score.images >= 5)
        #expect(score.falsePositives == 0, "\(misses.joined(separator: "\n"))")
    }

    @Test("degraded family keeps its recall floor", arguments: floors.keys.sorted())
    func degraded(family: String) throws {
        let (score, misses) = try Self.score(family: family)
        let floor = try #require(Self.floors[family])
        #expect(score.images >= 5)
        let recall = try #require(score.recall)
        #expect(recall >= floor.recall, "\(family): amount recall \(recall) < floor \(floor.recall)\n\(misses.joined(separator: "\n"))")
        let precision = try #require(score.precision)
        #expect(
            precision >= floor.precision,
            "\(family): amount precision \(precision) < floor \(floor.precision)\n\(misses.joined(separator: "\n"))")
    }

    /// Menus (`Fixtures/menus`, eleven languages, two each): amount recall and precision per
    /// language, each menu read with its shop's currency in the settings (the script's model,
    /// the currency's price rules: `MenuPrices`). Floors sit at or just under the values
    /// measured when the family was added (2026-11-25, docs/benchmarks): the issue's target is
    /// recall 0.9 and precision 0.8 in every language, which both Chinese sets did not reach then
    /// (the page reading garbles rows of CJK text, dot leaders and a price, and `75元` is read
    /// `7576`; read box by box they reach 0.82 and 1.00, see docs/benchmarks). Since the rows
    /// of detector boxes (2026-11-25, docs/benchmarks/2026-11-25-rows.md) the Chinese menus read
    /// zh-Hans R 0.773 / P 0.944 (was 0.636 / 1.000) and zh-Hant R 1.000 / P 0.786 (was 0.818 /
    /// 0.818). Since a column of whole prices, an option before a marked price, a reference
    /// ending after a number (`1998 年`) and the page's price range (`명동 12`) (2026-11-25):
    /// zh-Hans 0.909 / 1.000, zh-Hant 1.000 / 0.846, ko 0.955 / 0.840, vi 0.909 / 0.952; every
    /// language meets the target, and the floors hold it.
    /// German (EUR) and American (USD) menus that print bare whole prices (`Schnitzel 16`), added
    /// 2026-11-27 with the unmarked column of whole prices (`MenuPrices`): before it de R 0.727 / P 1.000,
    /// en R 0.182 / P 0.667 (only rows read alone, and junk); with it de 0.818 / 1.000, en 0.909 /
    /// 0.909, and with an option's price on such a row (`Small 8  Large 17`) en 1.000 / 0.917.
    /// de is not yet at the recall target: prices Tesseract misreads beside dot leaders.
    static let menuFloors: [String: (recall: Double, precision: Double)] = [
        "el": (0.95, 0.95), "es": (0.90, 0.90), "fr": (0.95, 0.95), "it": (0.95, 0.95), "ja": (0.95, 0.90),
        "ko": (0.95, 0.80), "vi": (0.90, 0.90), "zh-Hans": (0.90, 0.95), "zh-Hant": (0.97, 0.80), "de": (0.80, 0.95),
        "en": (0.95, 0.88),
    ]

    /// The images of `family` whose name starts with `prefix`, each read with its gt.json
    /// currency as that shop's stored settings would give it (the script's model, the
    /// currency's price rules).
    static func scoreWithCurrencies(family: String, prefix: String = "") throws -> (Score, [String]) {
        let set = try EvaluationSet.load("\(fixtures)/\(family)/gt.json", name: family)
        let entries = set.entries.filter { ($0.path as NSString).lastPathComponent.hasPrefix(prefix) }
        var score = Score()
        var misses: [String] = []
        for entry in entries {
            let currency = try #require(entry.truth.currency)
            let models = (["eng"] + Language.scriptModels(for: currency)).joined(separator: "+")
            let settings = ExtractionSettings(
                ocr: OCRConfiguration(
                    tessdata: try Tessdata.locate(explicit: nil, language: models), language: models,
                    priceModel: Tessdata.locatePriceModel(explicit: nil), detectorModel: try Tessdata.locateDetectorModel(),
                    recognizerModels: try Tessdata.locateRecognizerModels()),
                parser: ParserOptions(currencyHint: currency), converter: nil)
            let result = try Extractor(settings: settings).extract(path: entry.path)
            let found = result.prices.map(\.match.amount)
            let marked = result.prices.first { $0.match.role == .total }?.match.amount
            score.add(truth: entry.truth, found: found, marked: marked, failed: result.error != nil)
            if let want = entry.truth.amounts, want.sorted() != found.sorted() || marked != entry.truth.total {
                misses.append(
                    "\((entry.path as NSString).lastPathComponent): want \(want) got \(found), total \(entry.truth.total.map { "\($0)" } ?? "-") marked \(marked.map { "\($0)" } ?? "-")"
                )
            }
        }
        return (score, misses)
    }

    @Test("menus keep their floors in every language", arguments: menuFloors.keys.sorted())
    func menus(language: String) throws {
        let (score, misses) = try Self.scoreWithCurrencies(family: "menus", prefix: language + "_")
        #expect(score.images >= 2)
        let floor = try #require(Self.menuFloors[language])
        let recall = try #require(score.recall), precision = try #require(score.precision)
        #expect(recall >= floor.recall, "\(language): amount recall \(recall) < \(floor.recall)\n\(misses.joined(separator: "\n"))")
        #expect(
            precision >= floor.precision,
            "\(language): amount precision \(precision) < \(floor.precision)\n\(misses.joined(separator: "\n"))")
    }

    /// Receipts in fourteen languages (`Fixtures/receipts-intl`): the total marked right on
    /// 0.95 of them (issue 27's target; 28/28 when the family was added), and the amounts'
    /// floors just under the values measured then (recall 0.980, precision 0.994).
    @Test("receipts in fourteen languages: the total marked right, the amounts kept")
    func receiptsIntl() throws {
        let (score, misses) = try Self.scoreWithCurrencies(family: "receipts-intl")
        #expect(score.images >= 28)
        let marked = try #require(score.totalMarkedRate)
        #expect(marked >= 0.95, "total marked right on \(marked)\n\(misses.joined(separator: "\n"))")
        let recall = try #require(score.recall), precision = try #require(score.precision)
        #expect(recall >= 0.97 && precision >= 0.98, "recall \(recall), precision \(precision)\n\(misses.joined(separator: "\n"))")
    }

    @Test("every family on disk is covered by a test")
    func familiesCovered() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures)
            .filter { FileManager.default.fileExists(atPath: "\(Self.fixtures)/\($0)/gt.json") }
        let covered = Set(Self.floors.keys).union(["clean", "negatives", "menus", "receipts-intl"])
        #expect(Set(onDisk).isSubset(of: covered), "families without a floor: \(Set(onDisk).subtracting(covered))")
        #expect(covered.isSubset(of: Set(onDisk)), "families missing on disk: \(covered.subtracting(Set(onDisk)))")
    }
}
