import Conversion
import Foundation
import Synchronization
import Testing
@testable import History
import TestSupport

func tempDir(_ name: String = #function) -> String {
    try! Scratch.folder("pricecam-tests")
}

@Suite("paths")
struct PathsTests {
    @Test func pricecamHomeOverridesEverything() {
        let p = PricecamPaths.resolve(environment: [
            "PRICECAM_HOME": "/tmp/p1", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "HOME": "/h",
        ])
        #expect(p == PricecamPaths(settingsFile: "/tmp/p1/settings.toml", historyDatabase: "/tmp/p1/history.sqlite"))
    }

    @Test func xdgDirectories() {
        let p = PricecamPaths.resolve(environment: ["XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d/", "HOME": "/h"])
        #expect(p == PricecamPaths(settingsFile: "/c/pricecam/settings.toml", historyDatabase: "/d/pricecam/history.sqlite"))
    }

    @Test func defaultsUnderHomeAndRelativeXDGIgnored() {
        let p = PricecamPaths.resolve(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "rel", "PRICECAM_HOME": ""])
        #expect(
            p
                == PricecamPaths(
                    settingsFile: "/h/.config/pricecam/settings.toml", historyDatabase: "/h/.local/share/pricecam/history.sqlite"))
    }
}

@Suite("settings file")
struct SettingsFileTests {
    let sample = CurrencySettings(
        currency: "JPY", rate: Decimal(string: "0.22")!, home: "TWD",
        updatedAt: Date(timeIntervalSince1970: 1_746_091_800), maxRateAgeDays: 14)

    @Test func roundTripAndHumanReadable() throws {
        let path = tempDir() + "/sub/dir/settings.toml"
        try SettingsFile.save(sample, path: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text.contains(
                "currency = \"JPY\"\nrate = \"0.22\"\nhome = \"TWD\"\nupdated_at = \"2025-05-01T09:30:00Z\"\nmax_rate_age_days = 14\n"))
        #expect(try SettingsFile.load(path: path) == sample)
    }

    @Test func missingFileIsNil() throws {
        #expect(try SettingsFile.load(path: tempDir() + "/none.toml") == nil)
    }

    @Test func homeMayBeEmptyAndMaxAgeDefaults() throws {
        let s = try SettingsFile.parse(
            "currency = \"eur\"\nrate = \"163,5\"\nhome = \"\"\nupdated_at = \"2025-01-01T00:00:00Z\"\n", path: "x")
        #expect(
            s
                == CurrencySettings(
                    currency: "EUR", rate: dec("163.5"), home: nil, updatedAt: Date(timeIntervalSince1970: 1_735_689_600),
                    maxRateAgeDays: 30))
    }

    @Test(arguments: [
        (
            "currency = \"JPY\"\nrate = \"abc\"\nupdated_at = \"2025-01-01T00:00:00Z\"\n",
            "line 2: rate \"abc\" is not a plain decimal number"
        ),
        ("currency = \"JPY\"\nupdated_at = \"2025-01-01T00:00:00Z\"\n", "\"rate\" is missing"),
        (
            "currency = \"JP1\"\nrate = \"1\"\nupdated_at = \"2025-01-01T00:00:00Z\"\n",
            "line 1: currency code \"JP1\" must contain letters A-Z only"
        ),
        ("currency = \"JPY\"\nrate = \"1\"\nupdated_at = \"yesterday\"\n", "line 3: updated_at \"yesterday\" is not a date"),
        ("currency = \"JPY\"\nrate = \"0\"\nupdated_at = \"2025-01-01T00:00:00Z\"\n", "line 2: rate \"0\" must be greater than 0"),
        ("{\"currency\": \"JPY\"}\n", "line 1: expected `key = value`"),
        ("currency = \"JPY\nrate = \"1\"\n", "line 1: unterminated or malformed string"),
        ("currency = \"JPY\"\ncolour = \"red\"\n", "line 2: unknown key \"colour\""),
        ("currency = \"JPY\"\ncurrency = \"EUR\"\n", "line 2: \"currency\" is set twice"),
        ("currency = \"JPY\"\nrate = \"1\"\nupdated_at = \"2025-01-01T00:00:00Z\"\nmax_rate_age_days = 0\n", "line 4: maximum rate age"),
    ])
    func corruptFileErrorNamesFileProblemAndFix(_ text: String, _ problem: String) throws {
        let dir = tempDir()
        let path = dir + "/settings.toml"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        do {
            _ = try SettingsFile.load(path: path)
            Issue.record("no error for \(text)")
        } catch {
            #expect(error.path == path)
            #expect(error.problem.contains(problem), "\(error.problem)")
            #expect(error.description.hasPrefix("settings file \(path): "))
            #expect(error.description.contains("fix: edit the line by hand, or move the file away and run `pricecam setup`"))
        }
        // Never silently reset: the file is unchanged after the failed load.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    @Test func binaryGarbageIsReported() throws {
        let path = tempDir() + "/settings.toml"
        try Data([0xff, 0xfe, 0x00, 0x80]).write(to: URL(fileURLWithPath: path))
        #expect(throws: SettingsFileError.self) { try SettingsFile.load(path: path) }
    }

    /// A reader polling the file while it is rewritten never sees a partial or
    /// empty file: each read is one complete version.
    @Test func atomicWriteNeverExposesPartialFile() throws {
        let dir = tempDir()
        let path = dir + "/settings.toml"
        let a = sample
        var b = sample
        b.currency = "EURXXXXXXXXXXXXXXXXX"
        b.rate = Decimal(string: "9999.1234")!
        b.home = nil
        try SettingsFile.save(a, path: path)
        let done = ManagedAtomicFlag()
        let badReads = ManagedAtomicFlag()
        let reader = Thread {
            while !done.isSet {
                guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                    badReads.set(); continue
                }
                if (try? SettingsFile.parse(text, path: path)) == nil { badReads.set() }
            }
        }
        reader.start()
        for i in 0..<300 { try SettingsFile.save(i % 2 == 0 ? b : a, path: path) }
        done.set()
        while !reader.isFinished { usleep(1000) }
        #expect(!badReads.isSet)
        #expect(try SettingsFile.load(path: path) == a)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["settings.toml"])
    }

    @Test func unwritableLocationIsAClearErrorAndKeepsNothingHalfWritten() throws {
        // A path whose "directory" is a regular file: cannot be created, even as root.
        let dir = tempDir()
        try "x".write(toFile: dir + "/file", atomically: false, encoding: .utf8)
        do {
            try SettingsFile.save(sample, path: dir + "/file/settings.toml")
            Issue.record("saved into a file")
        } catch {
            #expect(error.problem.hasPrefix("cannot create directory \(dir)/file"))
            #expect(error.fix.contains("PRICECAM_HOME"))
        }
    }
}

/// A tiny thread-safe flag for the tests.
final class ManagedAtomicFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
