import Foundation
import OCR
import Pipeline
import Prometheus
import Synchronization

/// What `GET /metrics` reports, in Prometheus's text format.
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let framesProcessed: Gauge
    private let framesCaptured: Gauge
    private let framesDropped: Gauge
    private let framesFailed: Gauge
    private let latency: DurationHistogram
    private let scans: Counter
    private let scanPrices: Counter
    private let scanTime: DurationHistogram
    private let liveClients: Gauge
    private let requests: Counter
    private let heap: Gauge
    private let resident: Gauge
    private let clientCount = Mutex(0)
    private let cameraStreams: Gauge
    private let streamCount = Mutex(0)

    /// Latency buckets: the live bound is a few hundred ms; scans of big photos take seconds.
    static let buckets: [Duration] = [
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
        .milliseconds(1600), .milliseconds(3200), .milliseconds(6400),
    ]

    public init() {
        func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "pricecam", metricName: metric, unitName: unit, helpText: help)
        }
        framesProcessed = registry.makeGauge(
            descriptor: name("live_processed", "frames", "Camera frames read by OCR since the camera started."))
        framesCaptured = registry.makeGauge(descriptor: name("live_captured", "frames", "Camera frames captured since the camera started."))
        framesDropped = registry.makeGauge(
            descriptor: name("live_dropped", "frames", "Camera frames never read because a newer one was ready (drop-to-newest)."))
        framesFailed = registry.makeGauge(descriptor: name("live_failed", "frames", "Camera frames whose OCR failed."))
        latency = registry.makeDurationHistogram(
            descriptor: name("live_latency", "seconds", "Capture to result, per processed frame."), buckets: Self.buckets)
        scans = registry.makeCounter(descriptor: name("scans", "total", "Images read through POST /api/v1/scan."))
        scanPrices = registry.makeCounter(descriptor: name("scan_prices", "total", "Prices found by scans."))
        scanTime = registry.makeDurationHistogram(
            descriptor: name("scan_duration", "seconds", "Time to read one uploaded image."), buckets: Self.buckets)
        liveClients = registry.makeGauge(descriptor: name("live_clients", "browsers", "Browsers attached to the live feed."))
        cameraStreams = registry.makeGauge(
            descriptor: name(
                "camera_streams", "browsers",
                "Browser camera readings running (GET /api/v1/camera/stream): one ends when its memory is let go."))
        requests = registry.makeCounter(descriptor: name("http_requests", "total", "HTTP requests answered."))
        heap = registry.makeGauge(
            descriptor: name("memory_heap_in_use", "bytes", "Heap allocated and not freed (freed heap kept for reuse is not counted)."))
        resident = registry.makeGauge(descriptor: name("memory_resident", "bytes", "Resident memory of the process."))
    }

    func live(_ stats: LiveStats) {
        framesProcessed.set(Double(stats.processed))
        framesCaptured.set(Double(stats.captured))
        framesDropped.set(Double(stats.dropped))
        framesFailed.set(Double(stats.failed))
        if let ms = stats.lastLatencyMs { latency.record(.nanoseconds(Int64(ms * 1e6))) }
    }

    func scanned(_ result: ImageResult) {
        scans.increment()
        scanPrices.increment(by: Int64(result.prices.count))
        scanTime.record(.nanoseconds(Int64(result.milliseconds * 1e6)))
    }

    func error(code: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "pricecam", metricName: "http_errors", unitName: "total", helpText: "Error responses, by HTTP status."),
            labels: [("status", code)]
        ).increment()
    }

    func answered() { requests.increment() }

    /// A browser attached to the live feed (`delta` 1) or gone (-1).
    func clients(delta: Int) { Self.count(clientCount, by: delta, on: liveClients) }

    /// A browser camera reading started (`delta` 1) or ended (-1). A reading can outlive the
    /// route's slot (the route waits 10 s for it at most), so it is counted on its own.
    func streams(delta: Int) { Self.count(streamCount, by: delta, on: cameraStreams) }

    /// `count` moved by `delta`, and `gauge` set to it.
    private static func count(_ count: borrowing Mutex<Int>, by delta: Int, on gauge: Gauge) {
        let n = count.withLock {
            $0 += delta
            return $0
        }
        gauge.set(Double(n))
    }

    /// The text `GET /metrics` answers.
    public func text() -> [UInt8] {
        heap.set(Double(ProcessHeap.bytesInUse()))
        resident.set(Double(ResidentMemory.kilobytes() * 1024))
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
