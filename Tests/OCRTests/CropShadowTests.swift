import Foundation
import Geometry
@testable import OCR
import Testing

/// A shadow's sharp edge across a region: its crop's paper is evened out before Tesseract
/// reads it (`RegionReader.flattenShadows`). Truth: the fixture generator's texts and boxes;
/// the shadow is laid on its clean frames here, as `scripts/perturb.py shadow` lays one on a
/// set's photos.
@Suite("Shadows across a region's crop")
struct CropShadowTests {
    /// A line's crop, `width` × `height`, paper 220 with dark strokes (30) in its middle band;
    /// `shade(x)`: the light at column x (1 lit, 0.4 a shadow).
    static func crop(width: Int = 120, height: Int = 60, shade: (Int) -> Double = { _ in 1 }) -> GrayImage {
        var px = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let stroke = y >= height / 4 && y < height * 3 / 4 && (x / 6) % 3 == 1
                px[y * width + x] = UInt8((Double(stroke ? 30 : 220) * shade(x)).rounded())
            }
        }
        return GrayImage(luma: px, width: width, height: height, bytesPerRow: width)
    }

    @Test("a crop's paper is uneven under a shadow's edge, not under even light or dimmed whole")
    func unevenPaper() {
        #expect(!RegionReader.unevenPaper(Self.crop()))
        #expect(!RegionReader.unevenPaper(Self.crop(shade: { _ in 0.4 })))
        #expect(RegionReader.unevenPaper(Self.crop(shade: { $0 < 60 ? 1 : 0.4 })))
        // A soft edge (a gradient across the crop from full light to 0.5).
        #expect(RegionReader.unevenPaper(Self.crop(shade: { 1 - 0.5 * Double($0) / 119 })))
    }

    @Test("a crop normalised as a line keeps its strokes dark and brings both papers to one level")
    func normalisedCrop() throws {
        let shaded = Self.crop(shade: { $0 < 60 ? 1 : 0.4 })
        let flat = try #require(shaded.lineBackgroundNormalized(glyph: 30))
        let px = flat.bytes()
        let w = flat.width
        // Paper on the lit side (x 3, above the strokes) and in the shadow (x 100): within 20 levels.
        let lit = Int(px[5 * w + 3]), dark = Int(px[5 * w + 100])
        #expect(abs(lit - dark) <= 20, "paper \(lit) lit, \(dark) shaded")
        // A stroke in the shadow (x 99 lies in a stroke column: (99 / 6) % 3 == 1) is well under its paper.
        #expect(Int(px[30 * w + 99]) + 100 < dark, "stroke \(px[30 * w + 99]) against paper \(dark)")
    }

    /// Each price of the first clean fixture frames, its right half in a shadow (light 0.4, a
    /// sharp edge down the middle of the price), read as a region with the stock engine: read
    /// with the crop's paper evened out, and mostly lost without.
    @Test("prices split by a shadow's edge are read when the crop is evened out")
    func shadowedPricesRead() throws {
        var flat = RegionReader(), off = RegionReader()
        flat.flattenShadows = true
        off.flattenShadows = false
        let (with, without, tried) = try RereadProbeTests.pricesRead(with: flat, without: off) { image, b in
            let edge = b.x + b.width / 2
            var px = image.bytes()
            for y in max(0, b.y - b.height)..<min(image.height, b.y + 2 * b.height) {
                for x in edge..<min(image.width, b.x + b.width + b.height) {
                    px[y * image.width + x] = UInt8((Double(px[y * image.width + x]) * 0.4).rounded())
                }
            }
            return (GrayImage(luma: px, width: image.width, height: image.height, bytesPerRow: image.width), b)
        }
        #expect(tried >= 12)
        #expect(Double(with) >= 0.9 * Double(tried), "read \(with) of \(tried) shadowed prices evened out")
        #expect(without < with, "read \(without) of \(tried) as cropped, \(with) evened out")
    }
}
