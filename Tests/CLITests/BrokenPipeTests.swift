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
}
