import Conversion
import Foundation
import Testing
@testable import History

/// Behaviour every history backend must share, run on SQLite (HistoryStoreTests) and
/// on PostgreSQL (PostgresHistoryStoreTests, when PRICECAM_TEST_POSTGRES is set).
enum BackendChecks {
    static func appendAndList(_ store: any HistoryBackend) throws {
        let e = HistoryEntry(
            time: Date(timeIntervalSince1970: 1_700_000_000.5), source: "/dev/video0#42", rawText: "¥1,280",
            amount: dec("1280"), currency: "JPY", rate: dec("0.22"), converted: dec("281.60"),
            home: "TWD", confidence: 0.91, box: [412, 96, 120, 38], runID: "r1")
        try store.append([e])
        #expect(try store.list() == [e])
        #expect(try store.integrityCheck() == "ok")
    }

    static func exactDecimalsSurvive(_ store: any HistoryBackend) throws {
        var e = entry(1)
        e.amount = dec("12345678901234.5678")
        e.converted = dec("0.1")
        e.currency = nil
        e.home = nil
        e.box = nil
        try store.append([e])
        #expect(try store.list().first == e)
    }

    static func listFilters(_ store: any HistoryBackend) throws {
        try store.append((0..<10).map { entry($0, source: $0 < 5 ? "a/one.jpg" : "b/two.jpg") })
        var usd = entry(20, source: "c/100%_off.JPG")
        usd.currency = "USD"
        usd.rawText = "$5 SALE"
        try store.append([usd])
        #expect(try store.list(HistoryQuery(limit: 3)).map(\.rawText) == ["$5 SALE", "¥9", "¥8"])
        #expect(try store.list(HistoryQuery(limit: 2, offset: 2)).map(\.rawText) == ["¥8", "¥7"])
        #expect(try store.list(HistoryQuery(source: "one")).count == 5)
        #expect(try store.list(HistoryQuery(source: "ONE")).isEmpty, "source is case-sensitive")
        #expect(try store.list(HistoryQuery(since: Date(timeIntervalSince1970: 1_700_000_008))).map(\.rawText) == ["$5 SALE", "¥9", "¥8"])
        #expect(try store.list(HistoryQuery(limit: 1, source: "two")).map(\.rawText) == ["¥9"])
        #expect(try store.list(HistoryQuery(currency: "USD")).map(\.rawText) == ["$5 SALE"])
        #expect(try store.list(HistoryQuery(text: "sale")).count == 1, "text is case-insensitive")
        #expect(try store.list(HistoryQuery(text: "100%_")).count == 1)
        #expect(try store.list(HistoryQuery(text: "0%o")).isEmpty, "% in the text is not a wildcard")
        #expect(try store.count(HistoryQuery(limit: 1, source: "a/")) == 5, "count ignores the limit")
        #expect(try store.count(HistoryQuery(currency: "JPY", text: "TWO")) == 5)
    }

    static func statsSumExactlyByCurrency(_ store: any HistoryBackend) throws {
        var x = entry(1, run: "a")
        x.amount = dec("0.1"); x.converted = dec("0.1"); x.currency = "USD"; x.home = "EUR"
        var y = entry(2, run: "a")
        y.amount = dec("0.2"); y.converted = dec("0.2"); y.currency = "USD"; y.home = "EUR"
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
        #expect(s.last == Date(timeIntervalSince1970: 1_700_000_100))
        #expect(try store.clear() == 3)
        #expect(try store.count() == 0)
        #expect(try store.stats() == HistoryStats(count: 0, runs: 0, first: nil, last: nil, byCurrency: []))
    }

    /// Two independent connections (as two processes would have) append at once, each
    /// opened by `open` (the first open may create the table): no row is lost.
    static func twoWritersLoseNoRow(_ open: @escaping @Sendable () throws -> any HistoryBackend) throws {
        let errors = ErrorList()
        let threads = (0..<2).map { w in
            Thread {
                do {
                    let store = try open()
                    for chunk in 0..<50 {
                        try store.append((0..<20).map { entry(chunk * 20 + $0, run: "writer-\(w)") })
                    }
                } catch { errors.add("\(error)") }
            }
        }
        threads.forEach { $0.start() }
        while threads.contains(where: { !$0.isFinished }) { usleep(5000) }
        #expect(errors.all.isEmpty)
        let store = try open()
        #expect(try store.count() == 2000)
        #expect(try store.list().filter { $0.runID == "writer-1" }.count == 1000)
        #expect(try store.integrityCheck() == "ok")
    }

    static func recorderFlushesInChunksAndOnFinish(_ store: any HistoryBackend) throws {
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

    static func recorderFlushesAfterInterval(_ store: any HistoryBackend) throws {
        let rec = HistoryRecorder(store: store, runID: "r", chunkSize: 1000, flushInterval: 0.1)
        rec.record(entry(1))
        #expect(try store.count() == 0)
        var waited = 0
        while try store.count() == 0 && waited < 50 { usleep(100_000); waited += 1 }
        #expect(try store.count() == 1)
        #expect(rec.finish())
    }
}
