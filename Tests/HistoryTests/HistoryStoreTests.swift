import Conversion
import Foundation
import Synchronization
import GRDB
import Testing
@testable import History

private func dec(_ s: String) -> Decimal { Decimal(string: s, locale: Locale(identifier: "en_US_POSIX"))! }

func entry(_ i: Int, run: String = "run-1", source: String = "menu/a.jpg", time: Date? = nil) -> HistoryEntry {
    HistoryEntry(
        time: time ?? Date(timeIntervalSince1970: 1_700_000_000 + Double(i)), source: source, rawText: "¥\(i)",
        amount: Decimal(i), currency: "JPY", rate: dec("0.22"), converted: Decimal(i) * dec("0.22"),
        home: "TWD", confidence: 0.91, box: [i, 2, 3, 4], runID: run)
}

@Suite("history store")
struct HistoryStoreTests {
    @Test func appendListAndWAL() throws {
        let path = tempDir() + "/h/history.sqlite"
        let store = try HistoryStore(path: path)
        #expect(store.journalMode == "wal")
        let e = HistoryEntry(
            time: Date(timeIntervalSince1970: 1_700_000_000.5), source: "/dev/video0#42", rawText: "¥1,280",
            amount: dec("1280"), currency: "JPY", rate: dec("0.22"), converted: dec("281.60"),
            home: "TWD", confidence: 0.91, box: [412, 96, 120, 38], runID: "r1")
        try store.append([e])
        let back = try store.list()
        #expect(back == [e])
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func exactDecimalsSurvive() throws {
        let store = try HistoryStore(path: tempDir() + "/history.sqlite")
        var e = entry(1)
        e.amount = dec("12345678901234.5678")
        e.converted = dec("0.1")
        e.currency = nil
        e.home = nil
        e.box = nil
        try store.append([e])
        #expect(try store.list().first == e)
    }

    @Test func listFilters() throws {
        let store = try HistoryStore(path: tempDir() + "/history.sqlite")
        try store.append((0..<10).map { entry($0, source: $0 < 5 ? "a/one.jpg" : "b/two.jpg") })
        #expect(try store.list(HistoryQuery(limit: 3)).map(\.rawText) == ["¥9", "¥8", "¥7"])
        #expect(try store.list(HistoryQuery(source: "one")).count == 5)
        #expect(try store.list(HistoryQuery(since: Date(timeIntervalSince1970: 1_700_000_007))).map(\.rawText) == ["¥9", "¥8", "¥7"])
        #expect(try store.list(HistoryQuery(limit: 1, source: "two")).map(\.rawText) == ["¥9"])
    }

    @Test func statsSumExactlyByCurrency() throws {
        let store = try HistoryStore(path: tempDir() + "/history.sqlite")
        var x = entry(1, run: "a"); x.amount = dec("0.1"); x.converted = dec("0.1"); x.currency = "USD"; x.home = "EUR"
        var y = entry(2, run: "a"); y.amount = dec("0.2"); y.converted = dec("0.2"); y.currency = "USD"; y.home = "EUR"
        let z = entry(100, run: "b")  // 100 JPY → 22 TWD
        try store.append([x, y, z])
        let s = try store.stats()
        #expect(s.count == 3 && s.runs == 2)
        #expect(
            s.byCurrency == [
                .init(currency: "JPY", home: "TWD", count: 1, amountSum: 100, convertedSum: 22),
                .init(currency: "USD", home: "EUR", count: 2, amountSum: dec("0.3"), convertedSum: dec("0.3")),
            ])
        #expect(s.first == Date(timeIntervalSince1970: 1_700_000_001))
        #expect(try store.clear() == 3)
        #expect(try store.count() == 0)
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
        let errors = ErrorList()
        let threads = (0..<2).map { w in
            Thread {
                do {
                    let store = try HistoryStore(path: path)
                    for chunk in 0..<50 {
                        try store.append((0..<20).map { entry(chunk * 20 + $0, run: "writer-\(w)") })
                    }
                } catch { errors.add("\(error)") }
            }
        }
        threads.forEach { $0.start() }
        while threads.contains(where: { !$0.isFinished }) { usleep(5000) }
        #expect(errors.all.isEmpty)
        let store = try HistoryStore(path: path)
        #expect(try store.count() == 2000)
        #expect(try store.list(HistoryQuery(source: nil)).filter { $0.runID == "writer-1" }.count == 1000)
        #expect(try store.integrityCheck() == "ok")
    }
}

@Suite("history recorder")
struct HistoryRecorderTests {
    @Test func flushesInChunksAndOnFinish() throws {
        let store = try HistoryStore(path: tempDir() + "/history.sqlite")
        let messages = ErrorList()
        let rec = HistoryRecorder(store: store, runID: "r", chunkSize: 10, flushInterval: 60, report: { messages.add($0) })
        let conv = ConvertedAmount(value: 22, rate: dec("0.22"), target: "TWD")
        for i in 0..<25 {
            rec.record(source: "f\(i).jpg", rawText: "¥100", amount: 100, currency: "JPY", converted: conv, confidence: 0.5, box: nil)
        }
        #expect(try store.count() == 20)  // two full chunks; 5 waiting
        #expect(rec.finish())
        #expect(try store.count() == 25)
        #expect(try store.list().allSatisfy { $0.runID == "r" && $0.converted == 22 && $0.home == "TWD" })
        #expect(messages.all.isEmpty)
    }

    @Test func flushesAfterInterval() throws {
        let store = try HistoryStore(path: tempDir() + "/history.sqlite")
        let rec = HistoryRecorder(store: store, runID: "r", chunkSize: 1000, flushInterval: 0.1)
        rec.record(entry(1))
        #expect(try store.count() == 0)
        var waited = 0
        while try store.count() == 0 && waited < 50 { usleep(100_000); waited += 1 }
        #expect(try store.count() == 1)
        #expect(rec.finish())
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
