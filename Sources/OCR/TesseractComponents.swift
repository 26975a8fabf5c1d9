import CTesseract
import Geometry
// `Geometry.Box`, spelt out: Leptonica's C headers (CTesseract) declare a `struct Box` too.

/// A 1 bpp mask of an image's ink (Leptonica `Pix`), which this object owns.
///
/// Not `Sendable`: made and used by one worker within one region search.
final class InkMask {
    private let pix: UnsafeMutablePointer<PIX>
    let lightOnDark: Bool

    /// The ink of `image`, for dark text on light ground (`darkText`) or light text on dark
    /// ground. The background is a gray closing (or opening) with a `closeSize` brick; ink
    /// is what differs from it by more than Otsu's threshold of that difference (at least
    /// `minInk` gray levels). Nil when Leptonica fails (out of memory).
    init?(_ image: GrayImage, darkText: Bool, closeSize: Int, minInk: Int) {
        guard let mask = pricecam_inkMask(image.pix, darkText ? 1 : 0, Int32(closeSize), Int32(minInk)) else { return nil }
        pix = mask
        lightOnDark = !darkText
    }

    /// Removes the thin horizontal rules (see `pricecam_removeRules`).
    func removeRules(length: Int, thickness: Int) {
        _ = pricecam_removeRules(pix, Int32(length), Int32(thickness))
    }

    deinit {
        pricecam_pixDestroy(pix)
    }

    /// The connected components after an opening of size `open` (1: none), which keeps only
    /// strokes at least that thick; empty when Leptonica fails.
    func components(opening open: Int) -> [InkComponent] {
        var n: Int32 = 0
        guard let raw = pricecam_components(pix, Int32(open), &n) else { return [] }
        defer { free(raw) }
        return (0..<Int(n)).map { i in
            InkComponent(
                rect: Geometry.Box(x: Int(raw[5 * i]), y: Int(raw[5 * i + 1]), width: Int(raw[5 * i + 2]), height: Int(raw[5 * i + 3])),
                ink: Int(raw[5 * i + 4]), lightOnDark: lightOnDark)
        }
    }

    /// Ink pixels inside `rect` (clipped to the mask).
    func ink(in rect: Geometry.Box) -> Int {
        Int(pricecam_countInRect(pix, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height)))
    }
}
