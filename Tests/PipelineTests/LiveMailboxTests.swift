import Foundation
import Synchronization
import Testing
@testable import Pipeline

@Suite struct LiveMailboxTests {
    @Test func newerItemReplacesUnreadOlderOne() {
        let box = Mailbox<Int>(capacity: 1)
        #expect(box.put(1).isEmpty)
        #expect(box.put(2) == [1])
        #expect(box.put(3) == [2])
        #expect(box.dropped == 2)
        #expect(box.count == 1)
        box.close()
        #expect(box.take() == 3)
        #expect(box.take() == nil)
    }

    @Test func withNoWorkerWaitingOnlyTheNewestIsKeptWhateverTheCapacity() {
        let box = Mailbox<Int>(capacity: 4)
        for i in 0..<10 { box.put(i) }
        #expect(box.count == 1)
        #expect(box.dropped == 9)
        box.close()
        #expect(box.take() == 9)
    }

    @Test func oneUnreadItemPerWaitingWorker() async throws {
        let box = Mailbox<Int>(capacity: 2)
        let got = Collected()
        let threads = (0..<2).map { _ in
            Thread {
                if let v = box.take() { got.add(v) }
            }
        }
        defer { box.close() }  // a failed wait leaves no thread blocked in take()
        threads.forEach { $0.start() }
        try await waitUntil("both threads wait in take()") { box.waitingTakers == 2 }
        box.put(1)
        box.put(2)  // both workers are waiting: neither frame is dropped
        try await waitUntil("both threads took an item") { got.values.count == 2 }
        #expect(got.values.sorted() == [1, 2])
        #expect(box.dropped == 0)
    }

    @Test func fifoKeepsEverything() {
        let box = Mailbox<Int>(capacity: 1, policy: .fifo)
        for i in 0..<1000 { box.put(i) }
        #expect(box.dropped == 0)
        #expect(box.peakCount == 1000)
        box.close()
        var out: [Int] = []
        while let v = box.take() { out.append(v) }
        #expect(out == Array(0..<1000))
    }

    @Test func closeWakesWaitingTakers() async throws {
        let box = Mailbox<Int>(capacity: 1)
        let got = Collected()
        let t = Thread { got.add(box.take() ?? -1) }
        t.start()
        try await waitUntil("the thread waits in take()") { box.waitingTakers == 1 }
        box.close()
        try await waitUntil("close() woke the thread") { !got.values.isEmpty }
        #expect(got.values == [-1])
        #expect(box.put(5) == [5])  // closed: refused, handed back
    }

    @Test func producerNeverBlocksAndQueueStaysBounded() {
        let box = Mailbox<[UInt8]>(capacity: 2)
        for _ in 0..<10_000 { box.put([UInt8](repeating: 0, count: 16)) }
        #expect(box.peakCount <= 2)
    }
}

struct TimedOut: Error {}

/// Polls `condition` every millisecond; after `seconds` records a failure
/// naming what was awaited and throws, so a broken mailbox fails the test
/// instead of hanging it.
func waitUntil(
    _ what: String, seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
        if ContinuousClock.now >= deadline {
            Issue.record("timed out after \(seconds) s waiting until \(what)", sourceLocation: sourceLocation)
            throw TimedOut()
        }
        try await Task.sleep(nanoseconds: 1_000_000)
    }
}

final class Collected: Sendable {
    private let items = Mutex<[Int]>([])
    func add(_ v: Int) { items.withLock { $0.append(v) } }
    var values: [Int] { items.withLock { $0 } }
}
