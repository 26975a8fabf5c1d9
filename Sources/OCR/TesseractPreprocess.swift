import CTesseract
import CTextDetection
import Foundation
public import Geometry
// `Geometry.Box`, spelt out: Leptonica's C headers (CTesseract) declare a `struct Box` too.

/// Leptonica image operations behind `Preprocess`. Each returns a new image
/// with its own Pix; the receiver is left untouched.
extension GrayImage {
    private func derived(_ made: UnsafeMutablePointer<PIX>?, dpi: Int? = nil) -> GrayImage? {
        guard let made else { return nil }
        if pricecam_pixDepth(made) != 8 {
            let eight = pixConvertTo8(made, 0)
            pricecam_pixDestroy(made)
            guard let eight else { return nil }
            return GrayImage(owning: eight, dpi: dpi ?? self.dpi)
        }
        return GrayImage(owning: made, dpi: dpi ?? self.dpi)
    }

    /// Leptonica background normalisation (morphological, `pixBackgroundNormMorph`): evens out shadows and uneven light.
    public func backgroundNormalized() -> GrayImage? {
        derived(pricecam_backgroundNorm(pix))
    }

    /// Background normalised as a line of `glyph` px glyphs is (`pricecam_backgroundNormGlyph`):
    /// its paper brought to one level across a shadow's edge or a second paper tone.
    public func lineBackgroundNormalized(glyph: Int) -> GrayImage? {
        derived(pricecam_backgroundNormGlyph(pix, Int32(glyph)))
    }

    /// The spread of its edges in px (`pc_edge_width`): 1–2.6 on sharp scans and photos,
    /// 3.6 and more blurred; 0 without contrast. The measure the detector's input is sharpened
    /// by (`InputSharpening`).
    public func edgeWidth() -> Double {
        let gray = bytes()
        return Double(gray.withUnsafeBufferPointer { pc_edge_width($0.baseAddress, Int32(width), Int32(height), width) })
    }

    /// Unsharp masked: `amount` of its difference from a box blur `halfwidth` px wide added back.
    public func unsharpened(halfwidth: Int, amount: Double) -> GrayImage? {
        derived(pricecam_unsharp(pix, Int32(halfwidth), Float(amount)))
    }

    /// The image enlarged (or shrunk) by `factor`; its resolution scales with it.
    public func scaled(by factor: Double) -> GrayImage? {
        derived(pricecam_scale(pix, Float(factor)), dpi: dpi > 0 ? Int(Double(dpi) * factor) : 0)
    }

