import Capture
import Foundation
import OCR
import PriceParsing
import Synchronization
import Testing
@testable import Pipeline

/// Frames whose first pixel says which price they show; produced at a fixed rate.
final class FakeSource: FrameSource {
    let name = "fake"
    let frameInterval: UInt64?
    private(set) var counters = SourceCounters()
    /// The longest real gap between two frames (sleeps overrun on a loaded machine).
    private(set) var maxGap: UInt64 = 0
    private var last: UInt64?
    private let total: Int
    private let priceAt: (Int) -> UInt8
    /// The last frame is held back until this is true (at most 10 s), so a
    /// test can make sure the run ends only after what it checks has happened.
    var beforeLast: (() -> Bool)?
    /// `beforeLast` was still false after 10 s.
    private(set) var heldTooLong = false

    init(fps: Double, total: Int, priceAt: @escaping (Int) -> UInt8) {
        frameInterval = UInt64(1e9 / fps)
        self.total = total
        self.priceAt = priceAt
    }

    func next(stop: StopFlag) throws(CaptureError) -> Frame? {
        let i = Int(counters.captured)
        guard i < total, !stop.isSet else { return nil }
        if i > 0 { usleep(UInt32(frameInterval! / 1000)) }
        if i == total - 1, let ready = beforeLast {
            let deadline = Monotonic.now() + 10_000_000_000
            while !ready() && !heldTooLong { usleep(1_000); heldTooLong = Monotonic.now() > deadline }
        }
        counters.captured += 1
        let now = Monotonic.now()
        if let last { maxGap = max(maxGap, now - last) }
        last = now
        return Frame(width: 1, height: 1, bytesPerRow: 1, pixels: [priceAt(i)], sequence: UInt64(i), timestamp: now)
    }
}

/// How many frames showing each price were read (by every worker).
final class ReadCounts: Sendable {
    private let counts = Mutex<[UInt8: Int]>([:])
    func add(_ v: UInt8) { counts.withLock { $0[v, default: 0] += 1 } }
    func count(of v: UInt8) -> Int { counts.withLock { $0[v] ?? 0 } }
}

/// Pretends OCR takes `ms` and reads the price in the first pixel.
final class SlowRecognizer: LiveRecognizer {
    let ms: UInt32
    let reads: ReadCounts?
    init(ms: UInt32, reads: ReadCounts? = nil) {
        self.ms = ms
        self.reads = reads
    }
    func prices(in frame: Frame) throws -> [PricedMatch] {
        usleep(ms * 1000)
        let v = frame.pixels[0]
        reads?.add(v)
        guard v > 0 else { return [] }
        return [PricedMatch(match: PriceMatch(text: "$\(v)", amount: Decimal(Int(v)), currency: "USD"), conversion: nil)]
    }
}

final class RecordingReporter: LiveReporter {
    var appeared: [(amount: Decimal, frame: UInt64)] = []
    var gone: [Decimal] = []
    var finalStats: LiveStats?
    func appeared(_ p: LivePrice) { appeared.append((p.priced.match.amount, p.frame)) }
    func disappeared(_ p: LivePrice) { gone.append(p.priced.match.amount) }
    func updated(visible: [LivePrice], stats: LiveStats) {}
    func stats(_ s: LiveStats) { if s.final { finalStats = s } }
}

@Suite(.serialized) struct LiveRunnerTests {
    static let settings = ExtractionSettings(ocr: OCRConfiguration(tessdata: "/nonexistent"), parser: ParserOptions(), converter: nil)

