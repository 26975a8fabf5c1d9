/// When a price counts as really there: seen in `k` of the last `m` processed frames.
public struct StabilityRule: Sendable, Hashable, CustomStringConvertible {
    public var k: Int
    public var m: Int

    /// 3 of 5: one misread frame never shows, a real tag shows after 3 frames.
    public static let `default` = StabilityRule(k: 3, m: 5)

    public init(k: Int, m: Int) {
        precondition(k >= 1 && m >= k, "stability needs 1 <= K <= M")
        self.k = k
        self.m = m
    }

    /// Parses `3/5`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let m = Int(parts[1]), k >= 1, m >= k, m <= 1000 else { return nil }
        self.init(k: k, m: m)
    }

    public var description: String { "\(k)/\(m)" }
}

/// What changed after one processed frame.
public struct StabilityUpdate<Key: Hashable, Value> {
    /// Became stable on this frame: report, and append to history once.
    public var appeared: [(key: Key, value: Value)] = []
    /// Not seen in the last `m` frames: out of view. Seeing it again is a new appearance.
    public var disappeared: [(key: Key, value: Value)] = []
}

/// Tracks which items (prices) are stably in view across processed frames.
///
/// An item appears once it is seen in `k` of the last `m` frames and then stays
/// (keeping its place in `visible`) until it is missing from all of the last
/// `m` frames. Pure and single-threaded.
public struct StabilityTracker<Key: Hashable, Value> {
    public let rule: StabilityRule
    private var window: [Set<Key>] = []
    private var counts: [Key: Int] = [:]
    private var latest: [Key: Value] = [:]
    /// Stable items in order of appearance, with their latest sighting.
    public private(set) var visible: [(key: Key, value: Value)] = []

    public init(rule: StabilityRule = .default) {
        self.rule = rule
    }

    public func isVisible(_ key: Key) -> Bool { visible.contains { $0.key == key } }

    /// Feeds the items read on one frame, in reading order (the first sighting
    /// of a key counts; later duplicates are ignored).
    public mutating func observe(_ sightings: [(key: Key, value: Value)]) -> StabilityUpdate<Key, Value> {
        var update = StabilityUpdate<Key, Value>()
        var keys = Set<Key>()
        var order: [Key] = []
        for (k, v) in sightings where !keys.contains(k) {
            keys.insert(k)
            order.append(k)
            latest[k] = v
            counts[k, default: 0] += 1
        }
        window.append(keys)
        if window.count > rule.m {
            for k in window.removeFirst() {
                counts[k]! -= 1
                if counts[k] == 0 { counts[k] = nil }
            }
        }
        // Refresh what is shown; drop what left the window entirely.
        var kept: [(key: Key, value: Value)] = []
        for item in visible {
            if counts[item.key] == nil {
                update.disappeared.append(item)
            } else {
                kept.append((item.key, latest[item.key] ?? item.value))
            }
        }
        visible = kept
        for k in order where counts[k]! >= rule.k && !isVisible(k) {
            let item = (key: k, value: latest[k]!)
            visible.append(item)
            update.appeared.append(item)
        }
        // Sightings of keys no longer in the window are not needed.
        if latest.count > counts.count {
            latest = latest.filter { counts[$0.key] != nil }
        }
        return update
    }
}
