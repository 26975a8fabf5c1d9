import Capture
import OCR

extension GrayImage {
    /// A copy of a camera or replay frame's luma plane, for the OCR stage (which knows images,
    /// not frames: Pipeline is where capture and OCR meet).
    public convenience init(frame: Frame) {
        self.init(luma: frame.pixels, width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow, isFrame: true)
    }
}

extension ReplaySource {
    /// A folder of image files replayed as frames (`live --source`, `serve --replay`).
    public static func images(directory: String, fps: Double, loop: Bool, limits: ImageLimits) throws(CaptureError) -> ReplaySource {
        try ReplaySource(directory: directory, fps: fps, loop: loop, extensions: GrayImage.fileExtensions) { path in
            let image = try GrayImage.load(path: path, limits: limits)
            return Frame(width: image.width, height: image.height, bytesPerRow: image.width, pixels: image.bytes())
        }
    }
}
