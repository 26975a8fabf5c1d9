import Capture
public import Conversion
import Foundation
import Geometry
import History
import OCR
public import Pipeline
import Synchronization

/// The camera tab's side of the server: runs the live pipeline on its own
/// threads, keeps the newest frame and the prices in view, and hands each
/// processed frame's message to every browser attached.
///
/// Drop-to-newest per client: each subscriber holds at most one unsent
/// message, so a slow browser gets the newest state, never a queue, and the
/// capture loop never waits for a browser (it only stores a reference to the
/// newest frame, with its colour as the source gave it; JPEGs are encoded
/// when a browser asks for one). Nothing is drawn on frames: the message
/// carries each price's box and the page draws it.
public final class LiveHub: Sendable {
    public let camera: CameraSource
    let workers: Int
    let stability: StabilityRule
    let makeSettings: @Sendable (CurrencySettings) throws -> ExtractionSettings
    /// The server's history: the camera's stable prices go there, as the scans' do.
    let history: ServerHistory
    let metrics: ServerMetrics

    private struct State {
        var newest: Frame?
        var visible: [LivePrice] = []
        var stats: LiveStats?
        var running = false
        var error: String?
        var stop: StopFlag?
        var done: DispatchSemaphore?
        var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
        var nextSubscriber = 0
        var lastMessage: String?
        var jpeg: (sequence: UInt64, bytes: [UInt8])?
    }

    private let state = Mutex(State())

    init(
        camera: CameraSource, workers: Int, stability: StabilityRule = .default, history: ServerHistory, metrics: ServerMetrics,
        makeSettings: @escaping @Sendable (CurrencySettings) throws -> ExtractionSettings
    ) {
        self.camera = camera
        self.workers = workers
        self.stability = stability
        self.history = history
        self.metrics = metrics
        self.makeSettings = makeSettings
    }

    /// (Re)starts the camera with these settings (a settings change restarts it,
    /// so the prices are converted with the new rate). No-op without a camera.
    public func start(settings: CurrencySettings) {
        stop()
        guard camera != .none else { return }
        let extraction: ExtractionSettings
        do { extraction = try makeSettings(settings) } catch {
            state.withLock {
                $0.error = "\(error)"
                $0.running = false
            }
            return
        }
        let stopFlag = StopFlag()
        let done = DispatchSemaphore(value: 0)
        state.withLock {
            $0.error = nil
            $0.running = true
            $0.stop = stopFlag
            $0.done = done
            $0.visible = []
        }
        // The source, runner and reporter live on the capture thread (they are not Sendable).
        let thread = Thread { [self] in
            var failure: String?
            var recorder: HistoryRecorder?
            do {
                guard let source = try camera.open(limits: extraction.limits, keepColour: true) else { preconditionFailure("no camera") }
                do throws(HistoryError) { recorder = HistoryRecorder(store: try history.opened()) } catch {
                    HistoryRecorder.stderrReport("warning: the camera's prices are not saved: \(error.description)")
                }
                let reporter = HubReporter(hub: self, recorder: recorder, origin: source.name)
                let runner = LiveRunner(configuration: LiveConfiguration(jobs: workers, stability: stability), settings: extraction)
                try runner.run(source: TeeSource(inner: source, hub: self), stop: stopFlag, reporter: reporter)
            } catch {
                failure = "\(error)"
            }
            _ = recorder?.finish()
            state.withLock {
                $0.running = false
                if let failure { $0.error = failure }
            }
            done.signal()
        }
        thread.name = "pricecam-serve-capture"
        thread.start()
    }

    /// Stops the camera and waits (at most a few seconds) for the pipeline to
    /// end; the prices it recorded are flushed to history before it returns.
    public func stop() {
        let (flag, done) = state.withLock { ($0.stop, $0.done) }
        guard let flag, let done else { return }
        flag.set(reason: "serve")
        // LiveRunner gives a frame in OCR `stopGraceSeconds` (2 s) after a stop by signal, and ends at once otherwise.
        _ = done.wait(timeout: .now() + 4)
        state.withLock {
            $0.stop = nil
            $0.done = nil
        }
    }

    // MARK: what the capture and OCR threads report

    func newest(_ frame: Frame) {
        state.withLock { $0.newest = frame }
    }

    func updated(visible: [LivePrice], stats: LiveStats, source: String) {
        metrics.live(stats)
        let size = state.withLock { s in
            s.visible = visible
            s.stats = stats
            return s.newest.map { (width: $0.width, height: $0.height) }
        }
        broadcast(Self.message(visible: visible, stats: stats, source: source, size: size))
    }

    /// Hands `message` to every browser attached, replacing any it has not taken yet.
    func broadcast(_ message: String) {
        let subscribers = state.withLock { s in
            s.lastMessage = message
            return Array(s.subscribers.values)
        }
        for c in subscribers { c.yield(message) }
    }

    func statsReported(_ stats: LiveStats) {
        metrics.live(stats)
        state.withLock { $0.stats = stats }
    }

