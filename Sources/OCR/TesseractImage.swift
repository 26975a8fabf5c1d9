import CReducedPNG
import CTesseract
import Geometry
import Foundation

/// An 8-bit gray image held in a Leptonica `Pix`, which this object owns.
///
/// Not `Sendable`: a worker loads, preprocesses and recognises its own images.
public final class GrayImage {
    let pix: UnsafeMutablePointer<PIX>
    /// Resolution stored in the file (dots per inch), 0 when unknown.
    public let dpi: Int
    /// Made from a camera or replay frame (the live path), not loaded from a file.
    public private(set) var isFrame = false
    /// The file's pixels per pixel held, along each side: 1, or 2, 4 or 8 for a JPEG or PNG over
    /// the pixel limit, which is decoded at that fraction of its size (libjpeg's DCT scaling; a
    /// PNG row by row with each block of pixels averaged, `CReducedPNG`), so the full-size
    /// image is never in memory. Boxes map back to the file's pixels by it.
    public private(set) var decodeReduction = 1
    /// The file's width and height in its upright pixels (Exif orientation applied): the
    /// image's own unless `decodeReduction` is over 1.
    public var fileSize: (width: Int, height: Int) { reducedFrom ?? (width, height) }
    private var reducedFrom: (width: Int, height: Int)?

    /// File extensions read as images (case-insensitive): the formats `load` decodes.
    public static let fileExtensions: Set<String> = [
        "png", "jpg", "jpeg", "jpe", "tif", "tiff", "bmp", "pnm", "pgm", "ppm", "pbm", "webp", "gif", "jp2",
    ]

    /// Whether a file name has one of `fileExtensions`.
    public static func isImageFile(_ name: String) -> Bool {
        fileExtensions.contains((name as NSString).pathExtension.lowercased())
    }

    public var width: Int { Int(pricecam_pixWidth(pix)) }
    public var height: Int { Int(pricecam_pixHeight(pix)) }

    /// Takes ownership of an 8 bpp pix.
    init(owning pix: UnsafeMutablePointer<PIX>, dpi: Int = 0) {
        precondition(pricecam_pixDepth(pix) == 8, "GrayImage needs an 8 bpp Pix")
        self.pix = pix
        self.dpi = dpi
    }

    deinit {
        pricecam_pixDestroy(pix)
    }

    /// A copy of an 8-bit luma plane, `height` rows of `bytesPerRow` bytes (a camera or replay
    /// frame: `isFrame`, which the re-reads' live budget keys on).
    public convenience init(luma pixels: [UInt8], width: Int, height: Int, bytesPerRow: Int, isFrame: Bool = false) {
        precondition(
            width > 0 && height > 0 && bytesPerRow >= width && pixels.count >= bytesPerRow * height,
            "luma buffer too small for \(width)x\(height)")
        let made = pixels.withUnsafeBufferPointer { buf in
            pricecam_pixFromGray(buf.baseAddress, Int32(width), Int32(height), Int32(bytesPerRow))
        }
        guard let made else { fatalError("out of memory allocating a \(width)x\(height) image") }
        self.init(owning: made)
        self.isFrame = isFrame
    }

