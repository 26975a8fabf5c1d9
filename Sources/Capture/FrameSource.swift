import Synchronization

/// Asks a running source (and everything after it) to stop; set from a signal
/// handler's queue, read by the capture loop.
public final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    private let why = Mutex<String?>(nil)

    public init() {}

    public var isSet: Bool { flag.load(ordering: .acquiring) }

    public func set(reason: String? = nil) {
        why.withLock { if $0 == nil { $0 = reason } }
        flag.store(true, ordering: .releasing)
    }

    /// What asked to stop first (a signal name, "--duration"), if it said.
    public var reason: String? { why.withLock { $0 } }
}

/// Counts a source keeps: every frame it produced, and those it let go
/// without delivering (a newer one was ready at the same time).
public struct SourceCounters: Sendable, Equatable {
    public var captured: UInt64 = 0
    public var discarded: UInt64 = 0
    public init() {}
}

/// Something that yields frames one at a time: a V4L2 device or a replay folder.
/// Used by one thread (the capture loop); not `Sendable`.
public protocol FrameSource: AnyObject {
    /// `/dev/video0`, or the replay folder.
    var name: String { get }
    /// The time between frames the source runs at, when known (nanoseconds).
    var frameInterval: UInt64? { get }
    var counters: SourceCounters { get }
    /// The newest frame once one is ready; nil when the source has ended or
    /// `stop` was set. Throws when the source fails (the device disappeared).
    func next(stop: StopFlag) throws(CaptureError) -> Frame?
}
