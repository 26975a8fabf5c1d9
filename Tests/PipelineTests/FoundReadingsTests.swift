import Foundation
import Pipeline
import Testing
import TestSupport

@Suite("eval --found: scoring what another run found")
struct FoundReadingsTests {
    static func tempDir() throws -> URL {
        URL(fileURLWithPath: try Scratch.folder("pricecam-found"))
    }

    @Test("batch records: matched by path or its tail, several records of one image add up, an error marks it failed")
    func batchRecords() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("found.jsonl")
        try """
        {"file":"/sets/a/img/one.png","prices":[{"amount":"12.50"},{"amount":"3"}],"error":null}
        {"file":"two.png","prices":[{"amount":"0.99"}],"error":null}
        {"file":"two.png","prices":[{"amount":"1.01"}]}
        {"file":"/sets/a/img/bad.png","prices":[],"error":{"code":"decode_failed","message":"bad.png: not an image"}}

        """.write(to: file, atomically: true, encoding: .utf8)
        let got = try FoundReadings.load(
            file.path, for: ["/sets/a/img/one.png", "/sets/a/img/two.png", "/sets/a/img/bad.png", "/sets/a/img/none.png"])
        #expect(got[0] == FoundReadings.Reading(amounts: [Decimal(string: "12.50")!, 3]))
        #expect(got[1].amounts == [Decimal(string: "0.99")!, Decimal(string: "1.01")!])
        #expect(got[2].failed && got[2].error == "bad.png: not an image" && got[2].amounts.isEmpty)
        #expect(got[3] == FoundReadings.Reading(amounts: []))
    }

    @Test("a folder of parse outputs: <image>.jsonl, subfolders too, every line's prices")
    func parseOutputs() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("shop"), withIntermediateDirectories: true)
        try """
        {"line":"Milk 1,29","prices":[{"amount":"1.29"}]}
        {"line":"no price","prices":[]}
        {"line":"TOTAL 5,00","prices":[{"amount":"5.00"}]}
        """.write(to: dir.appendingPathComponent("shop/r1.jpg.jsonl"), atomically: true, encoding: .utf8)
        try "".write(to: dir.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let got = try FoundReadings.load(dir.path, for: ["/x/img/shop/r1.jpg", "/x/img/r1.jpg"])
        #expect(got[0].amounts == [Decimal(string: "1.29")!, 5])
        #expect(got[1].amounts.isEmpty)  // a tail match needs the whole tail: shop/r1.jpg is not r1.jpg
    }

    @Test("the price marked role total is scored apart from the amounts found")
    func markedTotal() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("found.jsonl")
        try """
        {"file":"right.png","prices":[{"amount":"4.00"},{"amount":"12.50","role":"total"},{"amount":"0.80","role":"total"}]}
        {"file":"wrong.png","prices":[{"amount":"12.50"},{"amount":"0.80","role":"total"}]}
        {"file":"none.png","prices":[{"amount":"12.50"}]}

        """.write(to: file, atomically: true, encoding: .utf8)
        let got = try FoundReadings.load(file.path, for: ["/s/right.png", "/s/wrong.png", "/s/none.png"])
        #expect(got.map(\.markedTotal) == [Decimal(string: "12.50")!, Decimal(string: "0.80")!, nil])
        var score = Score()
        let truth = EvaluationSet.Truth(total: Decimal(string: "12.50")!, amounts: nil)
        for r in got { score.add(truth: truth, found: r.amounts, marked: r.markedTotal, failed: false) }
        #expect(score.totalsFound == 3 && score.totalsMarked == 1)
        #expect(score.totalRecall == 1 && score.totalMarkedRate == 1.0 / 3)
        var other = Score()
        other.add(truth: truth, found: [], marked: nil, failed: false)
        score.merge(other)
        #expect(score.totalsExpected == 4 && score.totalsMarked == 1)
    }

    @Test("bad input names the file and line; a missing source says what to give")
    func badInput() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("found.jsonl")
        try "{\"file\":\"a.png\",\"prices\":[]}\nnot json\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: FoundReadings.LoadError.self) { try FoundReadings.load(file.path, for: ["a.png"]) }
        do {
            _ = try FoundReadings.load(file.path, for: ["a.png"])
        } catch {
            #expect("\(error)" == "\(file.path):2: not a JSON object")
        }
        do {
            _ = try FoundReadings.load(dir.appendingPathComponent("missing").path, for: [])
            Issue.record("a missing source was accepted")
        } catch {
            #expect("\(error)".contains("missing: cannot read it"))
        }
    }
}
