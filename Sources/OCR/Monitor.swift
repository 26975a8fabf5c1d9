public import Dispatch
import Synchronization

/// State behind a `Mutex`, and threads that wait for it to change: the one way a worker
/// thread blocks (a mailbox's takers, waits for a pool's workers, a batch's shared region
/// readings). In OCR, the lowest module that needs it; Pipeline uses it too.
///
/// A waiter looks at the state under the lock; when it has to wait, it leaves a
/// wakeup of its own in the parked list and blocks on it outside the lock.
/// `update` wakes every parked waiter, and each looks again: no wakeup is lost,
/// and one that gave up at its deadline cannot swallow another's.
public final class Monitor<State: Sendable>: Sendable {
    // Mutex cannot wait: a parked thread blocks on a semaphore of its own, signalled once.
    private typealias Wakeup = DispatchSemaphore

    private struct Locked: Sendable {
        var state: State
        var parked: [Wakeup] = []
    }

    private let locked: Mutex<Locked>

    public init(_ state: State) {
        locked = Mutex(Locked(state: state))
    }

    /// Reads or changes the state without waking anyone.
    public func withLock<R: Sendable>(_ body: (inout State) -> R) -> R {
        locked.withLock { body(&$0.state) }
    }

    /// Changes the state, then wakes every waiter to look at it again.
    public func update<R: Sendable>(_ body: (inout State) -> R) -> R {
        let (result, woken) = locked.withLock { l in
            let result = body(&l.state)
            defer { l.parked.removeAll(keepingCapacity: true) }
            return (result, l.parked)
        }
        for wakeup in woken { wakeup.signal() }
        return result
    }

    /// Waits until `ready` returns a value, or until `deadline` has passed (nil).
    /// `ready` runs under the lock: at once, then after each `update`.
    public func wait<R: Sendable>(deadline: DispatchTime? = nil, until ready: (inout State) -> R?) -> R? {
        let wakeup = Wakeup(value: 0)
        while true {
            let result: R? = locked.withLock { l in
                if let result = ready(&l.state) { return result }
                l.parked.append(wakeup)
                return nil
            }
            if let result { return result }
            guard let deadline else {
                wakeup.wait()
                continue
            }
            if wakeup.wait(timeout: deadline) == .timedOut {
                return locked.withLock { l in
                    l.parked.removeAll { $0 === wakeup }
                    return ready(&l.state)
                }
            }
        }
    }
}
