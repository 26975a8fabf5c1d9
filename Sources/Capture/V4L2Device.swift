import CV4L2
import Foundation
import SystemPackage

/// An open V4L2 device node: the one owner of its file descriptor (opened
/// through libv4l2), which `deinit` closes. Everything that uses the
/// descriptor (`V4L2Buffers`, `MJPEGDecoder`, the capture loop's `poll`)
/// holds this object, so the descriptor outlives them. Used by one thread; not `Sendable`.
public final class V4L2Device {
    public let path: String
    /// Registered with libv4l2 (`v4l2_fd_open`); closed only by `deinit`, through `v4l2_close`.
    let descriptor: FileDescriptor

    /// Opens `path` non-blocking, read-write, through libv4l2.
    public init(path: String) throws(CaptureError) {
        var st = stat()
        if stat(path, &st) != 0 {
            throw Self.openError(path, errno)
        }
        if (st.st_mode & S_IFMT) != S_IFCHR {
            throw .notCaptureDevice(path: path, what: "not a device node")
        }
        // Open plainly and check it is V4L2 before libv4l2 wraps it (libv4l2
        // prints its own errors on stderr for nodes it cannot handle).
        let raw: FileDescriptor
        do {
            raw = try FileDescriptor.open(FilePath(path), .readWrite, options: [.nonBlocking, .closeOnExec])
        } catch {
            throw Self.openError(path, (error as? SystemPackage.Errno)?.rawValue ?? EIO)
        }
        var cap = v4l2_capability()
        if pricecam_raw_ioctl(raw.rawValue, pricecam_VIDIOC_QUERYCAP, &cap) == -1 {
            let e = errno
            try? raw.close()
            if e == ENOTTY || e == EINVAL { throw .notCaptureDevice(path: path, what: "not a V4L2 device") }
            throw Self.openError(path, e)
        }
        let fd = v4l2_fd_open(raw.rawValue, 0)
        if fd < 0 {
            let e = errno
            try? raw.close()
            throw Self.openError(path, e)
        }
        self.path = path
        self.descriptor = FileDescriptor(rawValue: fd)
    }

    deinit {
        v4l2_close(descriptor.rawValue)
    }

    static func openError(_ path: String, _ e: Int32) -> CaptureError {
        switch e {
        case ENOENT, ENODEV, ENXIO: .noSuchDevice(path: path)
        case EACCES, EPERM: .permissionDenied(path: path)
        case EBUSY: .busy(path: path)
        default: .ioctlFailed(path: path, operation: "open", errno: e)
        }
    }

    /// The error for a failed call: busy and disappearance get their own cases.
    func failure(_ operation: String, _ e: Int32 = errno) -> CaptureError {
        switch e {
        case EBUSY: .busy(path: path)
        case ENODEV, EIO, ENXIO: .disconnected(path: path, errno: e)
        case EACCES, EPERM: .permissionDenied(path: path)
        default: .ioctlFailed(path: path, operation: operation, errno: e)
        }
    }

    @discardableResult
    func ioctl<T>(_ request: UInt, _ arg: inout T, _ name: String) throws(CaptureError) -> Int32 {
        let r = withUnsafeMutablePointer(to: &arg) { pricecam_v4l2_ioctl(descriptor.rawValue, request, UnsafeMutableRawPointer($0)) }
        if r == -1 { throw failure(name) }
        return r
    }

    /// ioctl that reports failure as its errno (0 on success), for enumerations.
    func tryIoctl<T>(_ request: UInt, _ arg: inout T) -> Int32 {
        let r = withUnsafeMutablePointer(to: &arg) { pricecam_v4l2_ioctl(descriptor.rawValue, request, UnsafeMutableRawPointer($0)) }
        return r == -1 ? errno : 0
    }

    // MARK: - Capabilities

    public struct Capabilities: Sendable {
        public var driver: String
        public var card: String
        public var busInfo: String
        /// The node's own capabilities (`device_caps` when the driver gives them).
        public var caps: UInt32

        public var isCapture: Bool { caps & pricecam_V4L2_CAP_VIDEO_CAPTURE != 0 }
        public var canStream: Bool { caps & pricecam_V4L2_CAP_STREAMING != 0 }

        /// What the node is, when it is not a single-planar capture device.
        public var what: String {
            if caps & pricecam_V4L2_CAP_VIDEO_OUTPUT != 0 { return "it is a video output device, \(card)" }
            if caps & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0 { return "multi-planar capture is not supported, \(card)" }
            if caps & UInt32(V4L2_CAP_META_CAPTURE) != 0 { return "it is a metadata node, \(card); try the node before it" }
            return "\(card) has no video capture capability"
        }
    }

    public func capabilities() throws(CaptureError) -> Capabilities {
        var cap = v4l2_capability()
        let e = tryIoctl(pricecam_VIDIOC_QUERYCAP, &cap)
        if e == ENOTTY || e == EINVAL { throw .notCaptureDevice(path: path, what: "not a V4L2 device") }
        if e != 0 { throw failure("VIDIOC_QUERYCAP", e) }
        let caps = cap.capabilities & pricecam_V4L2_CAP_DEVICE_CAPS != 0 ? cap.device_caps : cap.capabilities
        return Capabilities(
            driver: Self.string(cap.driver), card: Self.string(cap.card),
            busInfo: Self.string(cap.bus_info), caps: caps)
    }

    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix(while: { $0 != 0 })
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    // MARK: - Formats

