import Foundation
import Geometry
import OCR
import Pipeline
import Testing
import TestSupport

/// gt.json "boxes": where the generator drew each price (Fixtures/README.md).
@Suite("Fixture boxes")
struct FixtureBoxesTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures").path

    @Test("clean: every amount has a box inside its image")
    func cleanBoxesInsideImages() throws {
        let set = try EvaluationSet.load("\(Self.fixtures)/clean/gt.json", name: "clean")
        #expect(set.entries.count >= 20)
        for entry in set.entries {
            let name = (entry.path as NSString).lastPathComponent
            let amounts = try #require(entry.truth.amounts, "\(name): no amounts")
            let boxes = try #require(entry.truth.boxes, "\(name): no boxes")
            #expect(boxes.count == amounts.count, "\(name)")
            let image = try GrayImage.load(path: entry.path)
            for b in boxes {
                #expect(b.width > 0 && b.height > 0, "\(name): \(b)")
                #expect(
                    b.x >= 0 && b.y >= 0 && b.x + b.width <= image.width && b.y + b.height <= image.height,
                    "\(name): \(b) outside \(image.width)x\(image.height)")
            }
        }
    }

    @Test("boxes are optional; a wrong count or shape is an error")
    func parsing() throws {
        let dir = URL(fileURLWithPath: try Scratch.folder("pricecam-boxes"))
        let file = dir.appendingPathComponent("gt.json").path

        func load(_ json: String) throws -> EvaluationSet.Truth {
            try Data(json.utf8).write(to: URL(fileURLWithPath: file))
            return try #require(try EvaluationSet.load(file, name: "t").entries.first).truth
        }

        #expect(try load(#"{"a.png": {"total": "1.00", "amounts": ["1.00"]}}"#).boxes == nil)
        #expect(try load(#"{"a.png": {"total": null, "amounts": [], "boxes": []}}"#).boxes == [])
        let t = try load(#"{"a.png": {"total": "2.50", "amounts": ["1.00", "2.50"], "boxes": [[1, 2, 30, 40], [5, 6, 7, 8]]}}"#)
        #expect(t.boxes == [Box(x: 1, y: 2, width: 30, height: 40), Box(x: 5, y: 6, width: 7, height: 8)])
        #expect(throws: EvaluationSet.LoadError.self) {
            try load(#"{"a.png": {"total": "1.00", "amounts": ["1.00"], "boxes": []}}"#)
        }
        #expect(throws: EvaluationSet.LoadError.self) {
            try load(#"{"a.png": {"total": "1.00", "amounts": ["1.00"], "boxes": [[1, 2, 3]]}}"#)
        }
        #expect(throws: EvaluationSet.LoadError.self) {
            try load(#"{"a.png": {"total": "1.00", "amounts": ["1.00"], "boxes": [[1, 2, 3.5, 4]]}}"#)
        }
    }
}
