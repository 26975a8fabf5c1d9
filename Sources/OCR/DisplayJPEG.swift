import CTesseract
import Foundation

/// JPEGs for display (the web app's camera frames): colour as the source had
/// it, nothing drawn on them (the page draws boxes and labels over the image).
public enum DisplayJPEG {
    /// Interleaved 8-bit RGB (`width × height × 3` bytes) as a JPEG.
    public static func rgb(_ rgb: [UInt8], width: Int, height: Int, quality: Int = 80) -> [UInt8]? {
        guard width > 0, height > 0, rgb.count >= width * height * 3 else { return nil }
        let pix = rgb.withUnsafeBufferPointer { pricecam_pixFromRGB($0.baseAddress, Int32(width), Int32(height)) }
        guard let pix else { return nil }
        defer { pricecam_pixDestroy(pix) }
        return encode(pix, quality: quality)
    }

    /// An image file in colour as a JPEG (a replayed file, encoded once when the
    /// folder is loaded); nil when it cannot be read.
    public static func colour(path: String, quality: Int = 80) -> [UInt8]? {
        Leptonica.silence()
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return nil }
        let bytes = [UInt8](data)
        guard var pix = bytes.withUnsafeBufferPointer({ pricecam_pixReadColour($0.baseAddress, $0.count) }) else { return nil }
        // Upright as the gray image read for its prices is (`ExifOrientation`), so boxes fall on it.
        if let o = bytes.withUnsafeBufferPointer({ ExifOrientation.of(jpeg: $0) }),
            let turned = ExifOrientation.upright(pix, orientation: o)
        {
            pricecam_pixDestroy(pix)
            pix = turned
        }
        defer { pricecam_pixDestroy(pix) }
        return encode(pix, quality: quality)
    }

    static func encode(_ pix: UnsafeMutablePointer<PIX>, quality: Int) -> [UInt8]? {
        var size = 0
        guard let data = pricecam_jpeg(pix, Int32(quality), &size) else { return nil }
        defer { free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}

/// The process's heap as malloc counts it. The executable keeps up to 1 GB of freed heap for
/// the next image (process_memory.c), so resident memory stays at its high-water mark after a
/// big image: a leak shows here, not there.
public enum ProcessHeap {
    /// Bytes allocated and not freed; freed memory the allocator keeps for reuse is not counted.
    public static func bytesInUse() -> Int { Int(pricecam_heapInUse()) }
}
