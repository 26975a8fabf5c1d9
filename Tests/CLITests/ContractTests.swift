import Foundation
import Testing

/// `pricecam batch Fixtures --format jsonl` emits one valid contract object per image.
@Suite("JSON Lines contract")
struct ContractTests {
    @Test func batchFixtures() throws {
        let r = try CLI.run(["batch", CLI.fixtures, "--format", "jsonl", "--no-convert"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        let images = FileManager.default.enumerator(atPath: CLI.fixtures)!.allObjects.compactMap { $0 as? String }
            .filter { ["png", "jpg"].contains(($0 as NSString).pathExtension) }
        #expect(lines.count == images.count)
        #expect(lines.count == r.jsonLines.count, "every line is one JSON object")
        for object in r.jsonLines {
            #expect(Array(object.keys).sorted() == ["error", "file", "height", "ms", "prices", "width"])
            #expect(object["file"] is String)
            #expect(object["width"] is Int && object["height"] is Int)
            #expect(object["ms"] is Double || object["ms"] is Int)
            #expect(object["error"] is NSNull)
            for price in try #require(object["prices"] as? [[String: Any]]) {
                let amount = try #require(price["amount"] as? String)
                #expect(Decimal(string: amount) != nil && amount.allSatisfy { "-0123456789.".contains($0) }, "amount \(amount)")
                #expect(price["text"] is String)
                #expect(price["currency"] is NSNull || (price["currency"] as? String)?.count == 3)
                let box = try #require(price["box"] as? [Int])
                #expect(box.count == 4 && box[2] > 0 && box[3] > 0)
                let confidence = try #require(price["confidence"] as? Double)
                #expect((0...1).contains(confidence))
                #expect(price["converted"] is NSNull && price["target"] is NSNull)
            }
        }
    }
}
