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
public final class ReadingHelp: Sendable {
    private struct State: Sendable {
        var open: [SharedReads] = []
        var closed = false
        var lent = 0
    }

    private let state = Monitor(State())

    /// Tasks read by a reader that was helping (for tests and the debug log).
    public var lent: Int { state.withLock { $0.lent } }

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
        state.update { $0.closed = true }
    }

    /// Runs `task` for 0..<count, on `reader` and on any reader that helps; results in index
    /// order. The first error a task throws is thrown once every task has ended.
    func read(count: Int, by reader: PageReader, _ task: @escaping (PageReader, Int) throws(OCRError) -> TextLine?) throws(OCRError)
        -> [TextLine?]
    {
        let batch = SharedReads(count: count, task: task)
        state.update { $0.open.append(batch) }
        while let index = state.withLock({ _ in batch.claim() }) {
            run(batch, index, on: reader)
        }
        let (results, error) = state.wait { s -> ([TextLine?], OCRError?)? in
            guard batch.finished == batch.count else { return nil }
            s.open.removeAll { $0 === batch }
            return (batch.results, batch.error)
        }!
        if let error { throw error }
        return results
    }

    /// A task of any open batch; waits while there is none, nil once closed.
    private func nextTask() -> (SharedReads, Int)? {
        state.wait { s -> (SharedReads, Int)?? in
            for batch in s.open {
                if let index = batch.claim() { return .some((batch, index)) }
            }
            return s.closed ? .some(nil) : nil
        }!
    }

    private func run(_ batch: SharedReads, _ index: Int, on reader: PageReader, lent: Bool = false) {
        var line: TextLine?
        var failure: OCRError?
        do throws(OCRError) {
            line = try batch.task(reader, index)
        } catch {
            failure = error
        }
        // Wakes the batch's owner (its last task) and the helpers (nothing else changes for them).
        state.update { s in
            batch.results[index] = line
            if batch.error == nil { batch.error = failure }
            batch.finished += 1
            if lent { s.lent += 1 }
        }
    }
}

/// One image's tasks: which are taken, what they read. Its counters and results are read and
/// changed only under its `ReadingHelp`'s lock (inside `state`'s closures), which is what makes
/// it safe to share; `task` is set once and called outside the lock.
private final class SharedReads: @unchecked Sendable {
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
