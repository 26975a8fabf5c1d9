import OCR
import Foundation

/// How a mailbox holds frames that no worker has taken yet.
public enum MailboxPolicy: String, Sendable, CaseIterable {
    /// pricecam's design: at most one unread frame per waiting worker (and at
    /// least one); a newer frame replaces the oldest unread one, counted as dropped.
    case latest
    /// The naive design, for comparison only: every frame waits its turn.
    case fifo
}

/// Hands frames from the capture loop to OCR workers.
///
/// With `.latest` the mailbox never holds more than `capacity` (one per worker)
/// unread items, and only as many as there are workers waiting to take them
/// (at least one): when every worker is busy, a newer frame replaces the one
/// waiting, so whichever worker frees up first gets the newest frame.
/// Thread-safe: the state is a `Monitor`'s; `take()` waits on it.
public final class Mailbox<Element: Sendable>: Sendable {
    public let capacity: Int
    public let policy: MailboxPolicy

    private struct State: Sendable {
        var items: [Element] = []
        var head = 0
        var waiting = 0
        var closed = false
        var droppedCount: UInt64 = 0
        var peak = 0

        var unread: Int { items.count - head }

        mutating func takeFirst() -> Element {
            let item = items[head]
            head += 1
            compact()
            return item
        }

        mutating func compact() {
            if head > 64 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            } else if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            }
        }
    }

    private let state = Monitor(State())

    public init(capacity: Int, policy: MailboxPolicy = .latest) {
        precondition(capacity >= 1, "mailbox capacity must be at least 1")
        self.capacity = capacity
        self.policy = policy
    }

    /// Posts an item without blocking; returns the items it replaced (dropped).
    @discardableResult
    public func put(_ item: Element) -> [Element] {
        state.update { s in
            guard !s.closed else { return [item] }
            s.items.append(item)
            var dropped: [Element] = []
            if policy == .latest {
                let limit = max(1, min(capacity, s.waiting))
                while s.unread > limit {
                    dropped.append(s.items[s.head])
                    s.head += 1
                }
                s.droppedCount += UInt64(dropped.count)
            }
            s.compact()
            s.peak = max(s.peak, s.unread)
            return dropped
        }
    }

    /// The oldest unread item, waiting for one; nil once closed and empty.
    public func take() -> Element? {
        var counted = false  // counted among the waiting takers (while nothing is unread)
        let taken: Element?? = state.wait { s in
            guard s.unread > 0 || s.closed else {
                if !counted { s.waiting += 1 }
                counted = true
                return nil
            }
            if counted { s.waiting -= 1 }
            if s.unread > 0 { return .some(s.takeFirst()) }
            return .some(nil)  // closed and empty
        }
        return taken ?? nil
    }

    /// No more items: waiting takers get what is left, then nil.
    public func close() {
        state.update { $0.closed = true }
    }

    /// Items replaced before any worker took them.
    public var dropped: UInt64 { state.withLock { $0.droppedCount } }
    /// Unread items now.
    public var count: Int { state.withLock { $0.unread } }
    /// The most unread items held at once.
    public var peakCount: Int { state.withLock { $0.peak } }
    /// Takers blocked in `take()` now.
    public var waitingTakers: Int { state.withLock { $0.waiting } }
}
