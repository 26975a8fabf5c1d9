import Conversion
public import Foundation
import GRDB

/// One converted price, as stored in the history.
public struct HistoryEntry: Sendable, Equatable {
    public var time: Date
    /// File path, or `device#frame` on the live path.
    public var source: String
    /// The text the price was read from.
    public var rawText: String
    public var amount: Decimal
    public var currency: String?
    public var rate: Decimal
    public var converted: Decimal
    public var home: String?
    public var confidence: Double
    /// x, y, width, height in image pixels.
    public var box: [Int]?
    public var runID: String

    public init(
        time: Date, source: String, rawText: String, amount: Decimal, currency: String?, rate: Decimal,
        converted: Decimal, home: String?, confidence: Double, box: [Int]?, runID: String
    ) {
        self.time = time
        self.source = source
        self.rawText = rawText
        self.amount = amount
        self.currency = currency
        self.rate = rate
        self.converted = converted
        self.home = home
        self.confidence = confidence
        self.box = box
        self.runID = runID
    }
}

/// A history database problem, with what to do about it.
public struct HistoryError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var problem: String
    public var fix: String
    /// The database server could not be reached or the connection was lost: the same call may work later.
    public var unavailable = false
    public var description: String { "history database \(path): \(problem)\nfix: \(fix)" }

    /// How the fixes of PostgreSQL errors end, for the commands that take --no-history.
    static let noHistoryAdvice = "or use --no-history to skip history"

    /// This error with the closing "or use --no-history …" of its fix replaced by `advice`
    /// (for commands without --no-history, such as `pricecam serve`).
    public func advising(_ advice: String) -> HistoryError {
        var error = self
        if fix == Self.noHistoryAdvice {
            error.fix = advice
        } else if fix.hasSuffix(", " + Self.noHistoryAdvice) {
            error.fix = String(fix.dropLast(Self.noHistoryAdvice.count)) + advice
        }
        return error
    }
}

/// Filters for listing history.
public struct HistoryQuery: Sendable {
    public var limit: Int?
    public var since: Date?
    /// Substring of the source (case-sensitive).
    public var source: String?
    /// Skip this many rows (paging).
    public var offset: Int
    /// Only rows in this currency (the code as stored, e.g. JPY).
    public var currency: String?
    /// Substring of the source or the text read (case-insensitive for ASCII).
    public var text: String?

    public init(
        limit: Int? = nil, since: Date? = nil, source: String? = nil, offset: Int = 0, currency: String? = nil, text: String? = nil
    ) {
        self.limit = limit
        self.since = since
        self.source = source
        self.offset = offset
        self.currency = currency
        self.text = text
    }

    /// The WHERE clause and its arguments (limit and offset apart).
    var filter: (sql: String, arguments: StatementArguments) {
        var sql = "WHERE 1"
        var args: StatementArguments = []
        if let since { sql += " AND time >= ?"; args += [since] }
        if let source { sql += " AND instr(source, ?) > 0"; args += [source] }
        if let currency { sql += " AND currency = ?"; args += [currency] }
        if let text {
            sql += " AND (source LIKE ? ESCAPE '\\' OR rawText LIKE ? ESCAPE '\\')"
            args += [HistoryQuery.likePattern(text), HistoryQuery.likePattern(text)]
        }
        return (sql, args)
    }

