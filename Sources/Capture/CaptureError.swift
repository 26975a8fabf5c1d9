import Foundation

/// Why a frame source could not start or stopped early. Every case names the
/// device or folder and says what a person can do about it.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    case noSuchDevice(path: String)
    case permissionDenied(path: String)
    case busy(path: String)
    /// The node exists but is not a V4L2 video capture device (`what` says what it is).
    case notCaptureDevice(path: String, what: String)
    case noStreaming(path: String)
    /// None of the device's formats can be read (luma plane or MJPEG); lists what it offers.
    case unsupportedFormat(path: String, offered: [String])
    /// The device went away mid-stream (unplugged, driver unbound): `ENODEV`/`EIO`.
    case disconnected(path: String, errno: Int32)
    /// A V4L2 call failed for another reason.
    case ioctlFailed(path: String, operation: String, errno: Int32)
    /// No frame arrived for too long while streaming.
    case stalled(path: String, seconds: Double)
    /// A replay folder holds no readable image.
    case emptyReplay(directory: String, reason: String)

    public var description: String {
        switch self {
        case .noSuchDevice(let p):
            return "cannot open \(p): no such device (is the camera plugged in? `pricecam devices` lists the cameras found)"
        case .permissionDenied(let p):
            return
                "cannot open \(p): permission denied (add yourself to the 'video' group: sudo usermod -aG video $USER, then log in again)"
        case .busy(let p):
            return "cannot open \(p): device is busy (another program is using the camera)"
        case .notCaptureDevice(let p, let what):
            return "cannot use \(p): not a video capture device (\(what)); `pricecam devices` lists the capture devices"
        case .noStreaming(let p):
            return "cannot use \(p): the driver does not support streaming I/O"
        case .unsupportedFormat(let p, let offered):
            return
                "cannot use \(p): unsupported format; it offers \(offered.isEmpty ? "no formats" : offered.joined(separator: ", ")), pricecam reads GREY, YUYV/UYVY/YVYU/VYUY, NV12/NV21/NV16/NV61/NV24/NV42, YU12/YV12/422P and MJPEG"
        case .disconnected(let p, let e):
            return "\(p) disappeared while streaming (\(Errno.name(e))); the camera was unplugged or its driver unloaded"
        case .ioctlFailed(let p, let op, let e):
            return "\(p): \(op) failed: \(Errno.name(e))"
        case .stalled(let p, let s):
            return "\(p): no frame for \(String(format: "%.1f", s)) s; stopping (check the camera's connection and power)"
        case .emptyReplay(let d, let reason):
            return "cannot replay \(d): \(reason)"
        }
    }
}

/// `errno` as text.
public enum Errno {
    public static func name(_ code: Int32) -> String {
        String(cString: strerror(code)) + " (errno \(code))"
    }
}
