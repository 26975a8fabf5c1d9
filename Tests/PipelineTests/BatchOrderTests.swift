import Foundation
import OCR
import Pipeline
import PriceParsing
import Synchronization
import Testing

@Suite("batch: results in input order, emitted outside the runner's lock")
struct BatchOrderTests {
    @Test(.timeLimit(.minutes(10))) func resultsComeOnceEachInInputOrderWhileEmitIsSlow() throws {
        let folder = FixtureRegressionTests.root.appendingPathComponent("Fixtures/clean").path
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted().prefix(8)
        // A missing file among them: its failure keeps its place too.
        let items = files.map { InputItem.image(path: "\(folder)/\($0)") } + [.image(path: "\(folder)/missing.png")]
        let runner = BatchRunner(
            settings: ExtractionSettings(
                ocr: OCRConfiguration(
                    tessdata: try Tessdata.locate(explicit: nil), detectorModel: try Tessdata.locateDetectorModel(),
                    recognizerModels: try Tessdata.locateRecognizerModels()),
                parser: ParserOptions(), converter: nil),
            jobs: 2)
        let emitted = Mutex<[String]>([])
        let inEmit = Atomic<Int>(0)
        let overlapping = Atomic<Bool>(false)
        let summary = try runner.run(Array(items)) { result in
            // Emit is slow (a terminal, a history transaction): the other worker reads on meanwhile,
            // and no two emits ever run at once.
            if inEmit.add(1, ordering: .sequentiallyConsistent).newValue > 1 { overlapping.store(true, ordering: .relaxed) }
            usleep(100_000)
            emitted.withLock { $0.append(result.file) }
            inEmit.subtract(1, ordering: .sequentiallyConsistent)
        }
        #expect(emitted.withLock { $0 } == items.map { if case .image(let p) = $0 { p } else { "" } })
        let overlapped = overlapping.load(ordering: .relaxed)
        #expect(!overlapped, "two emits ran at once")
        #expect(summary.images == items.count && summary.failed == 1)
    }
}