    /// `%text%` with the LIKE wildcards `%` and `_` (and the escape character, backslash) in `text` escaped.
    static func likePattern(_ text: String) -> String {
        "%"
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}

/// Summary of the history.
public struct HistoryStats: Sendable, Equatable {
    public struct ByCurrency: Sendable, Equatable {
        /// The price currency ("?" when unknown).
        public var currency: String
        /// The home currency ("?" when unset).
        public var home: String
        public var count: Int
        public var amountSum: Decimal
        public var convertedSum: Decimal
        public init(currency: String, home: String, count: Int, amountSum: Decimal, convertedSum: Decimal) {
            self.currency = currency
            self.home = home
            self.count = count
            self.amountSum = amountSum
            self.convertedSum = convertedSum
        }
    }
    public var count: Int
    public var runs: Int
    public var first: Date?
    public var last: Date?
    public var byCurrency: [ByCurrency]
    public init(count: Int, runs: Int, first: Date?, last: Date?, byCurrency: [ByCurrency]) {
        self.count = count
        self.runs = runs
        self.first = first
        self.last = last
        self.byCurrency = byCurrency
    }
}

/// The SQLite history (GRDB, WAL mode), the default. Safe for several processes at once:
/// writers wait for each other (busy timeout) instead of failing.
public final class HistoryStore: HistoryBackend {
    public let path: String
    public var location: String { path }
    /// `integrityCheck` is SQLite's own `PRAGMA integrity_check`.
    public var checkNote: String? { nil }
    let pool: DatabasePool

    /// How long a writer waits for another process's transaction.
    public static let busyTimeout: TimeInterval = 10

    /// Opens (creating directory, file and schema if needed) the database at `path`.
    public convenience init(path: String) throws(HistoryError) {
        try self.init(path: path, busyTimeout: HistoryStore.busyTimeout, maxPageCount: nil)
    }

    /// `maxPageCount` caps the file size (tests use it to simulate a full disk).
    init(path: String, busyTimeout: TimeInterval, maxPageCount: Int? = nil) throws(HistoryError) {
        self.path = path
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty {
            do {
                try FileManager.default.createDirectory(
                    atPath: dir, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw HistoryError(
                    path: path, problem: "cannot create directory \(dir) (\(HistoryStore.reason(error)))",
                    fix:
                        "check that the parent directory exists and is writable, or set PRICECAM_HOME (or XDG_DATA_HOME) to a writable directory; use --no-history to skip history"
                )
            }
        }
        var config = Configuration()
        config.busyMode = .timeout(busyTimeout)
        config.label = "pricecam.history"
        if let maxPageCount {
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA max_page_count = \(maxPageCount)") }
        }
        // Switching a new database to WAL needs an exclusive lock, and SQLite does
        // not always call the busy handler for it: when another process is
        // creating the same database, retry for a while.
        pool = try HistoryStore.retryingRace(attempts: 100, path: path, action: "cannot open") {
            try DatabasePool(path: path, configuration: config)
        }
        // Two processes opening a new database at once both try to migrate. The
        // migrator's deferred transaction then fails in the slower one (SQLITE_BUSY,
        // or "table already exists" when its schema snapshot predates the other's
        // commit), and rolls back. Retry: the next attempt sees the finished schema.
        try HistoryStore.retryingRace(attempts: 50, path: path, action: "cannot prepare the schema of") { [pool] in
            try HistoryStore.migrator.migrate(pool)
        }
    }

    /// `body`, tried again after 10–50 ms (random, so two racing processes part) while it
    /// fails with a race against another process creating the database, at most `attempts`
    /// more times; any other error (or the last) described as `action` on the database.
    static func retryingRace<T>(attempts: Int, path: String, action: String, _ body: () throws -> T) throws(HistoryError) -> T {
        var attempt = 0
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where isMigrationRace(error) && attempt < attempts {
                attempt += 1
                usleep(useconds_t(10_000 + Int.random(in: 0..<40_000)))
            } catch {
                throw describe(error, path: path, action: action)
            }
        }
    }

