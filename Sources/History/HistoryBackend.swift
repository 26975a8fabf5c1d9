public import Foundation
import Synchronization

/// Where the history lives: the embedded SQLite file (`HistoryStore`, the default)
/// or a PostgreSQL database (`PostgresHistoryStore`). Same table, same rows, same
/// answers; `HistoryRecorder` and the CLI only see this protocol.
///
/// Calls block the calling thread (never call them on an event loop).
public protocol HistoryBackend: AnyObject, Sendable {
    /// For messages: the file path, or the URL without its password.
    var location: String { get }
    /// Appends `entries` in one transaction: all of them or none.
    func append(_ entries: [HistoryEntry]) throws(HistoryError)
    /// Rows matching `query`, newest first.
    func list(_ query: HistoryQuery) throws(HistoryError) -> [HistoryEntry]
    /// How many rows match `query`'s filters (its limit and offset aside).
    func count(_ query: HistoryQuery) throws(HistoryError) -> Int
    /// Deletes every row; returns how many.
    @discardableResult func clear() throws(HistoryError) -> Int
    /// Counts and exact Decimal sums per (currency, home currency).
    func stats() throws(HistoryError) -> HistoryStats
    /// "ok" when healthy, else what is wrong.
    func integrityCheck() throws(HistoryError) -> String
    /// What `integrityCheck` checked, when it is not SQLite's own check (for `history check`).
    var checkNote: String? { get }
}

extension HistoryBackend {
    /// Every row, newest first.
    public func list() throws(HistoryError) -> [HistoryEntry] { try list(HistoryQuery()) }
    /// How many rows there are.
    public func count() throws(HistoryError) -> Int { try count(HistoryQuery()) }
}

/// The `--history` value (or `PRICECAM_HISTORY`): a `postgres://` URL, or a SQLite file path.
public enum HistoryLocation: Sendable, Equatable {
    case sqlite(path: String)
    case postgres(PostgresURL)

    /// The environment variable naming the history location.
    public static let environmentVariable = "PRICECAM_HISTORY"

    /// `flag`, else `PRICECAM_HISTORY`, else the settings file's `history` line, else the
    /// default SQLite file of `paths`.
    public static func resolve(
        flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        paths: PricecamPaths = .current()
    ) throws(HistoryError) -> HistoryLocation {
        if let flag, !flag.isEmpty { return try parse(flag) }
        if let env = environment[environmentVariable], !env.isEmpty {
            do { return try parse(env) } catch {
                throw HistoryError(path: error.path, problem: error.problem + " (from \(environmentVariable))", fix: error.fix)
            }
        }
        let stored: String?
        do { stored = try SettingsFile.history(path: paths.settingsFile) } catch {
            throw HistoryError(path: error.path, problem: error.problem, fix: error.fix)
        }
        if let stored {
            do { return try parse(stored) } catch {
                throw HistoryError(
                    path: error.path, problem: error.problem + " (the `history` line of \(paths.settingsFile))",
                    fix: error.fix + "; or remove it with `pricecam settings set --clear-history`")
            }
        }
        return .sqlite(path: paths.historyDatabase)
    }

    /// `postgres://` or `postgresql://` URLs go to PostgreSQL; anything else is a file path.
    public static func parse(_ text: String) throws(HistoryError) -> HistoryLocation {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            return .postgres(try PostgresURL(text))
        }
        if text.contains("://") {
            throw HistoryError(
                path: text, problem: "unknown kind of history location",
                fix: "use postgres://USER[:PASS]@HOST:PORT/DB for PostgreSQL, or a file path for SQLite")
        }
        return .sqlite(path: text)
    }

    /// For messages (no password).
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url): return url.redacted
        }
    }

    /// Whether the history already exists (a SQLite file that is there; a server is
    /// always asked). Read-only commands show an empty history without creating one.
    public var mayExist: Bool {
        switch self {
        case .sqlite(let path): return FileManager.default.fileExists(atPath: path)
        case .postgres: return true
        }
    }

    /// Opens the history, creating the file or table when missing.
    public func open() throws(HistoryError) -> any HistoryBackend {
        switch self {
        case .sqlite(let path): return try HistoryStore(path: path)
        case .postgres(let url): return try PostgresHistoryStore(url: url)
        }
    }
}

/// Exact Decimal sums per (currency, home currency), fed one row at a time (from any thread).
final class StatsAccumulator: Sendable {
    private let groups = Mutex<[String: HistoryStats.ByCurrency]>([:])

    /// One row: a nil currency or home counts as "?"; money is exact decimal text.
    func add(currency: String?, home: String?, amount: String?, converted: String?) {
        let currency = currency ?? "?"
        let home = home ?? "?"
        groups.withLock { groups in
            let key = currency + "\u{0}" + home
            var g = groups[key] ?? .init(currency: currency, home: home, count: 0, amountSum: 0, convertedSum: 0)
            g.count += 1
            g.amountSum += HistoryStore.decimal(amount)
            g.convertedSum += HistoryStore.decimal(converted)
            groups[key] = g
        }
    }

    /// The groups by currency, then home.
    var sorted: [HistoryStats.ByCurrency] {
        groups.withLock { $0.values.sorted { ($0.currency, $0.home) < ($1.currency, $1.home) } }
    }
}
