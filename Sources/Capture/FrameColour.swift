/// A frame's colour as its source had it, kept beside the luma for display (the
/// web app shows frames in colour; OCR reads only luma). Raw buffers are kept
/// as they came and converted only when a browser asks for the frame, so the
/// capture loop pays one copy, not a conversion.
public enum FrameColour: Sendable {
    /// A compressed image: an MJPEG camera's frame, a replayed file encoded once.
    case jpeg([UInt8])
    /// A raw camera buffer in `fourcc`, rows `bytesPerLine` apart.
    case raw(bytes: [UInt8], fourcc: FourCC, bytesPerLine: Int)

    /// Interleaved 8-bit RGB, `width × height × 3` bytes, of a raw buffer in a
    /// YUV format cameras send (packed 4:2:2, NV12/NV21, YU12/YV12); nil for
    /// other formats, a short buffer, or `.jpeg`. BT.601 limited range, as
    /// UVC cameras send it.
    public func rgb(width w: Int, height h: Int) -> [UInt8]? {
        guard case .raw(let src, let fourcc, let bytesPerLine) = self, w > 0, h > 0 else { return nil }
        // Where each pixel's Y, U and V bytes are, per format.
        let y: (Int, Int) -> Int
        let u: (Int, Int) -> Int
        let v: (Int, Int) -> Int
        let need: Int
        switch fourcc {
        case .yuyv, .yvyu, .uyvy, .vyuy:
            let stride = max(bytesPerLine, 2 * w)
            need = stride * (h - 1) + 2 * w
            // In each 4-byte pair of pixels: YUYV = Y0 U Y1 V, YVYU = Y0 V Y1 U, UYVY = U Y0 V Y1, VYUY = V Y0 U Y1.
            let (yOff, uOff, vOff): (Int, Int, Int) =
                switch fourcc {
                case .yuyv: (0, 1, 3)
                case .yvyu: (0, 3, 1)
                case .uyvy: (1, 0, 2)
                default: (1, 2, 0)
                }
            y = { x, r in r * stride + 2 * x + yOff }
            u = { x, r in r * stride + (x & ~1) * 2 + uOff }
            v = { x, r in r * stride + (x & ~1) * 2 + vOff }
        case .nv12, .nv21:
            let stride = max(bytesPerLine, w)
            let chroma = stride * h
            need = chroma + stride * ((h - 1) / 2) + ((w - 1) & ~1) + 2
            let (uOff, vOff) = fourcc == .nv12 ? (0, 1) : (1, 0)
            y = { x, r in r * stride + x }
            u = { x, r in chroma + (r / 2) * stride + (x & ~1) + uOff }
            v = { x, r in chroma + (r / 2) * stride + (x & ~1) + vOff }
        case .yu12, .yv12:
            let stride = max(bytesPerLine, w)
            let half = stride / 2
            let first = stride * h
            let second = first + half * ((h + 1) / 2)
            need = second + half * ((h + 1) / 2)
            let (uStart, vStart) = fourcc == .yu12 ? (first, second) : (second, first)
            y = { x, r in r * stride + x }
            u = { x, r in uStart + (r / 2) * half + x / 2 }
            v = { x, r in vStart + (r / 2) * half + x / 2 }
        default:
            return nil
        }
        guard src.count >= need else { return nil }
        return [UInt8](unsafeUninitializedCapacity: w * h * 3) { out, n in
            for r in 0..<h {
                for x in 0..<w {
                    let (red, green, blue) = Self.bt601(y: src[y(x, r)], u: src[u(x, r)], v: src[v(x, r)])
                    let o = (r * w + x) * 3
                    out[o] = red
                    out[o + 1] = green
                    out[o + 2] = blue
                }
            }
            n = w * h * 3
        }
    }

    /// One YCbCr sample to RGB: BT.601, limited range (Y 16–235, Cb/Cr 16–240),
    /// in integers scaled by 256 (the coefficients of ITU-R BT.601).
    static func bt601(y: UInt8, u: UInt8, v: UInt8) -> (UInt8, UInt8, UInt8) {
        let c = 298 * (Int(y) - 16), d = Int(u) - 128, e = Int(v) - 128
        func clamp(_ x: Int) -> UInt8 { UInt8(max(0, min(255, (x + 128) >> 8))) }
        return (clamp(c + 409 * e), clamp(c - 100 * d - 208 * e), clamp(c + 516 * d))
    }
}