    /// The pixels, row by row, without padding.
    public func bytes() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        out.withUnsafeMutableBufferPointer { pricecam_pixCopyGray(pix, $0.baseAddress) }
        return out
    }

    /// Reads an image file (any format Leptonica reads: PNG, JPEG, TIFF, BMP,
    /// PNM, WebP, GIF when built in) and converts it to 8-bit gray.
    ///
    /// Checks, in order: the file opens and is a regular file, is not empty nor
    /// over the byte limit, its header parses and its size is within the pixel
    /// limit (before any decoding), a JPEG is not truncated; then decodes. A JPEG or PNG over
    /// the pixel limit is decoded at ½, ¼ or ⅛ of its size, the largest that fits
    /// (`decodeReduction`): a 108 or 200 MP phone photo or a 1200 dpi scan reads, and memory
    /// stays bounded by the limit. Other formats over it (and an interlaced PNG) are refused.
    public static func load(path: String, limits: ImageLimits = .default) throws(ImageError) -> GrayImage {
        Leptonica.silence()
        let data = try readFile(path: path, limit: limits.maxFileBytes)
        return try data.withUnsafeBufferPointer { decode($0, path: path, limits: limits) }.get()
    }

    /// A JPEG of the image as it is (gray), for display; nil when Leptonica cannot encode it.
    public func jpeg(quality: Int = 80) -> [UInt8]? {
        DisplayJPEG.encode(pix, quality: quality)
    }

    /// Decodes an image held in memory (an upload); `name` stands for the path
    /// in errors. The same checks as `load`, from the byte limit on.
    public static func decode(bytes: [UInt8], name: String, limits: ImageLimits = .default) throws(ImageError) -> GrayImage {
        Leptonica.silence()
        if bytes.isEmpty { throw .empty(path: name) }
        if Int64(bytes.count) > limits.maxFileBytes {
            throw .fileTooLarge(path: name, bytes: Int64(bytes.count), limit: limits.maxFileBytes)
        }
        return try bytes.withUnsafeBufferPointer { decode($0, path: name, limits: limits) }.get()
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, path: String, limits: ImageLimits) -> Result<GrayImage, ImageError> {
        Result { () throws(ImageError) -> GrayImage in
            guard let base = bytes.baseAddress else { throw .empty(path: path) }
            var format: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
            if pixReadHeaderMem(base, bytes.count, &format, &w, &h, &bps, &spp, &cmap) != 0 || w <= 0 || h <= 0 {
                throw .unreadable(
                    path: path,
                    reason: "not an image pricecam can read (unknown or damaged format; PNG, JPEG, TIFF, BMP, PNM and WebP are supported)")
            }
            let isJPEG = format == pricecam_IFF_JFIF_JPEG
            let reducible: ReducedDecoding? = isJPEG ? .jpeg : format == pricecam_IFF_PNG ? .png : nil
            guard let reduction = reduction(width: Int(w), height: Int(h), format: reducible, bytes: bytes.count, limit: limits.maxPixels)
            else {
                throw .tooManyPixels(path: path, width: Int(w), height: Int(h), limit: limits.maxPixels)
            }
            let decoded: UnsafeMutablePointer<PIX>?
            if reducible == .png, reduction > 1 {
                decoded = try reducedPNG(bytes, reduction: reduction, path: path, width: Int(w), height: Int(h), limit: limits.maxPixels)
            } else if isJPEG {
                if !jpegHasEnd(bytes) {
                    throw .unreadable(
                        path: path, reason: "truncated JPEG (the end-of-image marker is missing); the file was cut short, copy it again")
                }
                var warnings: Int32 = 0
                decoded = pixReadMemJpeg(base, bytes.count, 0, Int32(reduction), &warnings, pricecam_L_JPEG_READ_LUMINANCE)
            } else {
                decoded = pixReadMem(base, bytes.count)
            }
            guard let decoded else {
                throw .unreadable(path: path, reason: "corrupt or truncated image data (the header is fine but the pixels do not decode)")
            }
            let dpi = Int(pixGetXRes(decoded)) / reduction
            let gray: UnsafeMutablePointer<PIX>?
            if pricecam_pixDepth(decoded) == 8 && pixGetColormap(decoded) == nil {
                gray = decoded
            } else {
                gray = pixConvertTo8(decoded, 0)
                pricecam_pixDestroy(decoded)
            }
            guard let gray else {
                throw .unreadable(path: path, reason: "cannot convert the image to 8-bit gray")
            }
            let image: GrayImage
            var fullSize = (Int(w), Int(h))
            // A phone's photo as it was held (`ExifOrientation`).
            if format == pricecam_IFF_JFIF_JPEG, let o = ExifOrientation.of(jpeg: bytes), o != 1 {
                guard let turned = ExifOrientation.upright(gray, orientation: o) else {
                    pricecam_pixDestroy(gray)
                    throw .unreadable(path: path, reason: "cannot turn the photo upright (Exif orientation \(o)): out of memory")
                }
                pricecam_pixDestroy(gray)
                image = GrayImage(owning: turned, dpi: dpi)
                if o >= 5 { fullSize = (Int(h), Int(w)) }  // 5–8 turn it a quarter
            } else {
                image = GrayImage(owning: gray, dpi: dpi)
            }
            if reduction != 1 {
                image.decodeReduction = reduction
                image.reducedFrom = fullSize
            }
            return image
        }
    }

    /// 1 when a `width`×`height` image is within `limit` pixels; for a JPEG or PNG of `bytes`
    /// bytes over it, the smallest of the reductions 2, 4 and 8 whose decoded size (each side
    /// rounded up, as libjpeg does) is within it; nil when nothing fits, for other formats, and
    /// when the data cannot hold the size the header declares (`ReducedDecoding.leastBytes`).
    static func reduction(width: Int, height: Int, format: ReducedDecoding?, bytes: Int, limit: Int) -> Int? {
        if width * height <= limit { return 1 }
        guard let format, bytes >= format.leastBytes(width: width, height: height) else { return nil }
        return [2, 4, 8].first { r in ((width + r - 1) / r) * ((height + r - 1) / r) <= limit }
    }

    /// A PNG decoded by `CReducedPNG` at 1/`reduction` of its size, as an 8 bpp pix with the
    /// file's resolution. An interlaced PNG is refused as over the limit (its rows come in
    /// seven passes, so it cannot be read one row at a time).
    private static func reducedPNG(
        _ bytes: UnsafeBufferPointer<UInt8>, reduction: Int, path: String, width: Int, height: Int, limit: Int
    ) throws(ImageError) -> UnsafeMutablePointer<PIX>? {
        var pixels: UnsafeMutablePointer<UInt8>?
        var w: Int32 = 0, h: Int32 = 0, dpi: Int32 = 0
        var detail = [CChar](repeating: 0, count: 160)
        let status = pc_png_read_reduced(bytes.baseAddress, bytes.count, Int32(reduction), &pixels, &w, &h, &dpi, &detail, detail.count)
        let reason = String(decoding: detail.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch status {
        case PC_PNG_OK:
            break
        case PC_PNG_INTERLACED:
            throw .tooManyPixels(path: path, width: width, height: height, limit: limit)
        case PC_PNG_NO_MEMORY:
            throw .unreadable(path: path, reason: "out of memory decoding the PNG at 1/\(reduction) of its size")
        default:
            throw .unreadable(path: path, reason: "corrupt or truncated PNG (\(reason))")
        }
        guard let pixels else { return nil }
        defer { free(pixels) }
        let pix = pricecam_pixFromGray(pixels, w, h, w)
        if let pix {
            pixSetXRes(pix, dpi)
            pixSetYRes(pix, dpi)
        }
        return pix
    }

    /// JPEG data must end with the EOI marker (FF D9), ignoring trailing padding.
    private static func jpegHasEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = bytes.count
        while end > 0 && (bytes[end - 1] == 0 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D) { end -= 1 }
        return end >= 2 && bytes[end - 2] == 0xFF && bytes[end - 1] == 0xD9
    }

    private static func readFile(path: String, limit: Int64) throws(ImageError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw ImageError(errno: errno, path: path) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) != 0 { throw ImageError(errno: errno, path: path) }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(path: path) }
        if (st.st_mode & S_IFMT) != S_IFREG {
            throw .unreadable(path: path, reason: "not a regular file (a device, pipe or socket)")
        }
        let size = Int64(st.st_size)
        if size == 0 { throw .empty(path: path) }
        if size > limit { throw .fileTooLarge(path: path, bytes: size, limit: limit) }
        var data = [UInt8](repeating: 0, count: Int(size))
        var got = 0
        while got < data.count {
            let n = data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ImageError(errno: errno, path: path)
            }
            if n == 0 { break }
            got += n
        }
        if got == 0 { throw .empty(path: path) }
        if got < data.count { data.removeLast(data.count - got) }
        return data
    }
}

