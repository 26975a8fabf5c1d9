public import Conversion
public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A settings file that cannot be used, with the file, the problem and the fix.
public struct SettingsFileError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var problem: String
    public var fix: String

    public var description: String {
        "settings file \(path): \(problem)\nfix: \(fix)"
    }
}

/// The settings file: a small, human-readable TOML subset.
///
/// ```
/// # pricecam settings
/// currency = "JPY"
/// rate = "0.22"
/// home = "TWD"
/// updated_at = "2025-05-01T09:30:00Z"
/// max_rate_age_days = 30
/// history = "postgres://pricecam@db.example:5432/prices"   # optional, see HistoryLocation
/// ```
/// Reading never repairs or resets anything; writing is atomic
/// (temporary file in the same directory, fsync, rename, fsync of the directory).
public enum SettingsFile {
    /// The settings stored at `path`; nil when the file does not exist.
    public static func load(path: String) throws(SettingsFileError) -> CurrencySettings? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw SettingsFileError(
                path: path, problem: "cannot be read (\(error.localizedDescription))",
                fix: "check the file's permissions, or set PRICECAM_HOME to another directory")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw corrupt(path, "is not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    static let handFix =
        "edit the line by hand, or move the file away and run `pricecam setup` (or `pricecam setup --force ...`) to write a new one"

    static func corrupt(_ path: String, _ problem: String) -> SettingsFileError {
        SettingsFileError(path: path, problem: problem, fix: handFix)
    }

    /// Parses the file's text. `path` is only used in messages.
    public static func parse(_ text: String, path: String) throws(SettingsFileError) -> CurrencySettings {
        var values: [String: (String, Int)] = [:]
        let known: Set<String> = ["currency", "rate", "home", "updated_at", "max_rate_age_days", historyKey]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNo = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                throw corrupt(path, "line \(lineNo): expected `key = value`, found \"\(line)\"")
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            guard known.contains(key) else {
                throw corrupt(
                    path, "line \(lineNo): unknown key \"\(key)\" (known: currency, rate, home, updated_at, max_rate_age_days, history)")
            }
            if values[key] != nil { throw corrupt(path, "line \(lineNo): \"\(key)\" is set twice") }
            if value.hasPrefix("\"") {
                guard value.count >= 2, value.hasSuffix("\""), !value.dropFirst().dropLast().contains("\"") else {
                    throw corrupt(path, "line \(lineNo): unterminated or malformed string for \"\(key)\"")
                }
                value = String(value.dropFirst().dropLast())
            }
            values[key] = (value, lineNo)
        }
        func required(_ key: String) throws(SettingsFileError) -> (String, Int) {
            guard let v = values[key] else { throw corrupt(path, "\"\(key)\" is missing") }
            return v
        }
        let (currencyText, currencyLine) = try required("currency")
        let (rateText, rateLine) = try required("rate")
        let (updatedText, updatedLine) = try required("updated_at")
        let currency: String
        do { currency = try CurrencyCode.validate(currencyText, field: "currency") } catch {
            throw corrupt(path, "line \(currencyLine): \(error.description)")
        }
        let rate: Decimal
        do { rate = try ExchangeRate.validate(rateText) } catch {
            throw corrupt(path, "line \(rateLine): \(error.description)")
        }
        var home: String?
        if let (homeText, homeLine) = values["home"], !homeText.isEmpty {
            do { home = try CurrencyCode.validate(homeText, field: "home currency") } catch {
                throw corrupt(path, "line \(homeLine): \(error.description)")
            }
        }
        guard let updatedAt = parseDate(updatedText) else {
            throw corrupt(path, "line \(updatedLine): updated_at \"\(updatedText)\" is not a date like 2025-05-01T09:30:00Z")
        }
        var maxAge = RateAge.defaultMaxDays
        if let (ageText, ageLine) = values["max_rate_age_days"] {
            do { maxAge = try RateAge.validateDays(ageText) } catch {
                throw corrupt(path, "line \(ageLine): \(error.description)")
            }
        }
        return CurrencySettings(currency: currency, rate: rate, home: home, updatedAt: updatedAt, maxRateAgeDays: maxAge)
    }