    @Test func slowOCRDropsFramesAndKeepsLatencyBounded() throws {
        // 200 fps source, 20 ms OCR, one worker: most frames must be dropped, none queued.
        let source = FakeSource(fps: 200, total: 300) { $0 < 150 ? 7 : 9 }
        // The last frame (a 9) comes only after two 9s were read; the run reads
        // it before ending, so at least three processed frames in a row show 9.
        let reads = ReadCounts()
        source.beforeLast = { reads.count(of: 9) >= 2 }
        let reporter = RecordingReporter()
        let runner = LiveRunner(
            configuration: LiveConfiguration(jobs: 1, stability: StabilityRule(k: 2, m: 3)),
            settings: Self.settings, makeRecognizer: { _ in SlowRecognizer(ms: 20, reads: reads) })
        let stats = try runner.run(source: source, stop: StopFlag(), reporter: reporter)
        #expect(!source.heldTooLong, "fewer than two frames showing 9 were read in 10 s")
        #expect(stats.captured == 300)
        #expect(stats.processed + stats.dropped == 300)
        // Frames arrive faster than they are read: most are dropped, none queued
        // (how many exactly depends on how fast this machine's sleeps are).
        #expect(stats.dropped > stats.processed)
        // The bound, with the interval the (sleeping) fake source really kept on this machine.
        let realBound = stats.ocr.p99 + Double(source.maxGap) / 1e6 + 5
        #expect(stats.latency.p99 <= realBound + 10, "p99 \(stats.latency.p99) ms, bound \(realBound) ms")
        #expect(reporter.appeared.map(\.amount) == [7, 9])  // once per appearance, in order
        // 7 is missing from the last 3 processed frames (all 9s): it left the view, once.
        #expect(reporter.gone == [7])
        // The switch is seen within K processed frames after it happened.
        let switchedAt = try #require(reporter.appeared.last?.frame)
        #expect(switchedAt >= 150 && switchedAt < 150 + 3 * 5 + 10)
    }

    @Test func fifoLatencyGrowsWithTheBacklog() throws {
        let source = FakeSource(fps: 200, total: 60) { _ in 5 }
        let reporter = RecordingReporter()
        let runner = LiveRunner(
            configuration: LiveConfiguration(jobs: 1, policy: .fifo),
            settings: Self.settings, makeRecognizer: { _ in SlowRecognizer(ms: 10) })
        let stats = try runner.run(source: source, stop: StopFlag(), reporter: reporter)
        #expect(stats.dropped == 0)
        #expect(stats.processed == 60)
        #expect(stats.latency.max > 200)  // the last frame waited behind ~40 others
    }

    @Test func frameLimitAndStopFlagEndTheRun() throws {
        let reporter = RecordingReporter()
        let runner = LiveRunner(
            configuration: LiveConfiguration(jobs: 2, frames: 20),
            settings: Self.settings, makeRecognizer: { _ in SlowRecognizer(ms: 1) })
        let stats = try runner.run(source: FakeSource(fps: 500, total: 1000) { _ in 1 }, stop: StopFlag(), reporter: reporter)
        #expect(stats.captured == 20)
        #expect(reporter.finalStats?.final == true)

        let stop = StopFlag()
        stop.set(reason: "test")
        let stopped = try runner.run(source: FakeSource(fps: 500, total: 1000) { _ in 1 }, stop: stop, reporter: reporter)
        #expect(stopped.captured == 0)
    }

    @Test func deviceErrorStopsWithoutWaitingForASlowRecognition() throws {
        final class Unplugged: FrameSource {
            let name = "/dev/video0"
            let frameInterval: UInt64? = 10_000_000
            private(set) var counters = SourceCounters()
            func next(stop: StopFlag) throws(CaptureError) -> Frame? {
                if counters.captured == 2 { throw .disconnected(path: name, errno: 19) }
                counters.captured += 1
                return Frame(width: 1, height: 1, bytesPerRow: 1, pixels: [1])
            }
        }
        var configuration = LiveConfiguration(jobs: 1)
        configuration.stopGraceSeconds = 0.2
        let runner = LiveRunner(
            configuration: configuration, settings: Self.settings,
            makeRecognizer: { _ in SlowRecognizer(ms: 3_000) })
        let reporter = RecordingReporter()
        let start = Monotonic.now()
        #expect(throws: CaptureError.disconnected(path: "/dev/video0", errno: 19)) {
            try runner.run(source: Unplugged(), stop: StopFlag(), reporter: reporter)
        }
        #expect(Monotonic.now() - start < 2_000_000_000)
        #expect(reporter.finalStats?.processed == 0)
    }

    @Test func workerStartupFailureIsReported() {
        struct Boom: Error {}
        let runner = LiveRunner(
            configuration: LiveConfiguration(jobs: 2), settings: Self.settings,
            makeRecognizer: { _ in throw Boom() })
        #expect(throws: Boom.self) {
            try runner.run(source: FakeSource(fps: 100, total: 10) { _ in 1 }, stop: StopFlag(), reporter: RecordingReporter())
        }
    }
}
