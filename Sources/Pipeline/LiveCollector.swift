import Capture
import Foundation
import PriceParsing
import Synchronization

/// Gathers results from the workers: latency stats, stability, and calls to
/// the reporter, one at a time. Thread-safe: everything is guarded by `state`.
final class LiveCollector: Sendable {
    private struct State {
        var tracker: StabilityTracker<PriceKey, LivePrice>
        var latency = LatencyHistogram()
        var ocr = LatencyHistogram()
        var delivery = LatencyHistogram()
        var counters = SourceCounters()
        var mailboxDropped: UInt64 = 0
        var processedCount: UInt64 = 0
        var failures: UInt64 = 0
        var started = Monotonic.now()
        var residentAt: [(frames: UInt64, kb: Int)] = []
        var lastError: String?
        /// Set when the run ended without waiting for a worker: later results are ignored.
        var closed = false
    }

    private let state: Mutex<State>
    // Unchecked: the reporter (the caller's, not Sendable) is only called with `state` locked.
    nonisolated(unsafe) private let reporter: any LiveReporter
    private let frameInterval: UInt64?

    init(rule: StabilityRule, reporter: any LiveReporter, frameInterval: UInt64?) {
        self.reporter = reporter
        self.frameInterval = frameInterval
        self.state = Mutex(State(tracker: StabilityTracker(rule: rule)))
    }

    func start() {
        state.withLock { $0.started = Monotonic.now() }
    }

    func source(counters: SourceCounters, mailboxDropped: UInt64) {
        state.withLock {
            $0.counters = counters
            $0.mailboxDropped = mailboxDropped
        }
    }

    /// Capture timestamp → the frame in pricecam's hands (driver and scheduling delay).
    func delivered(delay: UInt64) {
        state.withLock { $0.delivery.record(nanoseconds: delay < 1 << 62 ? delay : 0) }
    }

    func markResident(at frames: UInt64) {
        let kb = ResidentMemory.kilobytes()
        state.withLock { $0.residentAt.append((frames, kb)) }
    }

    func processed(frame: Frame, prices: [PricedMatch], started: UInt64, finished: UInt64) {
        let latencyNs = finished > frame.timestamp ? finished - frame.timestamp : 0
        let latencyMs = Double(latencyNs) / 1e6
        let sightings = prices.map { p in
            (
                key: PriceKey(amount: p.match.amount, currency: p.match.currency),
                value: LivePrice(priced: p, frame: frame.sequence, latencyMs: latencyMs)
            )
        }
        state.withLock { s in
            guard !s.closed else { return }
            s.latency.record(nanoseconds: latencyNs)
            s.ocr.record(nanoseconds: finished - started)
            s.processedCount += 1
            let update = s.tracker.observe(sightings)
            for item in update.disappeared { reporter.disappeared(item.value) }
            for item in update.appeared { reporter.appeared(item.value) }
            var stats = snapshot(s, final: false)
            stats.lastLatencyMs = latencyMs
            reporter.updated(visible: s.tracker.visible.map(\.value), stats: stats)
        }
    }

    /// Ignores results from now on (workers abandoned at stop).
    func close() {
        state.withLock { $0.closed = true }
    }

    func failed(frame: Frame, error: any Error) {
        state.withLock {
            $0.failures += 1
            $0.lastError = "\(error)"
        }
    }

    @discardableResult
    func emitStats(final: Bool) -> LiveStats {
        state.withLock { s in
            let stats = snapshot(s, final: final)
            reporter.stats(stats)
            return stats
        }
    }

    private func snapshot(_ s: State, final: Bool) -> LiveStats {
        LiveStats(
            elapsedSeconds: Double(Monotonic.now() - s.started) / 1e9,
            captured: s.counters.captured, processed: s.processedCount,
            dropped: s.counters.discarded + s.mailboxDropped, failed: s.failures, lastFailure: s.lastError,
            latency: s.latency.summary, ocr: s.ocr.summary, delivery: s.delivery.summary,
            frameIntervalMs: frameInterval.map { Double($0) / 1e6 },
            residentKB: ResidentMemory.kilobytes(), residentAt: s.residentAt, final: final)
    }
}