    static func isMigrationRace(_ error: DatabaseError) -> Bool {
        switch error.resultCode.primaryResultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return true
        case .SQLITE_ERROR: return (error.message ?? "").contains("already exists")
        default: return false
        }
    }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1: conversion") { db in
            try db.create(table: "conversion") { t in
                t.autoIncrementedPrimaryKey("id")
                // UTC "yyyy-MM-dd HH:mm:ss.SSS" (sorts by time).
                t.column("time", .datetime).notNull()
                t.column("source", .text).notNull()
                t.column("rawText", .text).notNull()
                // Exact decimal strings; never floating point.
                t.column("amount", .text).notNull()
                t.column("currency", .text)
                t.column("rate", .text).notNull()
                t.column("converted", .text).notNull()
                t.column("home", .text)
                t.column("confidence", .double).notNull()
                // "x,y,width,height" or NULL.
                t.column("box", .text)
                t.column("runID", .text).notNull()
            }
            try db.create(index: "conversion_time", on: "conversion", columns: ["time"])
            try db.create(index: "conversion_run", on: "conversion", columns: ["runID"])
        }
        return m
    }

    /// Appends `entries` in one transaction: all of them or none.
    public func append(_ entries: [HistoryEntry]) throws(HistoryError) {
        guard !entries.isEmpty else { return }
        do {
            try pool.write { db in
                for e in entries { try ConversionRow(e).insert(db) }
            }
        } catch {
            throw HistoryStore.describe(error, path: path, action: "cannot append \(entries.count) row(s) to")
        }
    }

    /// Rows, newest first.
    public func list(_ query: HistoryQuery) throws(HistoryError) -> [HistoryEntry] {
        do {
            return try pool.read { db in
                let filter = query.filter
                var sql = "SELECT * FROM conversion " + filter.sql + " ORDER BY time DESC, id DESC"
                var args = filter.arguments
                if query.limit != nil || query.offset > 0 {
                    sql += " LIMIT ? OFFSET ?"
                    args += [query.limit ?? -1, query.offset]
                }
                return try ConversionRow.fetchAll(db, sql: sql, arguments: args).map(\.entry)
            }
        } catch {
            throw HistoryStore.describe(error, path: path, action: "cannot read")
        }
    }

    /// How many rows match `query`'s filters (its limit and offset aside).
    public func count(_ query: HistoryQuery) throws(HistoryError) -> Int {
        let filter = query.filter
        do {
            return try pool.read {
                try Int.fetchOne($0, sql: "SELECT count(*) FROM conversion " + filter.sql, arguments: filter.arguments) ?? 0
            }
        } catch {
            throw HistoryStore.describe(error, path: path, action: "cannot read")
        }
    }

    /// Deletes every row; returns how many.
    @discardableResult
    public func clear() throws(HistoryError) -> Int {
        do {
            return try pool.write { db in
                try db.execute(sql: "DELETE FROM conversion")
                return db.changesCount
            }
        } catch {
            throw HistoryStore.describe(error, path: path, action: "cannot clear")
        }
    }

    /// Counts and exact Decimal sums per (currency, home currency).
    public func stats() throws(HistoryError) -> HistoryStats {
        do {
            return try pool.read { db in
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM conversion") ?? 0
                let runs = try Int.fetchOne(db, sql: "SELECT count(DISTINCT runID) FROM conversion") ?? 0
                let first = try Date.fetchOne(db, sql: "SELECT min(time) FROM conversion")
                let last = try Date.fetchOne(db, sql: "SELECT max(time) FROM conversion")
                let sums = StatsAccumulator()
                let cursor = try Row.fetchCursor(db, sql: "SELECT currency, home, amount, converted FROM conversion")
                while let row = try cursor.next() {
                    sums.add(currency: row["currency"], home: row["home"], amount: row["amount"], converted: row["converted"])
                }
                return HistoryStats(count: count, runs: runs, first: first, last: last, byCurrency: sums.sorted)
            }
        } catch {
            throw HistoryStore.describe(error, path: path, action: "cannot read")
        }
    }

    /// `PRAGMA integrity_check` result ("ok" when healthy).
    public func integrityCheck() throws(HistoryError) -> String {
        do {
            return try pool.read { db in
                try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n")
            }
        } catch {
            throw HistoryStore.describe(error, path: path, action: "cannot check")
        }
    }

    public var journalMode: String {
        (try? pool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }) ?? "?"
    }

    static func decimal(_ text: String?) -> Decimal {
        guard let text else { return 0 }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? 0
    }

    static func reason(_ error: any Error) -> String {
        if let e = error as? CocoaError, let u = e.userInfo[NSUnderlyingErrorKey] as? NSError {
            return String(cString: strerror(Int32(u.code)))
        }
        return error.localizedDescription
    }

    /// A person-readable message for a SQLite/GRDB failure.
    static func describe(_ error: any Error, path: String, action: String) -> HistoryError {
        guard let db = error as? DatabaseError else {
            return HistoryError(path: path, problem: "\(action) it: \(error)", fix: "use --no-history to skip history")
        }
        let detail = db.message ?? "\(db.resultCode)"
        switch db.resultCode.primaryResultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return HistoryError(
                path: path, problem: "\(action) it: the database is locked by another process (waited \(Int(busyTimeout)) s)",
                fix: "wait for the other pricecam (or sqlite3) to finish and retry, or use --no-history")
        case .SQLITE_FULL:
            return HistoryError(
                path: path, problem: "\(action) it: the disk is full",
                fix: "free some space on the disk holding \((path as NSString).deletingLastPathComponent), or use --no-history")
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            return HistoryError(
                path: path, problem: "\(action) it: the database or its directory is read-only (\(detail))",
                fix:
                    "make the file and its directory writable, or set PRICECAM_HOME (or XDG_DATA_HOME) to a writable directory; use --no-history to skip history"
            )
        case .SQLITE_CANTOPEN:
            return HistoryError(
                path: path, problem: "\(action) it: the file cannot be opened (\(detail))",
                fix:
                    "check that the directory exists and is writable, or set PRICECAM_HOME to a writable directory; use --no-history to skip history"
            )
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return HistoryError(
                path: path, problem: "\(action) it: the file is not a valid SQLite database or is damaged (\(detail))",
                fix: "move the file away (pricecam will create a new one) and inspect it with `sqlite3 \(path) 'PRAGMA integrity_check'`")
        case .SQLITE_IOERR:
            return HistoryError(
                path: path, problem: "\(action) it: I/O error (\(detail))",
                fix: "check the disk (free space, permissions), or use --no-history")
        default:
            return HistoryError(path: path, problem: "\(action) it: \(detail)", fix: "use --no-history to skip history")
        }
    }
}