    /// Every capture format with its sizes and rates (stepwise sizes are probed
    /// at the size closest to `request`).
    public func formats(request: FormatRequest = .default) throws(CaptureError) -> [OfferedFormat] {
        var out: [OfferedFormat] = []
        var index: UInt32 = 0
        while true {
            var d = v4l2_fmtdesc()
            d.index = index
            d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            let e = tryIoctl(pricecam_VIDIOC_ENUM_FMT, &d)
            if e == EINVAL { break }
            if e != 0 { throw failure("VIDIOC_ENUM_FMT", e) }
            index += 1
            let fourcc = FourCC(rawValue: d.pixelformat)
            out.append(
                OfferedFormat(
                    fourcc: fourcc, description: Self.string(d.description),
                    emulated: d.flags & pricecam_V4L2_FMT_FLAG_EMULATED != 0,
                    sizes: sizes(fourcc, request: request)))
            if index > 256 { break }
        }
        return out
    }

    func sizes(_ fourcc: FourCC, request: FormatRequest) -> OfferedSizes {
        var list: [OfferedSizes.DiscreteSize] = []
        var index: UInt32 = 0
        while index < 256 {
            var e = v4l2_frmsizeenum()
            e.index = index
            e.pixel_format = fourcc.rawValue
            guard tryIoctl(pricecam_VIDIOC_ENUM_FRAMESIZES, &e) == 0 else { break }
            if e.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                let size = FrameSize(width: Int(e.discrete.width), height: Int(e.discrete.height))
                list.append(.init(size: size, intervals: intervals(fourcc, size, fps: request.fps)))
                index += 1
                continue
            }
            let s = e.stepwise
            let lo = FrameSize(width: Int(s.min_width), height: Int(s.min_height))
            let hi = FrameSize(width: Int(s.max_width), height: Int(s.max_height))
            let step = FrameSize(width: Int(max(s.step_width, 1)), height: Int(max(s.step_height, 1)))
            let probe = OfferedSizes.stepwise(min: lo, max: hi, step: step, intervals: [])
            let at = FormatNegotiation.candidates(probe, request: request.size)[0].0
            return .stepwise(min: lo, max: hi, step: step, intervals: intervals(fourcc, at, fps: request.fps))
        }
        return .discrete(list)
    }

    func intervals(_ fourcc: FourCC, _ size: FrameSize, fps: Double) -> [FrameInterval] {
        var out: [FrameInterval] = []
        var index: UInt32 = 0
        while index < 256 {
            var e = v4l2_frmivalenum()
            e.index = index
            e.pixel_format = fourcc.rawValue
            e.width = UInt32(size.width)
            e.height = UInt32(size.height)
            guard tryIoctl(pricecam_VIDIOC_ENUM_FRAMEINTERVALS, &e) == 0 else { break }
            if e.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                out.append(FrameInterval(numerator: e.discrete.numerator, denominator: e.discrete.denominator))
                index += 1
                continue
            }
            // Stepwise or continuous: the fastest, the slowest and the requested rate when in range.
            let fast = FrameInterval(numerator: e.stepwise.min.numerator, denominator: e.stepwise.min.denominator)
            let slow = FrameInterval(numerator: e.stepwise.max.numerator, denominator: e.stepwise.max.denominator)
            out = [fast, slow]
            if fps <= fast.fps && fps >= slow.fps { out.append(FrameInterval(fps: fps)) }
            break
        }
        return out
    }

    /// The pixel format the driver applied after `VIDIOC_S_FMT`.
    struct PixFormat {
        var fourcc: FourCC
        var size: FrameSize
        var bytesPerLine: Int
        var sizeImage: Int
    }

    func setFormat(_ choice: FormatChoice) throws(CaptureError) -> PixFormat {
        var f = v4l2_format()
        f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        try ioctl(pricecam_VIDIOC_G_FMT, &f, "VIDIOC_G_FMT")
        f.fmt.pix.pixelformat = choice.fourcc.rawValue
        f.fmt.pix.width = UInt32(choice.size.width)
        f.fmt.pix.height = UInt32(choice.size.height)
        f.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        f.fmt.pix.bytesperline = 0
        try ioctl(pricecam_VIDIOC_S_FMT, &f, "VIDIOC_S_FMT")
        return PixFormat(
            fourcc: FourCC(rawValue: f.fmt.pix.pixelformat),
            size: FrameSize(width: Int(f.fmt.pix.width), height: Int(f.fmt.pix.height)),
            bytesPerLine: Int(f.fmt.pix.bytesperline), sizeImage: Int(f.fmt.pix.sizeimage))
    }

    /// Asks for a frame rate; returns the rate the driver reports afterwards (nil if it says none).
    func setFrameRate(_ interval: FrameInterval) -> Double? {
        var p = v4l2_streamparm()
        p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        if tryIoctl(pricecam_VIDIOC_G_PARM, &p) == 0, p.parm.capture.capability & pricecam_V4L2_CAP_TIMEPERFRAME != 0 {
            p.parm.capture.timeperframe.numerator = interval.numerator
            p.parm.capture.timeperframe.denominator = interval.denominator
            _ = tryIoctl(pricecam_VIDIOC_S_PARM, &p)
        }
        var q = v4l2_streamparm()
        q.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        guard tryIoctl(pricecam_VIDIOC_G_PARM, &q) == 0 else { return nil }
        let t = q.parm.capture.timeperframe
        guard t.numerator > 0, t.denominator > 0 else { return nil }
        return Double(t.denominator) / Double(t.numerator)
    }
}
