import Testing
@testable import Pipeline

@Suite struct LiveLatencyStatsTests {
    @Test func percentilesWithinOnePercent() {
        var h = LatencyHistogram()
        for ms in 1...1000 { h.record(nanoseconds: UInt64(ms) * 1_000_000) }
        let s = h.summary
        #expect(abs(s.p50 - 500) <= 5)
        #expect(abs(s.p95 - 950) <= 9.5)
        #expect(abs(s.p99 - 990) <= 9.9)
        #expect(s.max == 1000)
        #expect(s.count == 1000)
    }

    @Test func percentileNeverExceedsMax() {
        var h = LatencyHistogram()
        h.record(nanoseconds: 12_345_678)
        #expect(h.percentile(0.99) == 12_345_678)
        #expect(LatencyHistogram().percentile(0.5) == 0)
    }

    @Test func boundIsOCRp99PlusIntervalPlus5() {
        var ocr = LatencyHistogram()
        ocr.record(nanoseconds: 40_000_000)
        let stats = LiveStats(
            elapsedSeconds: 1, captured: 1, processed: 1, dropped: 0,
            latency: LatencySummary(count: 0, p50: 0, p95: 0, p99: 0, max: 0, mean: 0),
            ocr: ocr.summary, frameIntervalMs: 33.3, residentKB: 0, residentAt: [], final: true)
        #expect(abs(stats.boundMs - 78.3) < 0.01)
        #expect(stats.json.serialized().hasPrefix("{\"event\":\"stats\",\"final\":true"))
    }
}
