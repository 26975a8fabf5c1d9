import Foundation
import Testing

/// `pricecam batch DIR | head`: when stdout's reader goes away the run still
/// finishes and every converted price reaches the history.
@Suite("Broken pipe")
struct BrokenPipeTests {
    @Test func historyCompleteWhenStdoutCloses() throws {
        let dir = "\(CLI.fixtures)/clean"
        let args = ["batch", dir, "--format", "jsonl", "--no-progress", "--currency", "EUR", "--rate", "1.08", "--home", "USD"]
        let full = try CLI.run(args)
        #expect(full.status == 0, "\(full.stderr)")
        let converted = full.jsonLines.flatMap { ($0["prices"] as? [[String: Any]]) ?? [] }.filter { $0["converted"] is String }.count
        #expect(converted > 0)

        let home = try CLI.tempDir()
        let cut = try CLI.run(args, home: home, closeStdout: true)
        #expect(cut.status == 0, "\(cut.stderr)")
        let history = try CLI.run(["history", "list", "--format", "jsonl", "--limit", "100000"], home: home)
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.jsonLines.count == converted)
    }

    /// `PRICECAM_DEBUG=1 pricecam scan ... 2>&1 | head`: the diagnostics' reader going away
    /// does not stop the run (it trapped on the first write after it, "Illegal instruction").
    @Test func scanFinishesWhenDebugStderrCloses() throws {
        let args = [
            "scan", "\(CLI.fixtures)/clean/receipt_0004.png", "--currency", "EUR", "--rate", "1", "--no-history", "--format", "jsonl",
        ]
        let full = try CLI.run(args, environment: ["PRICECAM_DEBUG": "1"])
        #expect(full.status == 0, "\(full.stderr.suffix(500))")
        #expect(full.stderr.contains("detector"), "no diagnostics were written")
        let cut = try CLI.run(args, closeStderr: true, environment: ["PRICECAM_DEBUG": "1"])
        #expect(cut.status == 0, "exit \(cut.status)")
        // The same prices (the line's `ms` is the time it took).
        func prices(_ r: CLI.Result) -> [String] {
            r.jsonLines.flatMap { ($0["prices"] as? [[String: Any]]) ?? [] }.map { "\($0["amount"] ?? "") \($0["role"] ?? "")" }
        }
        #expect(!prices(full).isEmpty && prices(cut) == prices(full), "\(cut.stdout) against \(full.stdout)")
    }
}
