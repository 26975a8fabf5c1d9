import Foundation
import Testing

/// Settings, the first-run gate and the stale-rate warning, through the real
/// binary (these were scripts/test-history.sh's checks).
@Suite struct SettingsCLITests {
    static let image = "\(CLI.fixtures)/clean/frame_0001.png"

    static func settingsFile(_ home: String) -> String { "\(home)/settings.toml" }

    @Test func setupValidatesFlagsAndStoresNormalisedValues() throws {
        let home = try CLI.tempDir()
        #expect(try CLI.run(["setup", "--currency", "jpy", "--rate", "0,22", "--home", "twd"], home: home).status == 0)
        let shown = try CLI.run(["settings", "--json"], home: home)
        #expect(shown.status == 0)
        #expect(shown.stdout.contains(#""currency":"JPY","rate":"0.22","home":"TWD""#), "stored upper-cased, 0,22 as 0.22: \(shown.stdout)")
    }

    @Test(arguments: ["0.0001", "10000", "0,5"])
    func rateAccepted(_ rate: String) throws {
        #expect(try CLI.run(["setup", "--currency", "EUR", "--rate", rate]).status == 0)
    }

    @Test(arguments: ["0.00009", "10000.0001", "1,000.5", "1e3", "NaN", "∞", "", "-1", "0", "1.2.3"])
    func rateRejected(_ rate: String) throws {
        let r = try CLI.run(["setup", "--currency", "EUR", "--rate", rate])
        #expect(r.status == 2, "rate '\(rate)': \(r.stderr)")
    }

    @Test func rejectionsSayWhy() throws {
        #expect(try CLI.run(["setup", "--currency", "EUR", "--rate", "0.00009"]).stderr.contains("between 0.0001 and 10000 inclusive"))
        #expect(try CLI.run(["setup", "--currency", "EUR", "--rate", "1,000.5"]).stderr.contains("more than one separator"))
        #expect(try CLI.run(["setup", "--currency", String(repeating: "A", count: 20), "--rate", "1"]).status == 0)
        let long = try CLI.run(["setup", "--currency", String(repeating: "A", count: 21), "--rate", "1"])
        #expect(long.status == 2)
        #expect(long.stderr.contains("at most 20 letters"))
        #expect(try CLI.run(["setup", "--currency", "J1", "--rate", "1"]).status == 2)
        #expect(try CLI.run(["setup", "--currency", "EUR", "--rate", "1", "--home", "T W"]).status == 2)
        let bare = try CLI.run(["setup"])
        #expect(bare.status == 2, "setup without flags off a terminal")
        #expect(bare.stderr.contains("pricecam setup --currency"))
    }

    @Test func settingsSet() throws {
        let home = try CLI.tempDir()
        #expect(try CLI.run(["settings", "set", "--rate", "1"], home: home).status == 2, "set before setup")
        #expect(try CLI.run(["setup", "--currency", "JPY", "--rate", "0.22"], home: home).status == 0)
        let before = try String(contentsOfFile: Self.settingsFile(home), encoding: .utf8)
        #expect(try CLI.run(["settings", "set", "--rate", "0.00009"], home: home).status == 2)
        #expect(try String(contentsOfFile: Self.settingsFile(home), encoding: .utf8) == before, "a rejected set leaves the file unchanged")
        #expect(try CLI.run(["settings", "set", "--rate", "0,25", "--home", "usd", "--max-rate-age-days", "7"], home: home).status == 0)
        let shown = try CLI.run(["settings", "--json"], home: home).stdout
        #expect(shown.contains(#""currency":"JPY","rate":"0.25","home":"USD""#), "\(shown)")
        #expect(shown.contains(#""max_rate_age_days":7"#), "\(shown)")
        _ = try CLI.run(["settings", "set", "--clear-home"], home: home)
        #expect(try CLI.run(["settings", "show", "--json"], home: home).stdout.contains(#""home":null"#))
    }

