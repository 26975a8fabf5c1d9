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
/// Thread-safe: every field is guarded by `condition`.
public final class Mailbox<Element: Sendable>: @unchecked Sendable {
    public let capacity: Int
    public let policy: MailboxPolicy
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private var waiting = 0
    private var closed = false
    private var droppedCount: UInt64 = 0
    private var peak = 0

    public init(capacity: Int, policy: MailboxPolicy = .latest) {
        precondition(capacity >= 1, "mailbox capacity must be at least 1")
        self.capacity = capacity
        self.policy = policy
    }

    /// Posts an item without blocking; returns the items it replaced (dropped).
    @discardableResult
    public func put(_ item: Element) -> [Element] {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return [item] }
        items.append(item)
        var dropped: [Element] = []
        if policy == .latest {
            let limit = max(1, min(capacity, waiting))
            while items.count - head > limit {
                dropped.append(items[head])
                head += 1
            }
            droppedCount += UInt64(dropped.count)
        }
        compact()
        peak = max(peak, items.count - head)
        condition.signal()
        return dropped
    }

    /// The oldest unread item, waiting for one; nil once closed and empty.
    public func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        waiting += 1
        while items.count == head && !closed { condition.wait() }
        waiting -= 1
        guard items.count > head else { return nil }
        let item = items[head]
        head += 1
        compact()
        return item
    }

    /// No more items: waiting takers get what is left, then nil.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Items replaced before any worker took them.
    public var dropped: UInt64 { condition.lock(); defer { condition.unlock() }; return droppedCount }
    /// Unread items now.
    public var count: Int { condition.lock(); defer { condition.unlock() }; return items.count - head }
    /// The most unread items held at once.
    public var peakCount: Int { condition.lock(); defer { condition.unlock() }; return peak }
    /// Takers blocked in `take()` now.
    public var waitingTakers: Int { condition.lock(); defer { condition.unlock() }; return waiting }

    private func compact() {
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        } else if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
    }
}
