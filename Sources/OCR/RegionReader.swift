import Foundation
public import Geometry

/// Reads text regions one by one, each cropped and rescaled to the glyph height
/// Tesseract reads best, as a single line (psm 7).
public struct RegionReader {
    /// Glyph height (px) each region is scaled to before reading. Tesseract's LSTM
    /// normalises a line to 36 px; cap heights of 30–40 px read best (issue 12).
    public var targetGlyph = 36.0
    /// Padding around a region, as a share of its glyph height (Tesseract needs some
    /// background around a line to find it; more takes in the lines above and below).
    public var padding = 0.35
    /// Least and most scale applied to a region.
    public var scaleRange = 0.25...6.0
    /// A crop whose paper is uneven (`unevenPaper`: a shadow's edge across a tag, a second
    /// paper tone) has its background evened out before Tesseract reads it. Tesseract
    /// binarises a crop with one threshold (Otsu), which puts a shadowed half's paper with the
    /// ink: tags-jp-dev's `shadow` copy read 0.755 of its prices (clean 0.980).
    public var flattenShadows = true
    /// A crop whose edges spread over more than this share of its glyph height, at the scale
    /// it is read at (`GrayImage.edgeWidth`), is unsharp masked before Tesseract reads it, as a
    /// blurred page read whole is (`Preprocess.sharpening`); 0: never. Blur that scales with the
    /// picture scales with its print, so the share, not a pixel count, tells a crop Tesseract
    /// cannot read from one it can. Measured on the first readings (glyphs 36 px tall,
    /// docs/benchmarks/2026-12-06-blurred-crops.md): sharp sets' crops spread 0.04–0.15 of the
    /// glyph (sroie-dev's 97th percentile 5.5 px), small print enlarged 3× up to 0.17, the
    /// fixture family `blur`'s crops 0.18 (Tesseract reads them; sharpened, a `-0.50` read
    /// `-6.50`), the blurred copies of sroie-dev and receipts-de 0.22–0.24 at the median.
    public var blurredEdgeShare = 0.2

    public init() {}

    /// The crop of `region` (padded, clipped to the image) that is read.
    public func crop(_ region: TextRegion, in image: GrayImage) -> Box {
        Self.crop(region.rect, padded: max(2, Int((Double(region.glyphHeight) * padding).rounded())), in: image)
    }

