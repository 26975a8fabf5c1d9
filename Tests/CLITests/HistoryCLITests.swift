import Foundation
import Testing

/// The history commands, a kill -9 during appends and two writers at once,
/// through the real binary (these were scripts/test-history.sh's checks).
@Suite struct HistoryCLITests {
    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    @Test func listExportStatsClear() throws {
        let home = try CLI.tempDir()
        #expect(try CLI.run(["history", "list", "--format", "jsonl"], home: home).status == 0, "list on no database")
        #expect(try CLI.run(["history", "_stress-append", "--rows", "7", "--chunk", "3", "--run", "cmds"], home: home).status == 0)
        let two = try CLI.run(["history", "list", "--format", "jsonl", "--limit", "2"], home: home).stdout
        #expect(Self.lines(two).filter { $0.contains(#""run":"cmds""#) }.count == 2)
        #expect(
            Self.lines(two).first?.contains(#""amount":"6","currency":"JPY","rate":"0.22","converted":"1.32","target":"TWD""#) == true,
            "newest first, exact decimals: \(two)")
        let csv = try CLI.run(["history", "list", "--format", "csv", "--source", "stress/5.png"], home: home).stdout
        #expect(Self.lines(csv).count == 2, "header + one row: \(csv)")
        #expect(Self.lines(try CLI.run(["history", "list", "--since", "1d", "--format", "jsonl"], home: home).stdout).count == 7)
        #expect(try CLI.run(["history", "list", "--since", "2999-01-01", "--format", "jsonl"], home: home).stdout.isEmpty)
        #expect(try CLI.run(["history", "list", "--since", "yesterdayish"], home: home).status == 2)

        let out = try CLI.tempDir()
        #expect(try CLI.run(["history", "export", "\(out)/h.csv"], home: home).status == 0)
        #expect(Self.lines(try String(contentsOfFile: "\(out)/h.csv", encoding: .utf8)).count == 8, "header + 7 rows")
        _ = try CLI.run(["history", "export", "\(out)/h.jsonl"], home: home)
        let jsonl = Self.lines(try String(contentsOfFile: "\(out)/h.jsonl", encoding: .utf8))
        #expect(jsonl.count == 7)
        #expect(jsonl.first?.contains(#""amount":"0""#) == true, "oldest first")
        #expect(try CLI.run(["history", "export", "\(out)/h.txt"], home: home).status == 2, "export needs a known extension")

        let stats = try CLI.run(["history", "stats", "--json"], home: home)
        #expect(stats.status == 0)
        #expect(stats.stdout.contains(#""count":7,"runs":1"#), "\(stats.stdout)")
        #expect(stats.stdout.contains(#"{"currency":"JPY","target":"TWD","count":7,"amount":"21","converted":"4.62"}"#), "\(stats.stdout)")
        #expect(try CLI.run(["history", "clear"], home: home).status == 2, "clear without --yes off a terminal")
        #expect(try CLI.run(["history", "clear", "--yes"], home: home).status == 0)
        #expect(try CLI.run(["history", "stats", "--json"], home: home).stdout.contains(#""count":0"#))
    }

    @Test func killDuringAppendsKeepsWholeChunks() throws {
        let home = try CLI.tempDir()
        let writer = try RunningCLI(
            [
                "history", "_stress-append", "--rows", "10000000", "--chunk", "200", "--run", "killed",
                "--delay-us", "5",
            ], home: home)
        usleep(2_500_000)
        writer.send(SIGKILL)
        _ = writer.wait(seconds: 10)
        let check = try CLI.run(["history", "check"], home: home)
        #expect(check.status == 0, "integrity check after kill -9: \(check.stderr)")
        let rows =
            Int(
                check.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                    .replacingOccurrences(of: "ok ", with: "").replacingOccurrences(of: " rows", with: "")) ?? -1
        #expect(rows > 0 && rows % 200 == 0, "after kill: '\(check.stdout)' is not whole chunks of 200")

        let out = try CLI.tempDir()
        _ = try CLI.run(["history", "export", "\(out)/killed.jsonl"], home: home)
        let exported = try String(contentsOfFile: "\(out)/killed.jsonl", encoding: .utf8)
        let objects = Self.lines(exported).compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let amounts = objects.compactMap { ($0["amount"] as? String).flatMap { Int($0) } }.sorted()
        #expect(amounts == Array(0..<max(rows, 0)), "every committed row, 0..<\(rows)")
        for o in objects {
            let amount = Decimal(string: o["amount"] as? String ?? "x", locale: Locale(identifier: "en_US_POSIX")) ?? -1
            var exact = amount * Decimal(string: "0.22")!
            var rounded = Decimal()
            NSDecimalRound(&rounded, &exact, 2, .plain)
            #expect(Decimal(string: o["converted"] as? String ?? "x", locale: Locale(identifier: "en_US_POSIX")) == rounded, "\(o)")
            #expect(o["source"] as? String == "stress/\(o["amount"] as? String ?? "").png" && o["run"] as? String == "killed", "\(o)")
        }
        #expect(
            try CLI.run(["history", "_stress-append", "--rows", "10", "--chunk", "5", "--run", "after"], home: home).status == 0,
            "the database is usable after kill -9")
    }

    @Test func twoWritersAtOnceLoseNoRow() throws {
        let home = try CLI.tempDir()
        let writers = try ["w1", "w2"].map {
            try RunningCLI(["history", "_stress-append", "--rows", "4000", "--chunk", "50", "--run", $0], home: home)
        }
        for w in writers {
            let status = w.wait(seconds: 300)
            #expect(status == 0, "writer exited \(status.map(String.init) ?? "(killed after 300 s)"): \(w.stderr)")
        }
        let out = try CLI.tempDir()
        _ = try CLI.run(["history", "export", "\(out)/two.jsonl"], home: home)
        let rows = Self.lines(try String(contentsOfFile: "\(out)/two.jsonl", encoding: .utf8))
        #expect(rows.filter { $0.contains(#""run":"w1""#) }.count == 4000)
        #expect(rows.filter { $0.contains(#""run":"w2""#) }.count == 4000)
        #expect(try CLI.run(["history", "check"], home: home).stdout.contains("ok 8000 rows"))
    }

    /// `--history FILE` moves the SQLite history; a malformed location is a usage error naming it, never its password.
    @Test func historyLocationOption() throws {
        let home = try CLI.tempDir()
        let file = try CLI.tempDir() + "/elsewhere.sqlite"
        #expect(try CLI.run(["history", "_stress-append", "--rows", "3", "--run", "moved", "--history", file], home: home).status == 0)
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(!FileManager.default.fileExists(atPath: home + "/history.sqlite"))
        #expect(try CLI.run(["history", "check", "--history", file], home: home).stdout == "ok 3 rows\n")
        let bad = try CLI.run(["history", "list", "--history", "postgres://shop:hunter2@/prices"], home: home)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("not a PostgreSQL URL") && !bad.stderr.contains("hunter2"), "\(bad.stderr)")
    }
}