    /// The file's text for `settings`, with a `history` line when `history` is given.
    public static func render(_ s: CurrencySettings, history: String? = nil) -> String {
        """
        # pricecam settings. Change with `pricecam settings set`, or edit by hand.
        # rate: home-currency units per 1 unit of `currency`.
        currency = "\(s.currency)"
        rate = "\(Money.exact(s.rate))"
        home = "\(s.home ?? "")"
        updated_at = "\(formatDate(s.updatedAt))"
        max_rate_age_days = \(s.maxRateAgeDays)

        """
            + (history.map { "# history: a postgres:// URL or a SQLite file (--history and PRICECAM_HISTORY win).\nhistory = \"\($0)\"\n" }
                ?? "")
    }

    /// The key naming where the history lives (`HistoryLocation`).
    static let historyKey = "history"

    /// The `history` value of the file at `path`: nil when there is no file, no such line or
    /// an empty one. Read on its own, line by line, so that a history stays where the file
    /// says even when another line of it is broken (the currency commands report those).
    public static func history(path: String) throws(SettingsFileError) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SettingsFileError(
                path: path, problem: "cannot be read", fix: "check the file's permissions, or set PRICECAM_HOME to another directory")
        }
        for rawLine in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            guard !line.hasPrefix("#"), let eq = line.firstIndex(of: "="),
                line[..<eq].trimmingCharacters(in: .whitespaces) == historyKey
            else { continue }
            var value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    public static func formatDate(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    public static func parseDate(_ text: String) -> Date? {
        if let d = try? Date(text, strategy: .iso8601) { return d }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    /// Writes `settings` atomically to `path`, creating its directory.
    /// A `history` line already in the file is kept (setup and `settings set` rewrite the file).
    public static func save(_ settings: CurrencySettings, path: String) throws(SettingsFileError) {
        try save(settings, history: try? history(path: path), path: path)
    }

    /// Writes `settings` with `history` (nil: no history line) atomically to `path`.
    public static func save(_ settings: CurrencySettings, history: String?, path: String) throws(SettingsFileError) {
        try AtomicFile.write(Data(render(settings, history: history).utf8), to: path)
    }
}

/// Atomic whole-file replacement: write a temporary file next to the target,
/// fsync it, rename it over the target, fsync the directory.
public enum AtomicFile {
    public static func write(_ data: Data, to path: String) throws(SettingsFileError) {
        let dir = (path as NSString).deletingLastPathComponent
        let dirPath = dir.isEmpty ? "." : dir
        do {
            try FileManager.default.createDirectory(
                atPath: dirPath, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw SettingsFileError(
                path: path, problem: "cannot create directory \(dirPath) (\(error.localizedDescription))",
                fix: "check permissions, or set PRICECAM_HOME to a writable directory")
        }
        let tmp = dirPath + "/." + (path as NSString).lastPathComponent + ".tmp-\(getpid())"
        func fail(_ what: String) -> SettingsFileError {
            let msg = String(cString: strerror(errno))
            unlink(tmp)
            return SettingsFileError(
                path: path, problem: "\(what) failed (\(msg)); the previous file is unchanged",
                fix: "check free space and permissions of \(dirPath), or set PRICECAM_HOME to a writable directory")
        }
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw fail("creating \(tmp)") }
        var ok = true
        data.withUnsafeBytes { (buf: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buf.count {
                let n = posixWrite(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 { if errno == EINTR { continue }; ok = false; return }
                offset += n
            }
        }
        guard ok else { close(fd); throw fail("writing \(tmp)") }
        guard fsync(fd) == 0 else { close(fd); throw fail("fsync of \(tmp)") }
        guard close(fd) == 0 else { throw fail("closing \(tmp)") }
        guard rename(tmp, path) == 0 else { throw fail("renaming \(tmp) to \(path)") }
        let dfd = open(dirPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { _ = fsync(dfd); close(dfd) }
    }
}

private func posixWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
        return Glibc.write(fd, p, n)
    #else
        return Darwin.write(fd, p, n)
    #endif
}
