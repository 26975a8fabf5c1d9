import NIOWebSocket
import Capture
import Conversion
import Foundation
import History
import Hummingbird
import HummingbirdWebSocket
import OCR
import Pipeline
import Synchronization

/// Limits on `GET /api/v1/camera/stream`, the browser's own camera.
public struct StreamLimits: Sendable, Equatable {
    /// Largest frame accepted, in bytes: a bigger WebSocket message closes the
    /// stream with 1009 (message too big), the WebSocket's 413. The page sends
    /// JPEGs of about 960 px, 50–250 KB; 2 MiB leaves room for a phone's detail.
    public var frameBytes: Int
    /// Frames read per second per client at most; newer frames replace older
    /// ones meanwhile (the newest is never lost, the rest are dropped).
    public var fps: Double
    /// Browser cameras read at once (each has its own OCR engine); one more is
    /// told the server is busy. Two: one per core of a small machine.
    public var clients: Int

    public init(frameBytes: Int = 2 << 20, fps: Double = 10, clients: Int = 2) {
        self.frameBytes = frameBytes
        self.fps = fps
        self.clients = clients
    }
}

/// The newest frame a browser sent and not yet read: the WebSocket puts, the
/// capture thread takes (drop-to-newest: a frame that arrives while one waits
/// replaces it).
final class FrameInbox: Sendable {
    private struct State {
        var waiting: (bytes: [UInt8], arrived: UInt64)?
        var received: UInt64 = 0
        var replaced: UInt64 = 0
        var closed = false
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)

    func put(_ bytes: [UInt8]) {
        state.withLock { s in
            if s.waiting != nil { s.replaced += 1 }
            s.waiting = (bytes, Monotonic.now())
            s.received += 1
        }
        ready.signal()
    }

    func close() {
        state.withLock { $0.closed = true }
        ready.signal()
    }

    /// The newest frame, waiting up to `timeout` seconds; nil when none came (or closed).
    func take(timeout: Double) -> (bytes: [UInt8], arrived: UInt64)? {
        if let f = takeNow() { return f }
        _ = ready.wait(timeout: .now() + timeout)
        return takeNow()
    }

    private func takeNow() -> (bytes: [UInt8], arrived: UInt64)? {
        state.withLock { s in
            defer { s.waiting = nil }
            return s.waiting
        }
    }

    var isClosed: Bool { state.withLock { $0.closed } }
    var counts: (received: UInt64, replaced: UInt64) { state.withLock { ($0.received, $0.replaced) } }
}

/// A browser's frames as a frame source for the live pipeline: each JPEG (or
/// any image the OCR module reads) decoded to luma on the capture thread, at
/// most `fps` a second, stamped when it arrived (so latency counts the wait).
final class BrowserFrames: FrameSource {
    let name = "browser"
    let frameInterval: UInt64?
    let inbox: FrameInbox
    let limits: ImageLimits
    /// Told about a frame that does not decode (the stream goes on).
    let rejected: (String) -> Void
    private var sequence: UInt64 = 0
    private var lastHandout: UInt64?
    private var undecodable: UInt64 = 0
    /// The last decoded frame's size: the boxes sent back are in its pixels.
    private let size = Mutex<(width: Int, height: Int)?>(nil)

    init(inbox: FrameInbox, fps: Double, limits: ImageLimits, rejected: @escaping (String) -> Void) {
        self.inbox = inbox
        self.frameInterval = UInt64((1_000_000_000 / max(fps, 0.1)).rounded())
        self.limits = limits
        self.rejected = rejected
    }

    var counters: SourceCounters {
        var c = SourceCounters()
        let (received, replaced) = inbox.counts
        c.captured = received
        c.discarded = replaced + undecodable
        return c
    }

    var lastSize: (width: Int, height: Int)? { size.withLock { $0 } }

    func next(stop: StopFlag) throws(CaptureError) -> Frame? {
        // Pace: no sooner than one frame interval after the last one handed out.
        if let last = lastHandout, let interval = frameInterval {
            while !stop.isSet, Monotonic.now() < last + interval { usleep(5_000) }
        }
        while !stop.isSet && !inbox.isClosed {
            guard let (bytes, arrived) = inbox.take(timeout: 0.05) else { continue }
            let image: GrayImage
            do { image = try GrayImage.decode(bytes: bytes, name: "browser frame", limits: limits) } catch {
                undecodable += 1
                rejected(error.description)
                continue
            }
            lastHandout = Monotonic.now()
            defer { sequence += 1 }
            size.withLock { $0 = (image.width, image.height) }
            return Frame(
                width: image.width, height: image.height, bytesPerRow: image.width, pixels: image.bytes(), sequence: sequence,
                timestamp: arrived)
        }
        return nil
    }
}

/// Sends one message per frame read back to the browser, and records each
/// price that becomes stable in history with source `browser#FRAME`.
final class BrowserReporter: LiveReporter {
    let recorder: HistoryRecorder?
    let send: (String) -> Void
    let frames: BrowserFrames

    init(recorder: HistoryRecorder?, frames: BrowserFrames, send: @escaping (String) -> Void) {
        self.recorder = recorder
        self.frames = frames
        self.send = send
    }

    func appeared(_ price: LivePrice) {
        recorder?.record(price.priced, source: "browser#\(price.frame)")
    }

    func disappeared(_ price: LivePrice) {}

