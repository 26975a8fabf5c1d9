import SystemPackage
import CV4L2
import Foundation

/// Takes the luma plane out of one raw frame buffer.
enum V4L2Luma {
    /// `width × height` bytes of luma, rows packed, or nil when the buffer is too short.
    static func extract(
        _ src: UnsafeRawBufferPointer, layout: LumaLayout, size: FrameSize, bytesPerLine: Int,
        decoder: MJPEGDecoder?
    ) -> [UInt8]? {
        let w = size.width, h = size.height
        switch layout {
        case .plane, .gray:
            let stride = max(bytesPerLine, w)
            guard src.count >= stride * (h - 1) + w else { return nil }
            return [UInt8](unsafeUninitializedCapacity: w * h) { out, n in
                let dst = UnsafeMutableRawBufferPointer(out)
                for y in 0..<h {
                    UnsafeMutableRawBufferPointer(rebasing: dst[(y * w)..<(y * w + w)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: src[(y * stride)..<(y * stride + w)]))
                }
                n = w * h
            }
        case .packed(let offset):
            let stride = max(bytesPerLine, 2 * w)
            guard src.count >= stride * (h - 1) + 2 * w else { return nil }
            return [UInt8](unsafeUninitializedCapacity: w * h) { out, n in
                for y in 0..<h {
                    let row = y * stride + offset
                    let o = y * w
                    for x in 0..<w { out[o + x] = src[row + 2 * x] }
                }
                n = w * h
            }
        case .compressed:
            return decoder?.decodeLuma(src, size: size)
        }
    }

    /// The same on a byte array (tests and other safe callers).
    static func extract(_ bytes: [UInt8], layout: LumaLayout, size: FrameSize, bytesPerLine: Int) -> [UInt8]? {
        bytes.withUnsafeBytes { extract($0, layout: layout, size: size, bytesPerLine: bytesPerLine, decoder: nil) }
    }
}

/// Decodes MJPEG frames with libv4lconvert; owns its converter state, which
/// `deinit` destroys.
final class MJPEGDecoder {
    private let data: OpaquePointer
    /// The converter keeps the device's descriptor (it queries the device):
    /// holding the device keeps that descriptor open until the converter is
    /// destroyed (stored properties are released after `deinit` runs).
    private let device: V4L2Device
    private let fourcc: FourCC
    private var scratch: [UInt8] = []

    init?(device: V4L2Device, fourcc: FourCC) {
        guard let d = v4lconvert_create(device.descriptor.rawValue) else { return nil }
        data = d
        self.device = device
        self.fourcc = fourcc
    }

    deinit { v4lconvert_destroy(data) }

    func decodeLuma(_ src: UnsafeRawBufferPointer, size: FrameSize) -> [UInt8]? {
        let need = size.width * size.height * 3 / 2
        if scratch.count < need { scratch = [UInt8](repeating: 0, count: need) }
        let n = scratch.withUnsafeMutableBufferPointer { out in
            pricecam_decode_to_yu12(
                data, fourcc.rawValue, UInt32(size.width), UInt32(size.height),
                src.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(src.count),
                out.baseAddress, Int32(need))
        }
        guard n >= size.width * size.height else { return nil }
        return Array(scratch[0..<(size.width * size.height)])
    }
}

/// Luma extraction for callers outside this file that hold bytes, not pointers.
public enum LumaExtraction {
    /// The luma of a raw (uncompressed) frame in `fourcc`, rows packed; nil
    /// when the format is compressed or unknown or the buffer too short.
    public static func luma(of bytes: [UInt8], fourcc: FourCC, size: FrameSize, bytesPerLine: Int) -> [UInt8]? {
        guard let layout = LumaLayout(fourcc), layout != .compressed else { return nil }
        return V4L2Luma.extract(bytes, layout: layout, size: size, bytesPerLine: bytesPerLine)
    }
}
