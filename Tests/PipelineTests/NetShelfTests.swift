import Foundation
import OCR
@testable import Pipeline
import PriceParsing
import Testing

/// Batches read one after another with one `NetShelf` (eval, a batch per currency): the later
/// batches' workers run the nets the first batch's made, and read what workers with nets of
/// their own read.
@Suite("net shelf: one set of nets per worker across batches")
struct NetShelfTests {
    static func settings(_ currency: String) throws -> ExtractionSettings {
        ExtractionSettings(
            ocr: OCRConfiguration(
                tessdata: try Tessdata.locate(explicit: nil), detectorModel: try Tessdata.locateDetectorModel(),
                recognizerModels: try Tessdata.locateRecognizerModels()),
            parser: ParserOptions(currencyHint: currency), converter: nil)
    }

    static func images() throws -> [InputItem] {
        let folder = FixtureRegressionTests.root.appendingPathComponent("Fixtures/clean").path
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted().prefix(4)
            .map { .image(path: "\(folder)/\($0)") }
    }

    /// Every result's file and prices (amount, text, box), in input order.
    static func read(_ items: [InputItem], _ currency: String, jobs: Int, shelf: NetShelf?) throws -> [String] {
        let out = ResultsLog()
        _ = try BatchRunner(settings: settings(currency), jobs: jobs, shelf: shelf).run(items) { out.append($0) }
        return out.lines
    }

    @Test(.timeLimit(.minutes(10))) func laterBatchesRunTheFirstBatchsNets() throws {
        let items = try Self.images()
        let shelf = NetShelf()
        let first = try Self.read(items, "EUR", jobs: 2, shelf: shelf)
        #expect(shelf.freeCount == 2, "each of the two workers leaves its nets")
        let second = try Self.read(items, "USD", jobs: 2, shelf: shelf)
        // Made anew, the second batch's nets would be left beside the first's.
        #expect(shelf.freeCount == 2, "the second batch's workers took the first's nets")
        #expect(first == (try Self.read(items, "EUR", jobs: 2, shelf: nil)))
        #expect(second == (try Self.read(items, "USD", jobs: 2, shelf: nil)))
        #expect(first.contains { $0.contains("amount") }, "the fixtures hold prices")
    }

    @Test func anExtractorRunsTheNetsItIsGiven() throws {
        let a = try Extractor(settings: Self.settings("EUR"))
        let b = try Extractor(settings: Self.settings("JPY"), nets: a.nets)
        #expect(a.reader.detector?.net != nil && b.reader.detector?.net === a.reader.detector?.net)
        #expect(a.reader.recognizer != nil && b.reader.recognizer === a.reader.recognizer)
        let c = try Extractor(settings: Self.settings("EUR"))
        #expect(c.reader.detector?.net !== a.reader.detector?.net, "without nets given, a worker makes its own")
    }
}

/// Results as lines, collected from `emit` (called serially).
final class ResultsLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ r: ImageResult) {
        let prices = r.prices.map { "amount \($0.match.amount) text \($0.match.text) box \(String(describing: $0.match.box))" }
        lock.withLock { stored.append("\(r.file): \(prices.joined(separator: "; ")) error \(String(describing: r.error?.message))") }
    }
    var lines: [String] { lock.withLock { stored } }
}
