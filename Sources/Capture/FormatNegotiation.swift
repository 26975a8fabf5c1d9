import Foundation
/// A width and height in pixels.
public struct FrameSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `1280x720`.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }

    public var area: Int { width * height }
    public var description: String { "\(width)x\(height)" }
}

/// Time per frame as V4L2 gives it (`numerator/denominator` seconds).
public struct FrameInterval: Hashable, Sendable, CustomStringConvertible {
    public var numerator: UInt32
    public var denominator: UInt32

    public init(numerator: UInt32, denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The interval closest to `fps` frames per second (1/fps, kept exact for whole and .5 rates).
    public init(fps: Double) {
        if fps == fps.rounded() {
            self.init(numerator: 1, denominator: UInt32(fps))
        } else {
            self.init(numerator: 1000, denominator: UInt32((fps * 1000).rounded()))
        }
    }

    public var fps: Double { numerator == 0 ? 0 : Double(denominator) / Double(numerator) }
    public var description: String { Self.formatFPS(fps) }

    public static func formatFPS(_ fps: Double) -> String {
        fps == fps.rounded() ? String(Int(fps)) : String(format: "%.2f", fps)
    }
}

/// The frame sizes a driver offers for one format (`VIDIOC_ENUM_FRAMESIZES`),
/// each with its frame rates (`VIDIOC_ENUM_FRAMEINTERVALS`; empty when the
/// driver does not enumerate them).
public enum OfferedSizes: Hashable, Sendable {
    case discrete([DiscreteSize])
    /// Any size from `min` to `max` in steps of `step` (continuous: step 1);
    /// `intervals` were asked for at the size closest to the request.
    case stepwise(min: FrameSize, max: FrameSize, step: FrameSize, intervals: [FrameInterval])

    public struct DiscreteSize: Hashable, Sendable {
        public var size: FrameSize
        public var intervals: [FrameInterval]
        public init(size: FrameSize, intervals: [FrameInterval]) {
            self.size = size
            self.intervals = intervals
        }
    }
}

/// One format a capture device offers.
public struct OfferedFormat: Hashable, Sendable {
    public var fourcc: FourCC
    public var description: String
    /// Made up by libv4l2's conversion layer (every frame would be converted).
    public var emulated: Bool
    public var sizes: OfferedSizes

    public init(fourcc: FourCC, description: String, emulated: Bool = false, sizes: OfferedSizes) {
        self.fourcc = fourcc
        self.description = description
        self.emulated = emulated
        self.sizes = sizes
    }
}

/// What pricecam asks the driver for.
public struct FormatRequest: Hashable, Sendable {
    public var size: FrameSize
    public var fps: Double
    /// Only this pixel format, when given (`--pixel-format`).
    public var fourcc: FourCC?

    public static let `default` = FormatRequest(size: FrameSize(width: 1280, height: 720), fps: 30)

    public init(size: FrameSize, fps: Double, fourcc: FourCC? = nil) {
        self.size = size
        self.fps = fps
        self.fourcc = fourcc
    }
}

/// The format, size and rate to request (the driver may still adjust them).
public struct FormatChoice: Hashable, Sendable {
    public var fourcc: FourCC
    public var size: FrameSize
    /// nil when the driver does not enumerate rates: ask for the requested one.
    public var interval: FrameInterval?
}

/// Picks a format from what a device offers. Pure: no device needed.
public enum FormatNegotiation {
    /// The best choice, or nil when no offered format can be read.
    ///
    /// Order of preference: a size as close as possible to the request (exact
    /// beats larger beats smaller); then a rate that reaches the request; then
    /// the cheapest luma (GREY and planar YUV, then packed YUV 4:2:2, MJPEG only
    /// when no raw format does as well); then the higher rate. Formats emulated
    /// by libv4l2 are never chosen.
    public static func choose(from offered: [OfferedFormat], request: FormatRequest = .default) -> FormatChoice? {
        var best: (key: [Double], choice: FormatChoice)?
        for format in offered where !format.emulated && (request.fourcc == nil || request.fourcc == format.fourcc) {
            guard let layout = LumaLayout(format.fourcc) else { continue }
            for (size, intervals) in candidates(format.sizes, request: request.size) {
                let interval = bestInterval(intervals, fps: request.fps)
                let fps = interval?.fps ?? request.fps
                let key: [Double] = [
                    sizeCost(size, request.size),
                    fps + 0.01 >= request.fps * 0.95 ? 0 : 1,
                    Double(layout.cost),
                    -fps,
                ]
                if best == nil || key.lexicographicallyPrecedes(best!.key) {
                    best = (key, FormatChoice(fourcc: format.fourcc, size: size, interval: interval))
                }
            }
        }
        return best?.choice
    }

    /// 0 for the requested size; larger sizes cost their relative extra area,
    /// smaller ones twice their shortfall (too few pixels hurt OCR more).
    static func sizeCost(_ s: FrameSize, _ want: FrameSize) -> Double {
        if s == want { return 0 }
        let ratio = Double(s.area) / Double(want.area)
        return ratio >= 1 ? ratio - 1 : 2 * (1 / ratio - 1)
    }

    static func candidates(_ sizes: OfferedSizes, request: FrameSize) -> [(FrameSize, [FrameInterval])] {
        switch sizes {
        case .discrete(let list):
            return list.map { ($0.size, $0.intervals) }
        case .stepwise(let min, let max, let step, let intervals):
            func fit(_ v: Int, _ lo: Int, _ hi: Int, _ st: Int) -> Int {
                let c = Swift.min(Swift.max(v, lo), hi)
                let s = Swift.max(st, 1)
                return lo + ((c - lo) / s) * s
            }
            let size = FrameSize(
                width: fit(request.width, min.width, max.width, step.width),
                height: fit(request.height, min.height, max.height, step.height))
            return [(size, intervals)]
        }
    }

    /// The slowest rate that reaches `fps` (less work for the driver), else the fastest.
    static func bestInterval(_ intervals: [FrameInterval], fps: Double) -> FrameInterval? {
        let valid = intervals.filter { $0.numerator > 0 && $0.denominator > 0 }
        let reaching = valid.filter { $0.fps + 0.01 >= fps * 0.95 }
        if let slowest = reaching.min(by: { $0.fps < $1.fps }) { return slowest }
        return valid.max(by: { $0.fps < $1.fps })
    }
}
