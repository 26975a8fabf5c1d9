import Foundation
import OCR
import Pipeline
import PriceParsing
import Testing

/// Which Tesseract engines a worker loads, and when (`Extractor.init`, `PageReader.scene`):
/// with a script `eng` cannot read (`eng+jpn`), a scene's regions are first read with that
/// script's model alone, and the whole language loads only when a document needs it.
@Suite("Engine choice")
struct EngineChoiceTests {
    static func image(_ name: String) -> String {
        FixtureRegressionTests.root.appendingPathComponent("Fixtures/clean/\(name)").path
    }

    static func truth(_ name: String) throws -> [Decimal] {
        let data = try Data(contentsOf: URL(fileURLWithPath: image("gt.json")))
        let gt = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        return (gt[name]?["amounts"] as? [String] ?? []).compactMap { Decimal(string: $0) }
    }

    @Test("a run in Japan reads a scene with jpn alone and loads eng+jpn only for a document")
    func japan() throws {
        let extractor = try DatasetRegressionTests.extractor(currency: "JPY", accuracy: AccuracyOptions())
        let reader = extractor.reader
        #expect(reader.scene?.configuration.language == "jpn")
        #expect(reader.main.configuration.language == "eng+jpn")
        #expect(reader.rereadEngine?.configuration.language == "eng")
        #expect(reader.scene?.isLoaded == false && !reader.main.isLoaded, "nothing but eng loads before an image needs it")

        // A camera frame of yen prices (the generator drew `JPY 800`, `JPY 280`): a scene.
        let frame = extractor.extract(path: Self.image("frame_0003.png"))
        #expect(frame.error == nil)
        let want = try Self.truth("frame_0003.png")
        #expect(!want.isEmpty && want.allSatisfy { frame.prices.map(\.match.amount).contains($0) }, "\(frame.prices.map(\.match.amount))")
        #expect(reader.scene?.isLoaded == true)
        #expect(!reader.main.isLoaded, "a scene does not need the whole language")

        // A receipt is read as a page, with the whole language.
        let receipt = extractor.extract(path: Self.image("receipt_0001.png"))
        #expect(receipt.error == nil && !receipt.prices.isEmpty)
        #expect(reader.main.isLoaded)
    }

    @Test("a run in a Latin-script country loads one engine for everything", arguments: ["EUR", nil])
    func latin(currency: String?) throws {
        let extractor = try DatasetRegressionTests.extractor(currency: currency, accuracy: AccuracyOptions())
        #expect(extractor.reader.scene == nil)
        #expect(extractor.reader.rereadEngine == nil)
        #expect(extractor.reader.main.isLoaded && extractor.reader.main.configuration.language == "eng")
    }

    @Test("Latin-script models besides eng keep the whole language for scenes too")
    func latinModels() throws {
        let extractor = try Extractor(
            settings: ExtractionSettings(
                ocr: OCRConfiguration(tessdata: try Tessdata.locate(explicit: nil, language: "eng+fra"), language: "eng+fra"),
                parser: ParserOptions(), converter: nil))
        #expect(extractor.reader.scene == nil)
        #expect(extractor.reader.rereadEngine?.configuration.language == "eng")
    }
}
