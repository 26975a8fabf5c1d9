import Foundation
import Testing

/// `--lang`: which Tesseract models read the image (README "Languages").
@Suite("Language option", .serialized)
struct LanguageOptionTests {
    /// The fixture's yen amounts (from the generator's gt.json) that a run read.
    static func yenRead(_ extra: [String]) throws -> (found: Int, of: Int) {
        let gt =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(CLI.fixtures)/symbols/gt.json")))
            as? [String: [String: Any]]
        let want = try #require(gt?["frame_0001.png"]?["amounts"] as? [String]).compactMap { Decimal(string: $0) }
        let r = try CLI.run(
            ["scan", "\(CLI.fixtures)/symbols/frame_0001.png", "--currency", "JPY", "--rate", "1", "--no-history", "--format", "jsonl"]
                + extra)
        #expect(r.status == 0, "\(r.stderr)")
        let prices = try #require(r.jsonLines.first?["prices"] as? [[String: Any]])
        let got = prices.compactMap { ($0["amount"] as? String).flatMap { Decimal(string: $0) } }
        return (want.filter { got.contains($0) }.count, want.count)
    }

    @Test("yen settings load Japanese: 379円 reads as 379, where English alone makes 円 a digit")
    func yenLoadsJapanese() throws {
        let english = try Self.yenRead(["--lang", "eng"])
        let auto = try Self.yenRead([])
        #expect(
            auto.found > english.found,
            "yen amounts read: \(auto.found)/\(auto.of) with --lang auto, \(english.found)/\(english.of) with eng")
        #expect(try Self.yenRead(["--lang", "japanese"]).found == auto.found)
    }

    @Test("an unknown language is a usage error naming it and the choices")
    func unknownLanguage() throws {
        let r = try CLI.run(["scan", "\(CLI.fixtures)/clean/frame_0001.png", "--no-convert", "--lang", "eng+klingon"])
        #expect(r.status == 64 || r.status == 2, "exit \(r.status)")
        #expect(r.stderr.contains("klingon") && r.stderr.contains("jpn"), "\(r.stderr)")
    }

    @Test("a named language that is not installed is an error naming the package to install")
    func missingModel() throws {
        let dir = try CLI.tempDir()
        try FileManager.default.copyItem(atPath: "/usr/share/tesseract-ocr/5/tessdata/eng.traineddata", toPath: "\(dir)/eng.traineddata")
        let r = try CLI.run(["scan", "\(CLI.fixtures)/clean/frame_0001.png", "--no-convert", "--lang", "fr", "--tessdata", dir])
        #expect(r.status == 2, "exit \(r.status)")
        #expect(r.stderr.contains("tesseract-ocr-fra") && r.stderr.contains(dir), "\(r.stderr)")
    }

    @Test("with --lang auto a missing script model is a warning: the run reads in English")
    func missingAutoModel() throws {
        let dir = try CLI.tempDir()
        try FileManager.default.copyItem(atPath: "/usr/share/tesseract-ocr/5/tessdata/eng.traineddata", toPath: "\(dir)/eng.traineddata")
        let r = try CLI.run([
            "scan", "\(CLI.fixtures)/symbols/frame_0001.png", "--currency", "JPY", "--rate", "1", "--no-history", "--format", "jsonl",
            "--tessdata", dir,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning") && r.stderr.contains("tesseract-ocr-jpn"), "\(r.stderr)")
        #expect(!r.jsonLines.isEmpty)
    }
}
