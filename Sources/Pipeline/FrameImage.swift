import Capture
import OCR

extension GrayImage {
    /// A copy of a camera or replay frame's luma plane, for the OCR stage (which knows images,
    /// not frames: Pipeline is where capture and OCR meet).
    public convenience init(frame: Frame) {
        self.init(luma: frame.pixels, width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow, isFrame: true)
    }
}
