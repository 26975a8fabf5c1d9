import Foundation
import Geometry
@testable import OCR
import Pipeline
import PriceParsing
import Testing
import TestSupport

/// Print too small for Tesseract (a low-resolution scan, a receipt small in its picture) is
/// read by the line recogniser too, and the surer reading stands (`PageReader.tinyReading`,
/// `AccuracyOptions.tinyGlyph`). The fixture receipts shrunk to 0.35 of their size (their
/// amounts 7–12 px boxes, glyphs 5–7 px): read so, 26 of 28 totals marked; Tesseract alone, 24.
@Suite("Tiny print")
struct TinyPrintTests {
    /// The fixture receipts (`Fixtures/receipts-intl`), each shrunk to `factor` of its size and
    /// read with its shop's currency and `accuracy`: how many totals are marked right, of how many.
    static func marked(factor: Double, accuracy: AccuracyOptions) throws -> (marked: Int, of: Int, misses: [String]) {
        let family = "receipts-intl"
        let set = try EvaluationSet.load("\(FixtureRegressionTests.fixtures)/\(family)/gt.json", name: family)
        let folder = try Scratch.folder("pricecam-tiny")
        var (marked, misses) = (0, [String]())
        for entry in set.entries {
            let currency = try #require(entry.truth.currency)
            let small = try #require(try GrayImage.load(path: entry.path).scaled(by: factor))
            let path = folder + "/" + ((entry.path as NSString).lastPathComponent as NSString).deletingPathExtension + ".jpg"
            try Data(try #require(small.jpeg(quality: 95))).write(to: URL(fileURLWithPath: path))
            let result = try DatasetRegressionTests.extractor(currency: currency, accuracy: accuracy).extract(path: path)
            let total = result.prices.first { $0.match.role == .total }?.match.amount
            if total == entry.truth.total {
                marked += 1
            } else {
                misses.append(
                    "\((path as NSString).lastPathComponent): total \(entry.truth.total.map { "\($0)" } ?? "-"), marked \(total.map { "\($0)" } ?? "-")"
                )
            }
        }
        return (marked, set.entries.count, misses)
    }

    @Test("receipts shrunk to 0.35 mark more totals with the recogniser reading their tiny print than Tesseract alone")
    func shrunkReceipts() throws {
        let both = try Self.marked(factor: 0.35, accuracy: AccuracyOptions())
        let tesseract = try Self.marked(factor: 0.35, accuracy: try AccuracyOptions(switches: "tiny-glyph=0"))
        #expect(both.of >= 28)
        #expect(both.marked >= 26, "\(both.marked) of \(both.of) totals marked\n\(both.misses.joined(separator: "\n"))")
        #expect(both.marked > tesseract.marked, "both readers \(both.marked), Tesseract alone \(tesseract.marked)")
    }
}
