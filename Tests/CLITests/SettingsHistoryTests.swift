import Foundation
import Testing

/// The settings file's `history` line: where scans and the history commands keep the history
/// when neither --history nor PRICECAM_HISTORY says otherwise.
@Suite struct SettingsHistoryTests {
    static let image = "\(CLI.fixtures)/clean/frame_0001.png"  // two £ prices

    /// A home with GBP settings (so the image's prices are converted and recorded).
    static func home() throws -> String {
        let home = try CLI.tempDir()
        let r = try CLI.run(["setup", "--currency", "GBP", "--rate", "1.17", "--home", "EUR"], home: home)
        #expect(r.status == 0, "\(r.stderr)")
        return home
    }

    static func rows(_ history: String, home: String) throws -> Int {
        let r = try CLI.run(
            ["history", "list", "--format", "jsonl", "--history", history], home: home, environment: ["PRICECAM_HISTORY": ""])
        #expect(r.status == 0, "\(r.stderr)")
        return r.jsonLines.count
    }

    @Test func storedLocationTakesScansAndHistoryCommands() throws {
        let home = try Self.home()
        let alt = "\(home)/elsewhere/prices.sqlite"
        try FileManager.default.createDirectory(atPath: "\(home)/elsewhere", withIntermediateDirectories: true)
        let set = try CLI.run(["settings", "set", "--history", alt], home: home)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("history       \(alt)"))
        let scan = try CLI.run(["scan", Self.image], home: home, environment: ["PRICECAM_HISTORY": ""])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try Self.rows(alt, home: home) == 2, "the scan's prices went to the stored location")
        #expect(!FileManager.default.fileExists(atPath: "\(home)/history.sqlite"), "the default file stays untouched")
        // history commands without --history read it too
        let list = try CLI.run(["history", "list", "--format", "jsonl"], home: home, environment: ["PRICECAM_HISTORY": ""])
        #expect(list.jsonLines.count == 2)
        // the environment variable wins over the file
        let other = "\(home)/env.sqlite"
        let viaEnv = try CLI.run(["scan", Self.image], home: home, environment: ["PRICECAM_HISTORY": other])
        #expect(viaEnv.status == 0)
        #expect(try Self.rows(other, home: home) == 2)
        #expect(try Self.rows(alt, home: home) == 2)
    }

    @Test func rewritesKeepTheLineAndClearRemovesIt() throws {
        let home = try Self.home()
        let url = "postgres://pricecam:s3cret@127.0.0.1:1/prices"
        #expect(try CLI.run(["settings", "set", "--history", url], home: home).status == 0)
        // setup and settings set rewrite the file: the line stays
        #expect(try CLI.run(["settings", "set", "--rate", "1.18"], home: home).status == 0)
        #expect(try CLI.run(["setup", "--currency", "GBP", "--rate", "1.19", "--force"], home: home).status == 0)
        let text = try String(contentsOfFile: "\(home)/settings.toml", encoding: .utf8)
        #expect(text.contains("history = \"\(url)\""), "\(text)")
        let shown = try CLI.run(["settings"], home: home)
        #expect(shown.stdout.contains("postgres://pricecam@127.0.0.1:1/prices"))
        #expect(!shown.stdout.contains("s3cret"), "the password is never shown")
        let attrs = try FileManager.default.attributesOfItem(atPath: "\(home)/settings.toml")
        #expect((attrs[.posixPermissions] as? Int).map { $0 & 0o077 } == 0, "the file holding a password is the user's alone")
        // no server there: a history command fails naming the URL without its password
        let list = try CLI.run(["history", "list"], home: home, environment: ["PRICECAM_HISTORY": ""])
        #expect(list.status != 0)
        #expect(list.stderr.contains("postgres://pricecam@127.0.0.1:1/prices") && !list.stderr.contains("s3cret"), "\(list.stderr)")
        #expect(try CLI.run(["settings", "set", "--clear-history"], home: home).status == 0)
        #expect(!(try String(contentsOfFile: "\(home)/settings.toml", encoding: .utf8)).contains("history ="))
        #expect(try CLI.run(["history", "list"], home: home, environment: ["PRICECAM_HISTORY": ""]).status == 0)
    }

    @Test func badValuesAreRefusedWithTheirPlace() throws {
        let home = try Self.home()
        let refused = try CLI.run(["settings", "set", "--history", "ftp://example/x"], home: home)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("ftp://example/x"))
        #expect(try CLI.run(["settings", "set", "--history", "a.sqlite", "--clear-history"], home: home).status == 2)
        // a bad line written by hand: history commands name the file and how to fix it
        let path = "\(home)/settings.toml"
        try (try String(contentsOfFile: path, encoding: .utf8) + "history = \"ftp://example/x\"\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        let list = try CLI.run(["history", "list"], home: home, environment: ["PRICECAM_HISTORY": ""])
        #expect(list.status == 2, "\(list.stderr)")
        #expect(list.stderr.contains(path) && list.stderr.contains("--clear-history"), "\(list.stderr)")
    }
}
