import Conversion
import Foundation
import Testing
@testable import History

@Suite("history session")
struct HistorySessionTests {
    let converted = ConvertedAmount(value: Decimal(string: "281.6")!, rate: Decimal(string: "0.22")!, target: "TWD")

    @Test func recordsThroughTheRecorder() throws {
        let store = try HistoryStore(path: tempDir() + "/history.sqlite")
        let session = HistorySession(recorder: HistoryRecorder(store: store, runID: "run-x", chunkSize: 100, flushInterval: 60))
        session.record(
            source: "/dev/video0#17", rawText: "¥1,280", amount: 1280, currency: "JPY", converted: converted,
            confidence: 0.9, box: [1, 2, 3, 4])
        #expect(session.finish())
        let rows = try store.list()
        #expect(rows.count == 1)
        #expect(rows[0].source == "/dev/video0#17" && rows[0].runID == "run-x" && rows[0].converted == Decimal(string: "281.6")!)
    }

    @Test func unavailableDatabaseCountsLostRows() {
        let messages = ErrorList()
        let session = HistorySession(unavailableWithRunID: "r", report: { messages.add($0) })
        #expect(session.finish())  // nothing converted, nothing lost
        session.record(source: "a.png", rawText: "¥1", amount: 1, currency: "JPY", converted: converted, confidence: 1, box: nil)
        session.record(source: "a.png", rawText: "¥2", amount: 2, currency: "JPY", converted: converted, confidence: 1, box: nil)
        #expect(!session.finish())
        #expect(messages.all.last?.contains("2 converted price(s) were not added") == true)
    }
}