    func updated(visible: [LivePrice], stats: LiveStats) {
        send(Self.message(visible: visible, stats: stats, size: frames.lastSize))
    }

    func stats(_ stats: LiveStats) {}

    /// One frame read: the prices in view (the stability rule's), each with
    /// its box in the sent frame's pixels, and this frame's latency.
    static func message(visible: [LivePrice], stats: LiveStats, size: (width: Int, height: Int)?) -> String {
        JSON.object([
            ("event", .string("frame")),
            ("width", size.map { .int($0.width) } ?? .null),
            ("height", size.map { .int($0.height) } ?? .null),
            ("prices", .array(visible.map { PriceJSON.object($0.priced) })),
            ("latency_ms", stats.lastLatencyMs.map { .fixed($0, 1) } ?? .null),
            ("processed", .number(String(stats.processed))),
            ("dropped", .number(String(stats.dropped))),
        ]).serialized()
    }
}

/// `GET /api/v1/camera/stream`: frames in (binary messages), one JSON message
/// out per frame read. Each client gets its own pipeline (one OCR worker, the
/// server's stability rule) on its own thread, ended when the browser leaves.
enum CameraStreamRoute {
    static func add(to api: RouterGroup<ServeContext>, state: ServerState) {
        api.ws("/camera/stream") { inbound, outbound, _ in
            func fail(_ code: String, _ message: String) async throws {
                let text = JSON.object([("event", .string("error")), ("code", .string(code)), ("message", .string(message))])
                try await outbound.write(.text(text.serialized()))
                // Closed by the browser once it has read why, or after 3 s: closing at once can
                // reach a client before the message does.
                try? await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { for try await _ in inbound {} }
                    group.addTask { try await Task.sleep(for: .seconds(3)) }
                    _ = try await group.next()
                    group.cancelAll()
                }
                try await outbound.close(.policyViolation, reason: code)
            }
            guard let settings = try? state.settings() else {
                return try await fail("not_configured", "no currency settings yet: save them first (PUT /api/v1/settings)")
            }
            let limits = state.configuration.stream
            guard state.streams.acquire(limit: limits.clients) else {
                return try await fail(
                    "busy", "\(limits.clients) browser camera(s) are being read already; try again when one stops")
            }
            defer { state.streams.release() }
            let extraction: ExtractionSettings
            do { extraction = try state.configuration.extraction(settings) } catch {
                return try await fail("ocr_unavailable", "cannot start the OCR engine: \(error)")
            }

            let (messages, sendTo) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(8))
            let inbox = FrameInbox()
            let stop = StopFlag()
            let done = DispatchSemaphore(value: 0)
            state.metrics.streams(delta: 1)
            let thread = Thread {
                // Everything the reading holds (engines, nets, frames) is let go before it counts
                // as ended (`pricecam_camera_streams_browsers`), even when the route stopped
                // waiting for it.
                defer { state.metrics.streams(delta: -1) }
                do {
                    var recorder: HistoryRecorder?
                    do throws(HistoryError) { recorder = HistoryRecorder(store: try state.history.opened()) } catch {
                        HistoryRecorder.stderrReport("warning: a browser camera's prices are not saved: \(error.description)")
                    }
                    let frames = BrowserFrames(inbox: inbox, fps: limits.fps, limits: extraction.limits) { problem in
                        let text = JSON.object([
                            ("event", .string("error")), ("code", .string("unreadable_frame")), ("message", .string(problem)),
                        ])
                        sendTo.yield(text.serialized())
                    }
                    let reporter = BrowserReporter(recorder: recorder, frames: frames) { sendTo.yield($0) }
                    let runner = LiveRunner(
                        configuration: LiveConfiguration(jobs: 1, stability: state.configuration.stability), settings: extraction)
                    do { try runner.run(source: frames, stop: stop, reporter: reporter) } catch {
                        let text = JSON.object([
                            ("event", .string("error")), ("code", .string("camera_failed")), ("message", .string("\(error)")),
                        ])
                        sendTo.yield(text.serialized())
                    }
                    _ = recorder?.finish()
                    sendTo.finish()
                }
                done.signal()
            }
            thread.name = "pricecam-browser-camera"
            thread.start()
            var failure: (any Error)?
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await message in inbound.messages(maxSize: limits.frameBytes) {
                            guard case .binary(let buffer) = message else { continue }
                            inbox.put(Array(buffer.readableBytesView))
                        }
                    }
                    group.addTask {
                        for await message in messages { try await outbound.write(.text(message)) }
                    }
                    _ = try await group.next()
                    group.cancelAll()
                }
            } catch { failure = error }
            // The pipeline gives a frame in OCR a short grace, then flushes its history rows;
            // waited for off the async threads.
            stop.set(reason: "browser left")
            inbox.close()
            await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    _ = done.wait(timeout: .now() + 10)
                    finished.resume()
                }
            }
            if let failure { throw failure }
        }
    }
}

/// Counts the browser cameras being read, against `StreamLimits.clients`.
final class StreamSlots: Sendable {
    private let used = Mutex(0)

    func acquire(limit: Int) -> Bool {
        used.withLock { n in
            guard n < limit else { return false }
            n += 1
            return true
        }
    }

    func release() { used.withLock { $0 -= 1 } }

    var count: Int { used.withLock { $0 } }
}
