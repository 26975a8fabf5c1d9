import Foundation
import Testing

/// `pricecam live` and Ctrl-C, on a real process.
@Suite struct LiveSignalTests {
    @Test("a second Ctrl-C exits at once, after saving the history recorded so far")
    func secondInterruptFlushesHistory() throws {
        let home = try CLI.tempDir()
        let replay = try Self.replayFolder()
        // Two workers: one reads the small tag and records its prices, the other is
        // still reading the large page when Ctrl-C comes, so the first Ctrl-C waits
        // (up to 2 s) for it and the second arrives during that wait. Recorded rows
        // wait for the recorder's 1 s flush: only the exit path can have saved them.
        let live = try RunningCLI(
            [
                "live", "--source", replay, "--loop", "--fps", "5", "--jobs", "2", "--stable", "1/1",
                "--currency", "GBP", "--rate", "2", "--format", "jsonl",
            ], home: home)
        let appeared = live.waitForOutput(containing: "\"amount\":\"31.19\"", seconds: 120)
        #expect(appeared, "no price reported; stderr: \(live.stderr)")
        live.send(SIGINT)
        usleep(200_000)  // a separate signal (two at once would merge into one)
        live.send(SIGINT)
        let status = live.wait(seconds: 30)
        #expect(status == 130, "exit status \(status.map(String.init) ?? "none: killed after 30 s"); stderr: \(live.stderr)")
        guard appeared else { return }

        let history = try CLI.run(["history", "list", "--format", "jsonl"], home: home)
        #expect(history.status == 0, "\(history.stderr)")
        #expect(
            history.jsonLines.contains { $0["amount"] as? String == "31.19" && ($0["source"] as? String)?.hasPrefix(replay) == true },
            "the price reported before the second Ctrl-C is not in the history: \(history.stdout)")
    }

    /// A folder replaying `a_page.pgm` (a fixture tag tiled 6 × 6: seconds of OCR)
    /// and then `b_tag.png` (the tag itself: read quickly).
    static func replayFolder() throws -> String {
        let dir = try CLI.tempDir()
        let tag = "\(CLI.fixtures)/clean/frame_0001.png"
        try FileManager.default.copyItem(atPath: tag, toPath: "\(dir)/b_tag.png")
        // The tag's gray pixels, as pricecam reads them (its first frame, dumped as PGM).
        let one = try CLI.tempDir()
        try FileManager.default.copyItem(atPath: tag, toPath: "\(one)/tag.png")
        let dump = "\(one)/tag.pgm"
        let r = try CLI.run(
            ["live", "--source", one, "--frames", "1", "--jobs", "1", "--no-convert"],
            environment: ["PRICECAM_DUMP_FRAME": dump])
        guard r.status == 0, let pgm = FileManager.default.contents(atPath: dump) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no frame dump: \(r.stderr)"])
        }
        // "P5\nW H\n255\n" then W × H bytes.
        let header = pgm.prefix(32).split(separator: UInt8(ascii: "\n"), maxSplits: 3, omittingEmptySubsequences: false)
        let size = String(decoding: header[1], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        let (w, h) = (size[0], size[1])
        let pixels = [UInt8](pgm.suffix(w * h))
        let n = 6
        var page = Data("P5\n\(w * n) \(h * n)\n255\n".utf8)
        for _ in 0..<n {
            for y in 0..<h {
                let row = pixels[(y * w)..<(y * w + w)]
                for _ in 0..<n { page.append(contentsOf: row) }
            }
        }
        try page.write(to: URL(fileURLWithPath: "\(dir)/a_page.pgm"))
        return dir
    }
}
