/// A V4L2 pixel format code (`V4L2_PIX_FMT_*`), four ASCII characters.
public struct FourCC: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `FourCC("YUYV")`; shorter strings are padded with spaces.
    public init(_ text: String) {
        var v: UInt32 = 0
        let bytes = Array(text.utf8.prefix(4)) + Array(repeating: UInt8(ascii: " "), count: max(0, 4 - text.utf8.count))
        for (i, b) in bytes.enumerated() { v |= UInt32(b) << (8 * UInt32(i)) }
        rawValue = v
    }

    public var description: String {
        var s = ""
        for i in 0..<4 {
            let b = UInt8((rawValue >> (8 * UInt32(i))) & 0xff)
            s.unicodeScalars.append(Unicode.Scalar((32...126).contains(b) ? b : UInt8(ascii: "?")))
        }
        return s.hasSuffix(" ") ? String(s.reversed().drop(while: { $0 == " " }).reversed()) : s
    }

    public static let grey = FourCC("GREY")
    public static let yuyv = FourCC("YUYV"), yvyu = FourCC("YVYU"), uyvy = FourCC("UYVY"), vyuy = FourCC("VYUY")
    public static let nv12 = FourCC("NV12"), nv21 = FourCC("NV21"), nv16 = FourCC("NV16"), nv61 = FourCC("NV61")
    public static let nv24 = FourCC("NV24"), nv42 = FourCC("NV42")
    public static let yu12 = FourCC("YU12"), yv12 = FourCC("YV12"), yuv422p = FourCC("422P")
    public static let mjpeg = FourCC("MJPG"), jpeg = FourCC("JPEG")
}

/// Where the luma (Y) samples of a format are, so a frame's gray image can be
/// taken without converting colour.
public enum LumaLayout: Sendable, Equatable {
    /// Nothing but luma (GREY): the whole buffer is the image.
    case gray
    /// A full-resolution Y plane first, one byte per pixel (`bytesperline` apart).
    case plane
    /// Packed 4:2:2: one Y byte every 2 bytes, the first at `offset` (0 for YUYV/YVYU, 1 for UYVY/VYUY).
    case packed(offset: Int)
    /// Compressed (MJPEG/JPEG): decoded, only for frames that are kept.
    case compressed

    public init?(_ f: FourCC) {
        switch f {
        case .grey: self = .gray
        case .nv12, .nv21, .nv16, .nv61, .nv24, .nv42, .yu12, .yv12, .yuv422p: self = .plane
        case .yuyv, .yvyu: self = .packed(offset: 0)
        case .uyvy, .vyuy: self = .packed(offset: 1)
        case .mjpeg, .jpeg: self = .compressed
        default: return nil
        }
    }

    /// Lower is better: how cheaply the luma is taken (copy a plane < pick every
    /// other byte < decode a JPEG).
    public var cost: Int {
        switch self {
        case .gray: 0
        case .plane: 1
        case .packed: 2
        case .compressed: 10
        }
    }
}
