import OCR
import Foundation

/// `count` threads, each with an engine of its own made on that thread (an OCR
/// engine is not Sendable: one per worker), taking jobs from `next` until it
/// returns nil, then (`idle`) helping the others until they are done. Batch and live both
/// run their OCR on it.
final class WorkerPool<Failure: Error>: Sendable {
    /// How the workers' engines came up.
    struct Startup: Sendable {
        var ready: Int
        var firstError: Failure?
    }

    private struct State: Sendable {
        var ready = 0
        var failed = 0
        var done = 0
        var firstError: Failure?
    }

    /// Tesseract recurses deeply on large pages: more stack than a thread's default.
    static var stackSize: Int { 16 << 20 }

    let count: Int
    private let state = Monitor(State())

    /// Starts the threads at once. A worker calls `make` first; one whose `make`
    /// throws takes no job. `next` may block (a mailbox) or not (an index).
    /// `niceIncrement` lowers the workers' priority below the calling thread's.
    init<Engine, Job>(
        count: Int, name: String = "pricecam-ocr", niceIncrement: Int32 = 0,
        make: @escaping @Sendable () throws(Failure) -> Engine,
        next: @escaping @Sendable () -> Job?,
        work: @escaping @Sendable (Engine, Job) -> Void,
        idle: (@Sendable (Engine) -> Void)? = nil
    ) {
        self.count = max(1, count)
        for i in 0..<self.count {
            let thread = Thread { [state] in
                if niceIncrement > 0 { ThreadPriority.lower(by: niceIncrement) }
                // The engine is let go before the worker counts as done: whoever waits for the
                // pool may count on its memory being free (a browser camera's reading that
                // has ended holds no engine).
                let failure = { () -> Failure? in
                    let engine: Engine
                    do throws(Failure) {
                        engine = try make()
                    } catch {
                        return error
                    }
                    state.update { $0.ready += 1 }
                    while let job = next() { work(engine, job) }
                    // No job left for this worker: it may still help the others finish theirs.
                    idle?(engine)
                    return nil
                }()
                state.update { s in
                    if let failure {
                        s.failed += 1
                        if s.firstError == nil { s.firstError = failure }
                    }
                    s.done += 1
                }
            }
            thread.name = "\(name)-\(i)"
            thread.stackSize = Self.stackSize
            thread.start()
        }
    }

    /// Waits until every worker has made its engine or failed to.
    func waitStarted() -> Startup {
        state.wait { s in
            s.ready + s.failed == count ? Startup(ready: s.ready, firstError: s.firstError) : nil
        }!
    }

    /// Waits until every worker has finished.
    func wait() {
        _ = state.wait { $0.done == count ? true : nil }
    }

    /// Waits at most `seconds`; true when every worker finished.
    func wait(timeout seconds: Double) -> Bool {
        state.wait(deadline: .now() + seconds) { $0.done == count ? true : nil } ?? false
    }
}

enum ThreadPriority {
    /// Raises the calling thread's nice value (Linux: per thread, by thread id).
    static func lower(by amount: Int32) {
        guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"),
            let tid = Int32(link.split(separator: "/").last ?? "")
        else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid), amount)
    }
}
