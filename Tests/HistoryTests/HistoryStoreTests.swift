import Conversion
import Foundation
import Synchronization
import GRDB
import Testing
@testable import History

func dec(_ s: String) -> Decimal { Decimal(string: s, locale: Locale(identifier: "en_US_POSIX"))! }

func entry(_ i: Int, run: String = "run-1", source: String = "menu/a.jpg", time: Date? = nil) -> HistoryEntry {
    HistoryEntry(
        time: time ?? Date(timeIntervalSince1970: 1_700_000_000 + Double(i)), source: source, rawText: "¥\(i)",
        amount: Decimal(i), currency: "JPY", rate: dec("0.22"), converted: Decimal(i) * dec("0.22"),
        home: "TWD", confidence: 0.91, box: [i, 2, 3, 4], runID: run)
}

@Suite("history store")
struct HistoryStoreTests {
    @Test func appendListAndWAL() throws {
        let store = try HistoryStore(path: tempDir() + "/h/history.sqlite")
        #expect(store.journalMode == "wal")
        try BackendChecks.appendAndList(store)
    }

    @Test func exactDecimalsSurvive() throws {
        try BackendChecks.exactDecimalsSurvive(HistoryStore(path: tempDir() + "/history.sqlite"))
    }

    @Test func listFilters() throws {
        try BackendChecks.listFilters(HistoryStore(path: tempDir() + "/history.sqlite"))
    }

    @Test func statsSumExactlyByCurrency() throws {
        try BackendChecks.statsSumExactlyByCurrency(HistoryStore(path: tempDir() + "/history.sqlite"))
    }

    @Test func appendIsOneTransaction() throws {
        let path = tempDir() + "/history.sqlite"
        let store = try HistoryStore(path: path, busyTimeout: 1, maxPageCount: 8)
        // Far more than 8 pages' worth: the whole append must fail and leave nothing.
        let big = (0..<2000).map { i -> HistoryEntry in
            var e = entry(i); e.rawText = String(repeating: "x", count: 200); return e
        }
        do {
            try store.append(big)
            Issue.record("append beyond max_page_count succeeded")
        } catch {
            #expect(error.problem.contains("the disk is full"), "\(error.problem)")
            #expect(error.fix.contains("free some space"))
        }
        #expect(try store.count() == 0)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func lockedDatabaseIsAClearError() throws {
        let path = tempDir() + "/history.sqlite"
        let store = try HistoryStore(path: path, busyTimeout: 0.2)
        // Another connection holds the write lock.
        let other = try lockingConnection(path)
        try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        do {
            try store.append([entry(1)])
            Issue.record("append succeeded while another connection held the lock")
        } catch {
            #expect(error.problem.contains("locked by another process"), "\(error.problem)")
        }
        try other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try store.append([entry(1)])
        #expect(try store.count() == 1)
    }

    @Test func unusableDirectoryIsAClearError() throws {
        let dir = tempDir()
        try "x".write(toFile: dir + "/notadir", atomically: false, encoding: .utf8)
        do {
            _ = try HistoryStore(path: dir + "/notadir/history.sqlite")
            Issue.record("opened a database under a regular file")
        } catch {
            #expect(error.description.hasPrefix("history database \(dir)/notadir/history.sqlite: cannot create directory"))
            #expect(error.fix.contains("--no-history"))
        }
    }

    @Test func notADatabaseIsAClearError() throws {
        let path = tempDir() + "/history.sqlite"
        try String(repeating: "this is not sqlite\n", count: 200).write(toFile: path, atomically: false, encoding: .utf8)
        do {
            _ = try HistoryStore(path: path)
            Issue.record("opened a text file as a database")
        } catch {
            #expect(error.problem.contains("not a valid SQLite database"), "\(error.problem)")
        }
    }

    /// Two independent connections (as two processes would have) append at once, starting
    /// from a database that does not exist yet: no row is lost.
    @Test func twoWritersLoseNoRow() throws {
        let path = tempDir() + "/history.sqlite"
        try BackendChecks.twoWritersLoseNoRow { try HistoryStore(path: path) }
    }
}

@Suite("history recorder")
struct HistoryRecorderTests {
    @Test func flushesInChunksAndOnFinish() throws {
        try BackendChecks.recorderFlushesInChunksAndOnFinish(HistoryStore(path: tempDir() + "/history.sqlite"))
    }

    @Test func flushesAfterInterval() throws {
        try BackendChecks.recorderFlushesAfterInterval(HistoryStore(path: tempDir() + "/history.sqlite"))
    }

    @Test func writeFailureIsReportedOnceAndRetried() throws {
        let path = tempDir() + "/history.sqlite"
        let store = try HistoryStore(path: path, busyTimeout: 0.05)
        let messages = ErrorList()
        let rec = HistoryRecorder(store: store, runID: "r", chunkSize: 2, flushInterval: 60, report: { messages.add($0) })
        let other = try lockingConnection(path)
        try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        for i in 0..<6 { rec.record(entry(i)) }
        #expect(messages.all.count == 1)
        #expect(messages.all.first?.contains("history not saved") == true)
        try other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        #expect(rec.finish())  // the retry saves everything
        #expect(try store.count() == 6)
        #expect(try store.list().map(\.rawText).reversed() == (0..<6).map { "¥\($0)" })
    }

    @Test func finishReportsLostRows() throws {
        let path = tempDir() + "/history.sqlite"
        let store = try HistoryStore(path: path, busyTimeout: 0.05)
        let messages = ErrorList()
        let rec = HistoryRecorder(store: store, runID: "r", chunkSize: 100, flushInterval: 60, report: { messages.add($0) })
        let other = try lockingConnection(path)
        try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        rec.record(entry(1))
        #expect(!rec.finish())
        #expect(messages.all.count == 2)
        #expect(messages.all.last?.contains("1 history row(s) were not saved") == true)
        try other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
    }
}

final class ErrorList: Sendable {
    private let items = Mutex<[String]>([])
    func add(_ s: String) { items.withLock { $0.append(s) } }
    var all: [String] { items.withLock { $0 } }
}

/// A second connection allowed to keep a transaction open between accesses.
func lockingConnection(_ path: String) throws -> DatabaseQueue {
    var config = Configuration()
    config.allowsUnsafeTransactions = true
    return try DatabaseQueue(path: path, configuration: config)
}
