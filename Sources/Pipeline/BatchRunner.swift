import Foundation
public import OCR
import Synchronization

/// Reads many images on a `WorkerPool` of `jobs` threads, one OCR engine each,
/// and hands results back in input order as soon as each one's turn comes.
public final class BatchRunner: Sendable {
    public let settings: ExtractionSettings
    public let jobs: Int

    public struct Summary: Sendable, Equatable {
        public var images: Int
        public var failed: Int
        public var prices: Int
        public var seconds: Double
    }

    private struct State {
        var next = 0
        var nextToEmit = 0
        var pending: [Int: ImageResult] = [:]
        /// Results whose turn has come, not yet handed to `emit`, in order.
        var outbox: [ImageResult] = []
        /// A worker is handing the outbox to `emit` (one at a time, so the order holds).
        var emitting = false
        var finished = 0
        var summary = Summary(images: 0, failed: 0, prices: 0, seconds: 0)
    }

    private let state = Mutex(State())

    /// Where workers take nets an earlier batch made and leave theirs for the next (nil: each
    /// worker makes its own).
    public let shelf: NetShelf?

    public init(settings: ExtractionSettings, jobs: Int, shelf: NetShelf? = nil) {
        self.settings = settings
        self.jobs = max(1, jobs)
        self.shelf = shelf
    }

    /// Runs every item. `emit` is called once per item, serially and in input
    /// order. Throws only when no OCR engine can be made (bad tessdata).
    public func run(_ items: [InputItem], emit: @escaping @Sendable (ImageResult) -> Void) throws(OCRError) -> Summary {
        let start = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0 = State() }
        let settings = self.settings, shelf = self.shelf
        // A worker with no image left lends its engines to the others' region readings, so the
        // last images are read on every core (shelf-jp-dev: 5 photos on 2 workers).
        let help = ReadingHelp()
        if items.isEmpty { help.close() }
        let pool = WorkerPool<OCRError>(
            // With fewer images than workers the others only help (a model loads in 6–34 ms):
            // one shelf photo is read on every core.
            count: items.isEmpty ? 1 : jobs,
            make: { () throws(OCRError) in
                let extractor = try Extractor(settings: settings, nets: shelf?.take() ?? Extractor.Nets())
                shelf?.lend(extractor.nets)
                extractor.reader.help = help
                return extractor
            },
            next: { [self] in claim(below: items.count) },
            work: { [self] extractor, index in
                if finish(index, with: read(items[index], extractor), emit) == items.count { help.close() }
            },
            idle: { extractor in help.help(with: extractor.reader) })
        pool.wait()
        shelf?.release()
        OCRLog.write("region readings shared with idle workers: \(help.lent)")
        let startup = pool.waitStarted()
        if startup.ready == 0, let error = startup.firstError { throw error }
        return state.withLock {
            $0.summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return $0.summary
        }
    }

    /// The next item no worker has taken yet.
    private func claim(below count: Int) -> Int? {
        state.withLock { s in
            guard s.next < count else { return nil }
            defer { s.next += 1 }
            return s.next
        }
    }

    private func read(_ item: InputItem, _ extractor: Extractor) -> ImageResult {
        switch item {
        case .image(let path): extractor.extract(path: path)
        case .failed(let path, let failure): ImageResult(file: path, error: failure)
        }
    }

    /// Keeps `result`, then emits every result whose turn has come; returns how many items are
    /// read so far. The lock holds the state only: results are taken out under it and handed to
    /// `emit` (stdout, a history transaction) outside it, by one worker at a time, so the others
    /// claim their next image meanwhile and the order is kept.
    @discardableResult
    private func finish(_ index: Int, with result: ImageResult, _ emit: @Sendable (ImageResult) -> Void) -> Int {
        let (finished, emitter) = state.withLock { s in
            s.pending[index] = result
            s.finished += 1
            while let ready = s.pending.removeValue(forKey: s.nextToEmit) {
                s.summary.images += 1
                if ready.error != nil { s.summary.failed += 1 }
                s.summary.prices += ready.prices.count
                s.outbox.append(ready)
                s.nextToEmit += 1
            }
            let emitter = !s.emitting && !s.outbox.isEmpty
            if emitter { s.emitting = true }
            return (s.finished, emitter)
        }
        guard emitter else { return finished }
        while true {
            let batch = state.withLock { s in
                defer { s.outbox = [] }
                if s.outbox.isEmpty { s.emitting = false }
                return s.outbox
            }
            if batch.isEmpty { break }
            for ready in batch { emit(ready) }
        }
        return finished
    }
}
