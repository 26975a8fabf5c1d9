import Foundation
import Geometry
@testable import OCR
import Testing

/// A turned image's uncovered corners take the gray of its own edge (`GrayImage.rotated`), not
/// white: on a dim photo's gray paper, white slivers along a straightened crop's edges split
/// Tesseract's one threshold from the paper, which then binarised as ink. Truth: the fixture
/// generator's texts and boxes; the dim light is laid on the clean menus here, as
/// `scripts/perturb.py dim` lays it on a set's photos.
@Suite("Turned images keep their paper")
struct RotationFillTests {
    /// A `width` × `height` page of paper `paper` with a dark bar (`ink`) across its middle.
    static func page(width: Int = 120, height: Int = 60, paper: UInt8, ink: UInt8 = 40) -> GrayImage {
        var px = [UInt8](repeating: paper, count: width * height)
        for y in height * 2 / 5..<height * 3 / 5 {
            for x in width / 6..<width * 5 / 6 { px[y * width + x] = ink }
        }
        return GrayImage(luma: px, width: width, height: height, bytesPerRow: width)
    }

    @Test("the corners a turn uncovers take the edge's gray", arguments: [UInt8(110), 235, 30])
    func cornersTakeTheEdgeGray(paper: UInt8) throws {
        let image = Self.page(paper: paper, ink: paper > 100 ? 40 : 220)
        #expect(image.edgeLevel() == Int(paper))
        let turned = try #require(image.rotated(by: 3 * Double.pi / 180))
        #expect(turned.width == image.width && turned.height == image.height)
        let px = turned.bytes(), w = turned.width, h = turned.height
        for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
            #expect(abs(Int(px[y * w + x]) - Int(paper)) <= 2, "corner (\(x), \(y)) is \(px[y * w + x]), paper \(paper)")
        }
    }

    /// Each price of the fixture menus, the menu dimmed to 45% of its light (paper about 110),
    /// read as a region that leans 1.7° (so its crop is straightened: `RegionReader.straightened`)
    /// with the stock engine: its digits read in nearly every one.
    @Test("a dim menu's leaning prices are read after they are straightened")
    func dimLeaningPricesRead() throws {
        let engine = try OCREngine(configuration: OCRConfiguration(tessdata: try Tessdata.locate(explicit: nil), pageSegmentationMode: 7))
        var read = 0, tried = 0
        let menus = try RereadProbeTests.fixture("menus", where: { $0.hasPrefix("en_") || $0.hasPrefix("fr_") || $0.hasPrefix("de_") })
        for (image, texts, boxes) in menus {
            let dim = GrayImage(
                luma: image.bytes().map { UInt8((Double($0) * 0.45).rounded()) }, width: image.width, height: image.height,
                bytesPerRow: image.width)
            for (text, b) in zip(texts, boxes) {
                // A box a little wider than the price, as the detector's are.
                let rect = Box(x: b.x - b.height / 2, y: b.y - 2, width: b.width + b.height, height: b.height + 4)
                let region = TextRegion(rect: rect, glyphHeight: max(1, b.height * 7 / 10), glyphs: text.count, slope: 0.03)
                let digits = text.filter(\.isNumber)
                tried += 1
                if try RegionReader().read(region, in: dim, engine: engine)?.text.filter(\.isNumber).contains(digits) == true {
                    read += 1
                }
            }
        }
        #expect(tried >= 40)
        #expect(Double(read) >= 0.9 * Double(tried), "read \(read) of \(tried) dim leaning prices")
    }
}