/// A format `GrayImage` decodes at a fraction of its size when it is over the pixel limit.
enum ReducedDecoding {
    case jpeg, png

    /// Fewest bytes a real file of `width` × `height` pixels holds; a file shorter than this
    /// declares a size its data cannot hold (a forged header: an image bomb of a few kilobytes
    /// declaring 65 535 × 65 535 is refused, not decoded to 67 MP of gray at ⅛).
    /// - JPEG: entropy coding spends at least one bit on each 8×8 block's DC term, baseline or
    ///   progressive, so a byte per 8 blocks.
    /// - PNG: deflate compresses at most 1032 to 1 (zlib's own bound: a match copies at most
    ///   258 bytes and costs at least two bits), of rows of at least one bit per pixel and a
    ///   filter byte.
    func leastBytes(width: Int, height: Int) -> Int {
        switch self {
        case .jpeg: return (((width + 7) / 8) * ((height + 7) / 8) + 7) / 8
        case .png: return (height * (1 + (width + 7) / 8) + 1031) / 1032
        }
    }
}

/// Process-wide Leptonica settings.
enum Leptonica {
    private static let silenced: Void = {
        // pricecam reports every failure itself, naming the file; Leptonica's
        // own "Error in pixReadMem..." lines would only duplicate them.
        _ = setMsgSeverity(pricecam_L_SEVERITY_NONE)
    }()

    static func silence() { _ = silenced }
}
