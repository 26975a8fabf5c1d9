import Capture
import Foundation
import PriceParsing

/// Gathers results from the workers: latency stats, stability, and calls to
/// the reporter, one at a time. Thread-safe: everything is guarded by `lock`.
final class LiveCollector: @unchecked Sendable {
    private let lock = NSLock()
    private let reporter: any LiveReporter
    private let frameInterval: UInt64?
    private var tracker: StabilityTracker<PriceKey, LivePrice>
    private var latency = LatencyHistogram()
    private var ocr = LatencyHistogram()
    private var delivery = LatencyHistogram()
    private var counters = SourceCounters()
    private var mailboxDropped: UInt64 = 0
    private var processedCount: UInt64 = 0
    private var failures: UInt64 = 0
    private var started = Monotonic.now()
    private var residentAt: [(frames: UInt64, kb: Int)] = []
    private var lastError: String?
    /// Set when the run ended without waiting for a worker: later results are ignored.
    private var closed = false

    init(rule: StabilityRule, reporter: any LiveReporter, frameInterval: UInt64?) {
        self.reporter = reporter
        self.frameInterval = frameInterval
        self.tracker = StabilityTracker(rule: rule)
    }

    func start() {
        lock.lock(); started = Monotonic.now(); lock.unlock()
    }

    func source(counters: SourceCounters, mailboxDropped: UInt64) {
        lock.lock()
        self.counters = counters
        self.mailboxDropped = mailboxDropped
        lock.unlock()
    }

    /// Capture timestamp → the frame in pricecam's hands (driver and scheduling delay).
    func delivered(delay: UInt64) {
        lock.lock(); delivery.record(nanoseconds: delay < 1 << 62 ? delay : 0); lock.unlock()
    }

    func markResident(at frames: UInt64) {
        let kb = ResidentMemory.kilobytes()
        lock.lock(); residentAt.append((frames, kb)); lock.unlock()
    }

    func processed(frame: Frame, prices: [PricedMatch], started: UInt64, finished: UInt64) {
        let latencyNs = finished > frame.timestamp ? finished - frame.timestamp : 0
        let latencyMs = Double(latencyNs) / 1e6
        let sightings = prices.map { p in
            (key: PriceKey(amount: p.match.amount, currency: p.match.currency),
             value: LivePrice(priced: p, frame: frame.sequence, latencyMs: latencyMs))
        }
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        latency.record(nanoseconds: latencyNs)
        ocr.record(nanoseconds: finished - started)
        processedCount += 1
        let update = tracker.observe(sightings)
        for item in update.disappeared { reporter.disappeared(item.value) }
        for item in update.appeared { reporter.appeared(item.value) }
        reporter.updated(visible: tracker.visible.map(\.value), stats: snapshot(final: false))
    }

    /// Ignores results from now on (workers abandoned at stop).
    func close() {
        lock.lock(); closed = true; lock.unlock()
    }

    func failed(frame: Frame, error: any Error) {
        lock.lock()
        failures += 1
        lastError = "\(error)"
        lock.unlock()
    }

    @discardableResult
    func emitStats(final: Bool) -> LiveStats {
        lock.lock()
        defer { lock.unlock() }
        let s = snapshot(final: final)
        reporter.stats(s)
        return s
    }

    private func snapshot(final: Bool) -> LiveStats {
        LiveStats(
            elapsedSeconds: Double(Monotonic.now() - started) / 1e9,
            captured: counters.captured, processed: processedCount,
            dropped: counters.discarded + mailboxDropped, failed: failures, lastFailure: lastError,
            latency: latency.summary, ocr: ocr.summary, delivery: delivery.summary,
            frameIntervalMs: frameInterval.map { Double($0) / 1e6 },
            residentKB: ResidentMemory.kilobytes(), residentAt: residentAt, final: final)
    }
}
