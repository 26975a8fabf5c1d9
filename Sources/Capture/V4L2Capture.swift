import SystemPackage
import CV4L2
import Foundation

/// What the driver actually applied, after negotiation.
public struct AppliedFormat: Sendable, Equatable {
    public var fourcc: FourCC
    public var size: FrameSize
    public var bytesPerLine: Int
    /// The frame rate the driver reports (`VIDIOC_G_PARM`), nil when it reports none.
    public var fps: Double?
    public var buffers: Int
    /// What negotiation asked for.
    public var requested: FormatChoice
    public var card: String
    public var driver: String

    public var summary: String {
        "\(fourcc) \(size) @ \(fps.map(FrameInterval.formatFPS) ?? "?") fps, \(buffers) buffers (\(card), \(driver))"
    }
}

/// A V4L2 camera as a frame source: mmap streaming with a few buffers; each
/// call dequeues every ready buffer, keeps the newest and re-queues the others
/// at once, so no stale frame waits in the driver's queue.
public final class V4L2Capture: FrameSource {
    public let name: String
    public let applied: AppliedFormat
    public let frameInterval: UInt64?
    public private(set) var counters = SourceCounters()
    /// Frames the driver flagged as damaged (`V4L2_BUF_FLAG_ERROR`), skipped.
    public private(set) var corrupted: UInt64 = 0
    private let buffers: V4L2Buffers
    private let layout: LumaLayout
    private let decoder: MJPEGDecoder?
    private let stallSeconds: Double
    private var sequence: UInt64 = 0
    /// Keep each frame's colour for display (`Frame.colour`): one copy of the buffer a frame.
    private let keepColour: Bool

    /// Opens the device, checks it captures and streams, negotiates format,
    /// size and rate and maps `bufferCount` (2–4) buffers; streaming starts
    /// with the first `next(stop:)`.
    /// `keepColour`: keep each frame's colour buffer for display (the web app); the CLI reads luma only.
    public init(
        path: String, request: FormatRequest = .default, bufferCount: Int = 4, stallSeconds: Double = 10, keepColour: Bool = false
    ) throws(CaptureError) {
        let device = try V4L2Device(path: path)
        let caps = try device.capabilities()
        guard caps.isCapture else { throw .notCaptureDevice(path: path, what: caps.what) }
        guard caps.canStream else { throw .noStreaming(path: path) }
        let offered = try device.formats(request: request)
        guard let choice = FormatNegotiation.choose(from: offered, request: request) else {
            throw .unsupportedFormat(path: path, offered: offered.filter { !$0.emulated }.map { $0.fourcc.description })
        }
        let pix = try device.setFormat(choice)
        guard let layout = LumaLayout(pix.fourcc) else {
            throw .unsupportedFormat(path: path, offered: [pix.fourcc.description + " (applied by the driver)"])
        }
        let fps = device.setFrameRate(choice.interval ?? FrameInterval(fps: request.fps))
        self.buffers = try V4L2Buffers(device: device, count: UInt32(min(max(bufferCount, 2), 4)))
        self.layout = layout
        self.decoder = layout == .compressed ? MJPEGDecoder(device: device, fourcc: pix.fourcc) : nil
        if layout == .compressed && decoder == nil {
            throw .unsupportedFormat(path: path, offered: [pix.fourcc.description + " (no decoder available)"])
        }
        self.name = path
        self.stallSeconds = stallSeconds
        self.keepColour = keepColour
        self.applied = AppliedFormat(
            fourcc: pix.fourcc, size: pix.size, bytesPerLine: pix.bytesPerLine, fps: fps,
            buffers: buffers.count, requested: choice, card: caps.card, driver: caps.driver)
        self.frameInterval = fps.map { UInt64(1_000_000_000 / $0) }
    }

    private var streaming = false

    public func next(stop: StopFlag) throws(CaptureError) -> Frame? {
        // Streaming starts with the first request, so no frame waits in the
        // driver while the OCR engines load.
        if !streaming {
            try buffers.streamOn()
            streaming = true
        }
        // `buffers` holds the device, so the descriptor stays open while this runs.
        let fd = buffers.device.descriptor.rawValue
        var lastFrame = Monotonic.now()
        while !stop.isSet {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, 100)
            if r < 0 {
                if errno == EINTR { continue }
                throw buffers.device.failure("poll")
            }
            let idle = Double(Monotonic.now() - lastFrame) / 1e9
            if idle >= stallSeconds { throw .stalled(path: name, seconds: idle) }
            if r == 0 { continue }
            // Every ready buffer: keep the newest, give the others back at once.
            // (Asks poll before each further dequeue rather than dequeuing until
            // EAGAIN, which libv4l2 would print as an error.)
            var newest: v4l2_buffer?
            while p.revents & Int16(POLLIN) != 0, let b = try buffers.dequeue() {
                counters.captured += 1
                if let older = newest {
                    counters.discarded += 1
                    try buffers.queue(index: older.index)
                }
                newest = b
                p.revents = 0
                if poll(&p, 1, 0) <= 0 { break }
            }
            if p.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 && newest == nil {
                // Nothing to dequeue and the driver says error: gone or stopped.
                if p.revents & Int16(POLLNVAL) != 0 { throw .disconnected(path: name, errno: EBADF) }
                _ = try buffers.dequeue()  // surfaces ENODEV/EIO as .disconnected
                throw .disconnected(path: name, errno: EIO)
            }
            guard let b = newest else { continue }
            lastFrame = Monotonic.now()
            if b.flags & pricecam_V4L2_BUF_FLAG_ERROR != 0 {
                corrupted += 1
                counters.discarded += 1
                try buffers.queue(index: b.index)
                continue
            }
            let stamp = Self.timestamp(b) ?? lastFrame
            let raw = buffers.bytes(b)
            let luma = V4L2Luma.extract(raw, layout: layout, size: applied.size, bytesPerLine: applied.bytesPerLine, decoder: decoder)
            var colour: FrameColour?
            if keepColour && luma != nil {
                switch layout {
                case .gray: break
                case .compressed: colour = .jpeg(Array(raw))
                case .plane, .packed: colour = .raw(bytes: Array(raw), fourcc: applied.fourcc, bytesPerLine: applied.bytesPerLine)
                }
            }
            try buffers.queue(index: b.index)
            guard let luma else {
                corrupted += 1
                counters.discarded += 1
                continue
            }
            defer { sequence += 1 }
            return Frame(
                width: applied.size.width, height: applied.size.height, bytesPerRow: applied.size.width,
                pixels: luma, sequence: sequence, timestamp: stamp, colour: colour)
        }
        return nil
    }

    /// The buffer's capture time when the driver stamps it on `CLOCK_MONOTONIC`.
    static func timestamp(_ b: v4l2_buffer) -> UInt64? {
        guard b.flags & pricecam_V4L2_BUF_FLAG_TIMESTAMP_MASK == pricecam_V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC else { return nil }
        let t = b.timestamp
        guard t.tv_sec > 0 || t.tv_usec > 0 else { return nil }
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_usec) * 1_000
    }
}
