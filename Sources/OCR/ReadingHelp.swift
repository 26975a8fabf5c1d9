import Foundation
import Geometry

/// Region readings shared out among a batch's workers. A worker with no image left to read
/// lends its reader (its own engines, on its own thread) to the workers still reading, so the
/// last images of a batch are read on every core instead of one: a shelf photo is 60 first
/// readings and up to 16 re-reads, each independent of the others.
///
/// Every task is read by exactly one reader, and every reader of a run loads the same models,
/// so what is read does not depend on who read it. The image is only read (cropped) by the
/// tasks, never changed, while its owner waits for them.
public final class ReadingHelp: @unchecked Sendable {
    // Everything below is guarded by `condition`'s lock.
    private let condition = NSCondition()
    private var open: [SharedReads] = []
    private var closed = false
    private var lentCount = 0

    /// Tasks read by a reader that was helping (for tests and the debug log).
    public var lent: Int {
        condition.lock()
        defer { condition.unlock() }
        return lentCount
    }

    public init() {}

    /// Lends `reader` to the others until `close()`: a worker calls it when it has nothing else
    /// to read.
    public func help(with reader: PageReader) {
        while let (batch, index) = nextTask() {
            run(batch, index, on: reader, lent: true)
        }
    }

    /// Ends every `help`: nothing will be shared any more (the batch's last image is read).
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `task` for 0..<count, on `reader` and on any reader that helps; results in index
    /// order. The first error a task throws is thrown once every task has ended.
    func read(count: Int, by reader: PageReader, _ task: @escaping (PageReader, Int) throws(OCRError) -> TextLine?) throws(OCRError)
        -> [TextLine?]
    {
        let batch = SharedReads(count: count, task: task)
        condition.lock()
        open.append(batch)
        condition.broadcast()
        condition.unlock()
        while let index = take(from: batch) {
            run(batch, index, on: reader)
        }
        condition.lock()
        while batch.finished < batch.count { condition.wait() }
        open.removeAll { $0 === batch }
        condition.unlock()
        if let error = batch.error { throw error }
        return batch.results
    }

    private func take(from batch: SharedReads) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        return batch.claim()
    }

    /// A task of any open batch; waits while there is none, nil once closed.
    private func nextTask() -> (SharedReads, Int)? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            for batch in open {
                if let index = batch.claim() { return (batch, index) }
            }
            if closed { return nil }
            condition.wait()
        }
    }

    private func run(_ batch: SharedReads, _ index: Int, on reader: PageReader, lent: Bool = false) {
        var line: TextLine?
        var failure: OCRError?
        do throws(OCRError) {
            line = try batch.task(reader, index)
        } catch {
            failure = error
        }
        condition.lock()
        batch.results[index] = line
        if batch.error == nil { batch.error = failure }
        batch.finished += 1
        if lent { lentCount += 1 }
        if batch.finished == batch.count { condition.broadcast() }
        condition.unlock()
    }
}

/// One image's tasks: which are taken, what they read. Guarded by its `ReadingHelp`'s lock.
private final class SharedReads {
    let count: Int
    let task: (PageReader, Int) throws(OCRError) -> TextLine?
    var next = 0
    var finished = 0
    var results: [TextLine?]
    var error: OCRError?

    init(count: Int, task: @escaping (PageReader, Int) throws(OCRError) -> TextLine?) {
        self.count = count
        self.task = task
        self.results = Array(repeating: nil, count: count)
    }

    func claim() -> Int? {
        guard next < count else { return nil }
        defer { next += 1 }
        return next
    }
}
