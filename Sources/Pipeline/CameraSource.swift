public import Capture
public import OCR

/// Where a live run's frames come from (`pricecam live`, the web app's camera tab).
public enum CameraSource: Sendable, Equatable {
    /// No camera (the web app's tab says how to start one).
    case none
    /// A V4L2 device, e.g. /dev/video0, asked for `width`×`height` at `fps`, in `fourcc` when
    /// given (else the cheapest format to read luma from), with `buffers` driver buffers.
    case device(path: String, width: Int, height: Int, fps: Double, fourcc: String? = nil, buffers: Int = 4)
    /// A folder of images replayed as frames at `fps`.
    case replay(directory: String, fps: Double, loop: Bool)

    /// The device path or replay folder; nil for `.none`.
    public var name: String? {
        switch self {
        case .none: nil
        case .device(let path, _, _, _, _, _): path
        case .replay(let directory, _, _): directory
        }
    }

    /// Opens the source: the one place a device or a folder becomes frames. `keepColour`:
    /// frames keep their colour for display (the web app); nil for `.none`.
    public func open(limits: ImageLimits, keepColour: Bool = false) throws(CaptureError) -> (any FrameSource)? {
        switch self {
        case .none:
            return nil
        case .device(let path, let width, let height, let fps, let fourcc, let buffers):
            return try V4L2Capture(
                path: path,
                request: FormatRequest(size: FrameSize(width: width, height: height), fps: fps, fourcc: fourcc.map { FourCC($0) }),
                bufferCount: buffers, keepColour: keepColour)
        case .replay(let directory, let fps, let loop):
            return try ReplaySource.images(directory: directory, fps: fps, loop: loop, limits: limits, keepColour: keepColour)
        }
    }
}
