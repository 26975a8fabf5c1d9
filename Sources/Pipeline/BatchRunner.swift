import Foundation
import OCR
import Synchronization

/// Reads many images with `jobs` worker threads, one OCR engine each, and
/// hands results back in input order as soon as each one's turn comes.
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
        var summary = Summary(images: 0, failed: 0, prices: 0, seconds: 0)
    }

    private let state = Mutex(State())

    public init(settings: ExtractionSettings, jobs: Int) {
        self.settings = settings
        self.jobs = max(1, jobs)
    }

    /// Runs every item. `emit` is called once per item, serially and in input
    /// order. Throws only when no OCR engine can be made (bad tessdata).
    public func run(_ items: [InputItem], emit: @escaping @Sendable (ImageResult) -> Void) throws(OCRError) -> Summary {
        let start = DispatchTime.now().uptimeNanoseconds
        // The calling thread is worker 0; making its engine first surfaces a
        // broken tessdata before any thread starts.
        let first = try Extractor(settings: settings)
        let workers = min(jobs, max(1, items.count))
        let done = DispatchSemaphore(value: 0)
        for _ in 1..<max(workers, 1) {
            let thread = Thread { [self] in
                if let extractor = try? Extractor(settings: settings) {
                    work(items, extractor, emit)
                }
                done.signal()
            }
            thread.stackSize = 16 << 20
            thread.start()
        }
        work(items, first, emit)
        for _ in 1..<max(workers, 1) { done.wait() }
        return state.withLock {
            $0.summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return $0.summary
        }
    }

    private func work(_ items: [InputItem], _ extractor: Extractor, _ emit: @Sendable (ImageResult) -> Void) {
        while true {
            let index: Int? = state.withLock { s in
                guard s.next < items.count else { return nil }
                defer { s.next += 1 }
                return s.next
            }
            guard let index else { return }
            let result: ImageResult = switch items[index] {
            case .image(let path): extractor.extract(path: path)
            case .failed(let path, let failure): ImageResult(file: path, error: failure)
            }
            state.withLock { s in
                s.pending[index] = result
                while let ready = s.pending.removeValue(forKey: s.nextToEmit) {
                    s.summary.images += 1
                    if ready.error != nil { s.summary.failed += 1 }
                    s.summary.prices += ready.prices.count
                    emit(ready)
                    s.nextToEmit += 1
                }
            }
        }
    }
}
