public import Capture
public import OCR

extension GrayImage {
    /// A copy of a camera or replay frame's luma plane, for the OCR stage (which knows images,
    /// not frames: Pipeline is where capture and OCR meet).
    public convenience init(frame: Frame) {
        self.init(luma: frame.pixels, width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow, isFrame: true)
    }
}

extension Frame {
    /// The frame as a JPEG for display: in colour when its source kept colour, else its luma.
    public func displayJPEG(quality: Int = 80) -> [UInt8]? {
        switch colour {
        case .jpeg(let bytes): return bytes
        case .raw:
            if let rgb = colour?.rgb(width: width, height: height) {
                return DisplayJPEG.rgb(rgb, width: width, height: height, quality: quality)
            }
        case nil: break
        }
        return GrayImage(frame: self).jpeg(quality: quality)
    }
}

extension ReplaySource {
    /// A folder of image files replayed as frames (`live --source`, `serve --replay`);
    /// `keepColour`: each file also encoded once as a colour JPEG, for display (the web app).
    public static func images(
        directory: String, fps: Double, loop: Bool, limits: ImageLimits, keepColour: Bool = false
    ) throws(CaptureError) -> ReplaySource {
        try ReplaySource(directory: directory, fps: fps, loop: loop, extensions: GrayImage.fileExtensions) { path in
            let image = try GrayImage.load(path: path, limits: limits)
            let colour = keepColour ? DisplayJPEG.colour(path: path).map(FrameColour.jpeg) : nil
            return Frame(width: image.width, height: image.height, bytesPerRow: image.width, pixels: image.bytes(), colour: colour)
        }
    }
}