    @Test func corruptSettingsFileIsNamedAndNeverOverwritten() throws {
        let home = try CLI.tempDir()
        let corrupt = "currency = \"JPY\"\nrate = \"lots\"\nupdated_at = \"2025-01-01T00:00:00Z\"\n"
        try corrupt.write(toFile: Self.settingsFile(home), atomically: true, encoding: .utf8)
        let r = try CLI.run(["settings"], home: home)
        #expect(r.status == 2)
        #expect(r.stderr.contains(Self.settingsFile(home)))
        #expect(r.stderr.contains(#"line 2: rate "lots" is not a plain decimal number"#))
        #expect(r.stderr.contains("fix: "))
        #expect(try CLI.run(["setup", "--currency", "EUR", "--rate", "1"], home: home).status == 2)
        #expect(try CLI.run(["settings", "set", "--rate", "1"], home: home).status == 2)
        #expect(try CLI.run(["scan", Self.image], home: home).status == 2)
        #expect(try String(contentsOfFile: Self.settingsFile(home), encoding: .utf8) == corrupt, "the corrupt file was changed")
        #expect(try CLI.run(["setup", "--force", "--currency", "EUR", "--rate", "1"], home: home).status == 0)
    }

    @Test func firstRunGateOffATerminal() throws {
        let home = try CLI.tempDir()
        let scan = try CLI.run(["scan", Self.image], home: home)
        #expect(scan.status == 2)
        #expect(scan.stderr.contains("pricecam setup --currency JPY --rate 0.22"))
        #expect(!FileManager.default.fileExists(atPath: Self.settingsFile(home)), "the gate stores nothing")
        let folder = (Self.image as NSString).deletingLastPathComponent
        #expect(try CLI.run(["batch", folder], home: home).status == 2)
        #expect(try CLI.run(["live", "--source", folder, "--frames", "1"], home: home).status == 2)
        let bare = try CLI.run(["scan", "--no-convert", Self.image], home: home)
        #expect(bare.status != 2, "--no-convert blocked by the gate: \(bare.stderr)")
        let flags = try CLI.run(
            ["scan", "--format", "jsonl", "--currency", "JPY", "--rate", "0.22", "--home", "TWD", "--no-history", Self.image], home: home)
        #expect(flags.status != 2, "--currency/--rate blocked: \(flags.stderr)")
        #expect(!FileManager.default.fileExists(atPath: Self.settingsFile(home)), "--currency/--rate store nothing")
    }

    @Test func staleRateWarnsOncePerRun() throws {
        let home = try CLI.tempDir()
        try "currency = \"JPY\"\nrate = \"0.22\"\nhome = \"TWD\"\nupdated_at = \"2020-01-01T00:00:00Z\"\n"
            .write(toFile: Self.settingsFile(home), atomically: true, encoding: .utf8)
        let warning = "stored exchange rate was set"
        let twice = try CLI.run(["scan", "--no-history", "--format", "jsonl", Self.image, Self.image], home: home)
        #expect(twice.stderr.components(separatedBy: warning).count - 1 == 1, "\(twice.stderr)")
        let silenced = try CLI.run(["scan", "--no-history", "--format", "jsonl", "--max-rate-age-days", "36500", Self.image], home: home)
        #expect(!silenced.stderr.contains(warning))
    }

    @Test func unusableHistoryLocationWarnsAndGoesOn() throws {
        let dir = try CLI.tempDir()
        FileManager.default.createFile(atPath: "\(dir)/plainfile", contents: Data())
        let home = "\(dir)/plainfile/sub"
        let r = try CLI.run(["scan", "--format", "jsonl", "--currency", "JPY", "--rate", "0.22", Self.image], home: home)
        #expect(r.stderr.contains("history is off for this run"))
        #expect(r.stderr.contains("\(home)/history.sqlite"))
        #expect(r.stdout.contains(#""file":"#), "extraction still on stdout")
        #expect(r.status != 2, "unusable history is not a usage error")
    }
}