/// A row of the `conversion` table as stored (GRDB maps the columns by name): money as exact
/// decimal strings, never floating point; the box as "x,y,width,height".
struct ConversionRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "conversion"
    var id: Int64?
    var time: Date
    var source: String
    var rawText: String
    var amount: String
    var currency: String?
    var rate: String
    var converted: String
    var home: String?
    var confidence: Double
    var box: String?
    var runID: String

    init(_ e: HistoryEntry) {
        time = e.time
        source = e.source
        rawText = e.rawText
        amount = Money.exact(e.amount)
        currency = e.currency
        rate = Money.exact(e.rate)
        converted = Money.exact(e.converted)
        home = e.home
        confidence = e.confidence
        box = e.box.map { $0.map(String.init).joined(separator: ",") }
        runID = e.runID
    }

    var entry: HistoryEntry {
        ConversionRow.entry(
            time: time, source: source, rawText: rawText, amount: amount, currency: currency, rate: rate, converted: converted,
            home: home, confidence: confidence, box: box, runID: runID)
    }

    /// A row as stored (money as exact decimal text, the box as "x,y,width,height"), read back.
    static func entry(
        time: Date, source: String, rawText: String, amount: String, currency: String?, rate: String, converted: String,
        home: String?, confidence: Double, box: String?, runID: String
    ) -> HistoryEntry {
        HistoryEntry(
            time: time, source: source, rawText: rawText, amount: HistoryStore.decimal(amount), currency: currency,
            rate: HistoryStore.decimal(rate), converted: HistoryStore.decimal(converted), home: home,
            confidence: confidence, box: box.map { $0.split(separator: ",").compactMap { Int($0) } }, runID: runID)
    }
}