    /// One processed frame, as `GET /api/v1/live` sends it: each price with its
    /// box in the frame's pixels (`width` × `height`), for the page to draw.
    static func message(visible: [LivePrice], stats: LiveStats, source: String, size: (width: Int, height: Int)?) -> String {
        let fps = stats.elapsedSeconds > 0 ? Double(stats.processed) / stats.elapsedSeconds : 0
        return JSON.object([
            ("event", .string("frame")),
            ("source", .string(source)),
            ("width", size.map { .int($0.width) } ?? .null),
            ("height", size.map { .int($0.height) } ?? .null),
            ("processed", .number(String(stats.processed))),
            (
                "prices",
                .array(
                    visible.map { p in
                        .object(
                            PriceJSON.fields(p.priced) + [
                                ("frame", .number(String(p.frame))), ("latency_ms", .fixed(p.latencyMs, 1)),
                            ])
                    })
            ),
            ("fps", .fixed(fps, 1)),
            // This frame's capture-to-result time, then the running percentiles.
            ("latency_last_ms", stats.lastLatencyMs.map { .fixed($0, 1) } ?? .null),
            ("latency_ms", .object([("p50", .fixed(stats.latency.p50, 1)), ("p99", .fixed(stats.latency.p99, 1))])),
            ("captured", .number(String(stats.captured))),
            ("dropped", .number(String(stats.dropped))),
            ("failed", .number(String(stats.failed))),
        ]).serialized()
    }

    // MARK: what browsers ask for

    /// A stream of frame messages holding at most one unsent message (the newest),
    /// starting with the latest one; `unsubscribe(id)` when the browser leaves.
    public func subscribe() -> (id: Int, messages: AsyncStream<String>) {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { s in
            let id = s.nextSubscriber
            s.nextSubscriber += 1
            s.subscribers[id] = continuation
            if let last = s.lastMessage { continuation.yield(last) }
            return id
        }
        metrics.clients(delta: 1)
        return (id, stream)
    }

    public func unsubscribe(_ id: Int) {
        let c = state.withLock { $0.subscribers.removeValue(forKey: id) }
        c?.finish()
        if c != nil { metrics.clients(delta: -1) }
    }

    /// The newest frame as a JPEG, in colour when the source has colour; nil
    /// before the first frame. Encoded once per frame, when first asked for.
    public func displayFrame() -> [UInt8]? {
        let (frame, cached) = state.withLock { ($0.newest, $0.jpeg) }
        guard let frame else { return nil }
        if let cached, cached.sequence == frame.sequence { return cached.bytes }
        guard let bytes = frame.displayJPEG() else { return nil }
        state.withLock { $0.jpeg = (frame.sequence, bytes) }
        return bytes
    }

    /// For `GET /api/v1/status`.
    public var status: JSON {
        let s = state.withLock { ($0.running, $0.error, $0.stats, $0.subscribers.count) }
        let source: JSON = camera.name.map { .string($0) } ?? .null
        var fields: [(String, JSON)] = [("source", source), ("running", .bool(s.0)), ("error", .optional(s.1)), ("clients", .int(s.3))]
        if let stats = s.2 {
            fields += [
                ("processed", .number(String(stats.processed))), ("captured", .number(String(stats.captured))),
                ("dropped", .number(String(stats.dropped))),
                ("latency_ms", .object([("p50", .fixed(stats.latency.p50, 1)), ("p99", .fixed(stats.latency.p99, 1))])),
                // The live path's promise: p99 OCR time + one frame interval + 5 ms (docs/ARCHITECTURE.md).
                ("bound_ms", .fixed(stats.boundMs, 1)),
            ]
        }
        return .object(fields)
    }
}

/// Receives the live runner's reports (one thread at a time) for the hub, and
/// records each price that becomes stable in history, as `pricecam live` does.
final class HubReporter: LiveReporter {
    let hub: LiveHub
    let recorder: HistoryRecorder?
    let origin: String

    init(hub: LiveHub, recorder: HistoryRecorder?, origin: String) {
        self.hub = hub
        self.recorder = recorder
        self.origin = origin
    }

    func appeared(_ price: LivePrice) {
        recorder?.record(price.priced, source: "\(origin)#\(price.frame)")
    }

    func disappeared(_ price: LivePrice) {}

    func updated(visible: [LivePrice], stats: LiveStats) {
        hub.updated(visible: visible, stats: stats, source: origin)
    }

    func stats(_ stats: LiveStats) {
        hub.statsReported(stats)
    }
}

/// Passes a source's frames on, keeping a reference to the newest in the hub
/// (no copy: frames are immutable values).
final class TeeSource: FrameSource {
    let inner: any FrameSource
    let hub: LiveHub

    init(inner: any FrameSource, hub: LiveHub) {
        self.inner = inner
        self.hub = hub
    }

    var name: String { inner.name }
    var frameInterval: UInt64? { inner.frameInterval }
    var counters: SourceCounters { inner.counters }

    func next(stop: StopFlag) throws(CaptureError) -> Frame? {
        let frame = try inner.next(stop: stop)
        if let frame { hub.newest(frame) }
        return frame
    }
}
