import Foundation

/// Durations in a fixed-size log histogram (1% wide buckets from 1 µs to
/// about 3 hours): percentiles within 1%, memory flat for any run length.
public struct LatencyHistogram: Sendable {
    static let growth = 1.01
    static let bucketCount = 2400
    private var counts = [UInt64](repeating: 0, count: LatencyHistogram.bucketCount)
    public private(set) var count: UInt64 = 0
    public private(set) var max: UInt64 = 0
    public private(set) var sum: UInt64 = 0

    public init() {}

    public mutating func record(nanoseconds ns: UInt64) {
        counts[Self.bucket(ns)] += 1
        count += 1
        sum &+= ns
        if ns > max { max = ns }
    }

    static func bucket(_ ns: UInt64) -> Int {
        let us = Double(ns) / 1000
        guard us > 1 else { return 0 }
        return Swift.min(bucketCount - 1, Int((log(us) / log(growth)).rounded(.up)))
    }

    /// The value at or below which `p` (0...1) of the samples fall: the upper
    /// edge of its bucket, never more than the largest sample. 0 when empty.
    public func percentile(_ p: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let rank = Swift.max(1, UInt64((p * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for (i, c) in counts.enumerated() where c > 0 {
            seen += c
            if seen >= rank {
                let edge = UInt64(pow(Self.growth, Double(i)) * 1000)
                return Swift.min(edge, max)
            }
        }
        return max
    }

    public var summary: LatencySummary {
        LatencySummary(
            count: count, p50: ms(percentile(0.50)), p95: ms(percentile(0.95)),
            p99: ms(percentile(0.99)), max: ms(max), mean: count == 0 ? 0 : ms(sum / count))
    }

    private func ms(_ ns: UInt64) -> Double { Double(ns) / 1_000_000 }
}

/// Percentiles of one kind of duration, in milliseconds.
public struct LatencySummary: Sendable, Equatable {
    public var count: UInt64
    public var p50: Double
    public var p95: Double
    public var p99: Double
    public var max: Double
    public var mean: Double

    public var json: JSON {
        .object([
            ("p50", .fixed(p50, 1)), ("p95", .fixed(p95, 1)), ("p99", .fixed(p99, 1)),
            ("max", .fixed(max, 1)), ("mean", .fixed(mean, 1)),
        ])
    }

    public var text: String {
        String(format: "p50 %.1f  p95 %.1f  p99 %.1f  max %.1f ms", p50, p95, p99, max)
    }
}

/// The live pipeline's counters and timings at one moment.
public struct LiveStats: Sendable {
    public var elapsedSeconds: Double
    /// Frames the source produced (including those it let go because a newer one was ready).
    public var captured: UInt64
    public var processed: UInt64
    /// Frames never read: let go by the source plus replaced in the mailbox.
    public var dropped: UInt64
    /// Frames whose OCR failed, and the last failure.
    public var failed: UInt64 = 0
    public var lastFailure: String?
    /// Result time − capture time, per processed frame.
    public var latency: LatencySummary
    /// Time a worker spent on one frame (image, OCR, parsing).
    public var ocr: LatencySummary
    /// Capture timestamp → frame handed to the pipeline (driver queue and
    /// scheduling; near 0 on an idle machine). Part of the latency, outside the bound.
    public var delivery = LatencyHistogram().summary
    /// The source's frame interval (ms), when known.
    public var frameIntervalMs: Double?
    public var residentKB: Int
    /// Resident memory when 1 000 and 10 000 frames had been captured.
    public var residentAt: [(frames: UInt64, kb: Int)]
    public var final: Bool
    /// Result time − capture time of the frame just processed (ms); nil in periodic and final stats.
    public var lastLatencyMs: Double?

    /// The bound the design promises: p99 OCR time + one frame interval + 5 ms.
    public var boundMs: Double { ocr.p99 + (frameIntervalMs ?? 0) + 5 }

    public var json: JSON {
        .object([
            ("event", .string("stats")),
            ("final", .bool(final)),
            ("elapsed_s", .fixed(elapsedSeconds, 2)),
            ("captured", .number(String(captured))),
            ("processed", .number(String(processed))),
            ("dropped", .number(String(dropped))),
            ("failed", .number(String(failed))),
            ("latency_ms", latency.json),
            ("ocr_ms", ocr.json),
            ("delivery_ms", delivery.json),
            ("frame_interval_ms", frameIntervalMs.map { .fixed($0, 2) } ?? .null),
            ("bound_ms", .fixed(boundMs, 1)),
            ("rss_kb", .int(residentKB)),
            ("rss_kb_at", .object(residentAt.map { (String($0.frames), JSON.int($0.kb)) })),
        ])
    }

    public var text: String {
        String(format: "%.1f s: %llu captured, %llu processed, %llu dropped\n", elapsedSeconds, captured, processed, dropped)
            + "  latency  \(latency.text)  (bound \(String(format: "%.1f", boundMs)) ms)\n"
            + "  ocr      \(ocr.text)\n"
            + (failed > 0 ? "  \(failed) frame(s) failed OCR; last: \(lastFailure ?? "?")\n" : "")
    }
}

/// Resident memory of this process.
public enum ResidentMemory {
    public static func kilobytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}