    /// `rect` grown by `pad` px on every side, clipped to `image`.
    static func crop(_ rect: Box, padded pad: Int, in image: GrayImage) -> Box {
        let x0 = max(0, rect.x - pad), y0 = max(0, rect.y - pad)
        let x1 = min(image.width, rect.x + rect.width + pad), y1 = min(image.height, rect.y + rect.height + pad)
        return Box(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// Reads one region with `engine`; its words in `image` pixels, nil when nothing was read.
    public func read(_ region: TextRegion, in image: GrayImage, engine: OCREngine, pageSegmentationMode psm: Int = 7) throws(OCRError)
        -> TextLine?
    {
        guard let (box, cut, top, s) = scaledCrop(region, in: image) else { return nil }
        var piece = cut
        if region.lightOnDark, let inv = piece.inverted() { piece = inv }
        if flattenShadows, Self.unevenPaper(piece),
            let flat = piece.lineBackgroundNormalized(glyph: Int((Double(region.glyphHeight) * s).rounded()))
        {
            OCRLog.write("  crop's paper evened out")
            piece = flat
        }
        if let sharp = sharpened(piece, glyph: Double(region.glyphHeight) * s) { piece = sharp }
        // A region judged light on dark may be a blurred dark one (its halo on the rim): Tesseract
        // reads it again the other way when unsure (`OCRConfiguration.invertsUnsureLines`).
        let page = try engine.recognize(piece, pageSegmentationMode: psm, invertingUnsureLines: region.lightOnDark ? true : nil)
        OCRLog.write("  read \(piece.width)x\(piece.height) psm \(psm) \(String(format: "%.1f", page.milliseconds)) ms")
        let factor = Double(box.width) / Double(piece.width)
        let line = TextLine(words: page.lines.flatMap(\.words)).mappingBoxes { b in
            let r = b.scaled(by: factor)
            return Box(x: box.x + r.x, y: box.y + top + r.y, width: r.width, height: r.height)
        }
        return line.words.isEmpty ? nil : line
    }

    /// The crop of `region` as it is read: cut from `image` (`box`), a leaning line turned level
    /// (`straightened`, its band's `top` in the crop) and scaled by `scale` to `targetGlyph`;
    /// nil when the crop is empty.
    func scaledCrop(_ region: TextRegion, in image: GrayImage) -> (box: Box, piece: GrayImage, top: Int, scale: Double)? {
        let box = crop(region, in: image)
        guard box.width > 2, box.height > 2, var piece = image.cropped(box) else { return nil }
        // Turned before scaling: turned after, the tilted receipts read worse (sroie-dev tilt
        // totals 0.952 -> 0.905), though small print kept a few more decimal commas.
        var top = 0
        if let level = straightened(piece, region: region) { (piece, top) = level }
        let s = min(max(targetGlyph / Double(max(region.glyphHeight, 1)), scaleRange.lowerBound), scaleRange.upperBound)
        if abs(s - 1) > 0.05, let scaled = piece.scaled(by: s) { piece = scaled }
        return (box, piece, top, s)
    }

    /// How far the edges of `region`'s crop spread as it is read (`scaledCrop`), as a share of
    /// its glyph height there: the measure `sharpened` judges a crop by. Nil for an empty crop.
    func edgeShare(_ region: TextRegion, in image: GrayImage) -> Double? {
        guard let (_, piece, _, s) = scaledCrop(region, in: image) else { return nil }
        let glyph = Double(max(region.glyphHeight, 1)) * s
        return piece.edgeWidth() / glyph
    }

    /// `piece` unsharp masked when its edges spread over `blurredEdgeShare` of its `glyph`
    /// height (px at the read scale); nil when they do not (or sharpening is off).
    func sharpened(_ piece: GrayImage, glyph: Double) -> GrayImage? {
        guard blurredEdgeShare > 0, glyph > 0 else { return nil }
        let edge = piece.edgeWidth()
        guard let halfwidth = Preprocess.sharpening(edgeWidth: edge, blurredEdge: blurredEdgeShare * glyph),
            let sharp = piece.unsharpened(halfwidth: halfwidth, amount: Preprocess.sharpenAmount)
        else { return nil }
        OCRLog.write("  crop's edges spread \(String(format: "%.1f", edge)) px of a \(Int(glyph)) px glyph: sharpened")
        return sharp
    }

    /// Whether the paper of a line's crop varies by more than `Preprocess.shadowThreshold`
    /// (`ImageMeasurements.shadow`: its darkest tiles' paper against its brightest'), over
    /// square tiles half the crop's height: each holds some of the padding above or below the
    /// line, so its 90th percentile is paper, not ink.
    static func unevenPaper(_ piece: GrayImage) -> Bool {
        let side = max(2, piece.height / 2)
        let columns = min(64, max(1, piece.width / side)), rows = min(8, max(1, piece.height / side))
        let m = ImageMeasurements(tiles: piece.tileHistograms(columns: columns, rows: rows, step: 1))
        return m.shadow > Preprocess.shadowThreshold
    }

    /// Least lean of a region's line that is straightened before reading: tan 1°, the least
    /// skew a page's deskew corrects (a psm-7 line read by Tesseract tolerates about that).
    static let straightenSlope = tan(Double.pi / 180)

    /// The crop of a leaning line (`region.slope`) turned level about its centre, and cut to the
    /// band of its own line (its thickness and the padding) so the neighbouring lines that an
    /// upright crop of a leaning line takes in are left out, with the band's top in the crop;
    /// nil when the line is level enough. Word boxes map back as if the band were upright (off
    /// by at most the lean over a word).
    func straightened(_ piece: GrayImage, region: TextRegion) -> (image: GrayImage, top: Int)? {
        guard abs(region.slope) >= Self.straightenSlope, let level = piece.rotated(by: atan(region.slope)) else { return nil }
        let band = Int((region.thickness + 2 * Double(region.glyphHeight) * padding).rounded(.up)) + 2
        let top = (level.height - band) / 2
        guard band > 2, top > 0, let cut = level.cropped(Box(x: 0, y: top, width: level.width, height: band)) else { return (level, 0) }
        return (cut, top)
    }
}
