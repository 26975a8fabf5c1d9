import Foundation
import Geometry
@testable import OCR
import Testing

/// A region's crop blurred beyond what Tesseract reads is unsharp masked first
/// (`RegionReader.blurredEdgeShare`). Truth: the fixture generator's texts and boxes; the blur
/// is laid on its clean frames here, in proportion to each price's height, as a camera out of
/// focus blurs print by its size in the picture.
@Suite("Blurred region crops")
struct CropBlurTests {
    /// `image` blurred by a Gaussian of `sigma` px (separable, 3σ each side, edges repeated).
    static func blurred(_ image: GrayImage, sigma: Double) -> GrayImage {
        let r = max(1, Int((3 * sigma).rounded(.up)))
        var kernel = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = kernel.reduce(0, +)
        kernel = kernel.map { $0 / sum }
        let w = image.width, h = image.height
        let src = image.bytes().map(Double.init)
        var across = [Double](repeating: 0, count: w * h), out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var v = 0.0
                for k in -r...r { v += kernel[k + r] * src[y * w + min(w - 1, max(0, x + k))] }
                across[y * w + x] = v
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                var v = 0.0
                for k in -r...r { v += kernel[k + r] * across[min(h - 1, max(0, y + k)) * w + x] }
                out[y * w + x] = UInt8(max(0, min(255, v.rounded())))
            }
        }
        return GrayImage(luma: out, width: w, height: h, bytesPerRow: w)
    }

    /// A line's crop: paper 220 with dark strokes (30) 36 px tall, 4 px wide, 8 px apart.
    static func strokes(width: Int = 160, height: Int = 60) -> GrayImage {
        var px = [UInt8](repeating: 220, count: width * height)
        for y in 12..<48 {
            for x in 0..<width where (x / 4) % 3 == 1 { px[y * width + x] = 30 }
        }
        return GrayImage(luma: px, width: width, height: height, bytesPerRow: width)
    }

    @Test("a sharp crop is read as it is; one blurred by a fifth of its glyph or more is sharpened")
    func whichCropsAreSharpened() throws {
        let reader = RegionReader()
        let sharp = Self.strokes()
        #expect(reader.sharpened(sharp, glyph: 36) == nil)
        // Blurred as the dev sets' blurred copies are at the median (σ about a seventh of the
        // glyph): its edges spread past a fifth of the glyph.
        let soft = Self.blurred(sharp, sigma: 5)
        let spread = soft.edgeWidth()
        #expect(spread > reader.blurredEdgeShare * 36, "edges spread \(spread) px")
        let mended = try #require(reader.sharpened(soft, glyph: 36))
        #expect(mended.edgeWidth() < spread, "sharpened: \(mended.edgeWidth()) px against \(spread)")
        // The same crop as print three times taller: its edges spread under a fifth of it.
        #expect(reader.sharpened(soft, glyph: 108) == nil)
        // Off.
        var off = reader
        off.blurredEdgeShare = 0
        #expect(off.sharpened(soft, glyph: 36) == nil)
    }

    /// Each price of the first clean fixture frames, blurred by a Gaussian of a sixth of its
    /// box's height (its glyphs' edges spread over about a fifth of their height), read as a
    /// region with the stock engine, sharpened and as cropped.
    @Test("prices blurred past a fifth of their height are read more often sharpened")
    func blurredPricesRead() throws {
        var off = RegionReader()
        off.blurredEdgeShare = 0
        let (with, without, tried) = try RereadProbeTests.pricesRead(with: RegionReader(), without: off) { image, b in
            // The price's surroundings, blurred: a window twice its height around it.
            let m = b.height * 2
            let x0 = max(0, b.x - m), y0 = max(0, b.y - m)
            let window = Box(
                x: x0, y: y0, width: min(image.width, b.x + b.width + m) - x0, height: min(image.height, b.y + b.height + m) - y0)
            let crop = try #require(image.cropped(window))
            return (Self.blurred(crop, sigma: Double(b.height) / 6), Box(x: b.x - x0, y: b.y - y0, width: b.width, height: b.height))
        }
        #expect(tried >= 12)
        #expect(with > without, "read \(with) of \(tried) blurred prices sharpened, \(without) as cropped")
    }
}