    /// A copy of `rect` (clipped to the image).
    public func cropped(_ rect: Geometry.Box) -> GrayImage? {
        derived(pricecam_crop(pix, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height)))
    }

    /// Linear contrast stretch of gray levels `low...high` to the full range.
    public func stretched(low: Int, high: Int) -> GrayImage? {
        derived(pricecam_stretch(pix, Int32(low), Int32(high)))
    }

    /// Rotated upright when Leptonica (`pixFindSkew`, binarised at `threshold`) finds a confident skew
    /// of at least `minAngle` degrees; `angle` is what it applied (0 = none, the image is then a copy).
    public func deskewed(threshold: Int, minAngle: Double) -> (image: GrayImage, angle: Double, confidence: Double)? {
        var angle: Float = 0, confidence: Float = 0
        guard let image = derived(pricecam_deskew(pix, Int32(threshold), Float(minAngle), &angle, &confidence)) else { return nil }
        return (image, Double(angle), Double(confidence))
    }

    /// Turned by `radians` about its centre, counterclockwise for a positive angle (as a line
    /// leaning down to the right by `atan(slope)` is levelled by `rotated(by: atan(slope))`),
    /// same size, the corners it uncovers filled with the gray of its own edge (`edgeLevel`:
    /// the paper around a line or a page, or the ground of light text). Filled with white, a
    /// dim photo's crop (paper at 110) got white slivers along its edges that Tesseract's one
    /// threshold (Otsu) split from the paper, which then binarised as ink: a dim menu's
    /// straightened `1,070` read `10 |` at 0.90.
    public func rotated(by radians: Double) -> GrayImage? {
        // Leptonica turns clockwise for a positive angle.
        derived(pixRotateAMGray(pix, Float(-radians), UInt8(edgeLevel())))
    }

    /// Rotated by `radians` as `rotated(by:)` turns, on a canvas grown so that none of it is
    /// cut off (its own gray edge level around it), and the margin added on each side before
    /// turning: the turned picture's `Levelling`.
    public func rotatedWhole(by radians: Double) -> (image: GrayImage, levelling: Levelling)? {
        let c = abs(cos(radians)), s = abs(sin(radians))
        let padX = max(0, Int(((Double(width) * c + Double(height) * s - Double(width)) / 2).rounded(.up)))
        let padY = max(0, Int(((Double(width) * s + Double(height) * c - Double(height)) / 2).rounded(.up)))
        let level = UInt32(edgeLevel())
        guard let grown = pixAddBorderGeneral(pix, Int32(padX), Int32(padX), Int32(padY), Int32(padY), level) else { return nil }
        defer { pricecam_pixDestroy(grown) }
        guard let turned = derived(pixRotateAMGray(grown, Float(-radians), UInt8(level))) else { return nil }
        return (turned, Levelling(radians: radians, padX: padX, padY: padY, width: turned.width, height: turned.height))
    }

    /// Turned clockwise by `quarters` quarter turns (1: 90°, 2: 180°, 3: 90° counterclockwise),
    /// exactly, pixel for pixel (Leptonica's `pixRotateOrth`): a quarter turn swaps width and
    /// height.
    public func quarterTurned(_ quarters: Int) -> GrayImage? {
        let q = ((quarters % 4) + 4) % 4
        return q == 0 ? derived(pixCopy(nil, pix)) : derived(pixRotateOrth(pix, Int32(q)))
    }

    /// The median gray of its outermost rows and columns.
    func edgeLevel() -> Int {
        guard width > 0, height > 0 else { return 255 }
        let gray = bytes()
        var counts = [Int](repeating: 0, count: 256)
        for x in 0..<width {
            counts[Int(gray[x])] += 1
            counts[Int(gray[(height - 1) * width + x])] += 1
        }
        for y in 0..<height {
            counts[Int(gray[y * width])] += 1
            counts[Int(gray[y * width + width - 1])] += 1
        }
        let half = (2 * (width + height) + 1) / 2
        var seen = 0
        for (level, n) in counts.enumerated() {
            seen += n
            if seen >= half { return level }
        }
        return 255
    }

    /// Gray-level histograms of a `columns` × `rows` grid of tiles, sampling every `step`-th pixel.
    public func tileHistograms(columns: Int, rows: Int, step: Int) -> [[UInt32]] {
        var flat = [UInt32](repeating: 0, count: columns * rows * 256)
        flat.withUnsafeMutableBufferPointer { buf in
            pricecam_tileHistograms(pix, Int32(columns), Int32(rows), Int32(step), buf.baseAddress)
        }
        return (0..<(columns * rows)).map { Array(flat[($0 * 256)..<(($0 + 1) * 256)]) }
    }

    /// Median height of glyph-like connected components (pixels of this image) and how many
    /// there were; height 0 when fewer than 8. Binarised at `threshold`, on a 2× reduced copy when large.
    public func glyphHeight(threshold: Int = 128) -> (height: Int, count: Int) {
        var count: Int32 = 0
        let reduce: Int32 = width * height > 1_200_000 ? 2 : 1
        let h = pricecam_textHeight(pix, Int32(threshold), reduce, &count)
        return (Int(h), Int(count))
    }
}

extension GrayImage {
    /// The negative (light text on a dark ground becomes dark on light, as Tesseract reads best).
    public func inverted() -> GrayImage? {
        derived(pixInvert(nil, pix))
    }
}
