import Foundation

/// Nanoseconds on `CLOCK_MONOTONIC`, the clock V4L2 stamps buffers with.
public enum Monotonic {
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

/// One 8-bit gray (luma) image, whatever its source: a camera, a file, a replay folder.
public struct Frame: Sendable {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    /// `height * bytesPerRow` bytes of luma, row by row.
    public let pixels: [UInt8]
    /// Position in its source's sequence (0, 1, 2, ...).
    public let sequence: UInt64
    /// When the frame was captured, in `CLOCK_MONOTONIC` nanoseconds.
    public let timestamp: UInt64
    /// The frame in colour, for display only (OCR reads `pixels`); nil when the
    /// source keeps no colour (the CLI's live path) or has none.
    public let colour: FrameColour?

    public init(
        width: Int, height: Int, bytesPerRow: Int, pixels: [UInt8], sequence: UInt64 = 0, timestamp: UInt64 = Monotonic.now(),
        colour: FrameColour? = nil
    ) {
        precondition(
            width > 0 && height > 0 && bytesPerRow >= width && pixels.count >= bytesPerRow * height,
            "frame buffer too small for \(width)x\(height)")
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixels = pixels
        self.sequence = sequence
        self.timestamp = timestamp
        self.colour = colour
    }
}
