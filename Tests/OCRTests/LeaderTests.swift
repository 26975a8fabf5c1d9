import Foundation
import Geometry
@testable import OCR
import Testing

/// A line's dot leader or rule is painted over before the line is read again
/// (`SecondPass.withoutLeaders`); its text and price are left as they are.
@Suite("Leaders painted over before a re-read")
struct LeaderTests {
    static let (width, height, paper, ink): (Int, Int, UInt8, UInt8) = (400, 40, 240, 20)

    /// A 400 × 40 page: `bars` (glyph-like strokes 20 px tall) and `dots` (3 × 3 px squares)
    /// in ink on paper.
    func page(bars: [Box], dots: [Box]) -> GrayImage {
        var px = [UInt8](repeating: Self.paper, count: Self.width * Self.height)
        for b in bars + dots {
            for y in b.y..<(b.y + b.height) { for x in b.x..<(b.x + b.width) { px[y * Self.width + x] = Self.ink } }
        }
        return GrayImage(luma: px, width: Self.width, height: Self.height, bytesPerRow: Self.width)
    }

    /// Strokes 4 px wide and 20 px tall every 8 px across `x0..<x1`: a word's glyphs.
    func glyphs(_ x0: Int, _ x1: Int) -> [Box] {
        stride(from: x0, to: x1 - 3, by: 8).map { Box(x: $0, y: 10, width: 4, height: 20) }
    }

    /// 3 × 3 px dots every 6 px across `x0..<x1` on the text's baseline: a leader.
    func leader(_ x0: Int, _ x1: Int) -> [Box] {
        stride(from: x0, to: x1 - 2, by: 6).map { Box(x: $0, y: 26, width: 3, height: 3) }
    }

    func line(_ words: [(String, Box)]) -> TextLine {
        TextLine(words: words.map { TextWord(text: $0.0, box: $0.1, confidence: 0.3) })
    }

    let whole = Box(x: 0, y: 0, width: 400, height: 40)

    @Test func aDotLeaderIsPaintedOverAndTheDishAndPriceAreKept() throws {
        let image = page(bars: glyphs(10, 70) + glyphs(320, 350), dots: leader(80, 300))
        let read = line([
            ("Soup", Box(x: 10, y: 10, width: 60, height: 20)), ("....cceee", Box(x: 80, y: 26, width: 220, height: 3)),
            ("12", Box(x: 320, y: 10, width: 30, height: 20)),
        ])
        let painted = try #require(SecondPass.withoutLeaders(read, in: whole, image: image))
        let px = painted.bytes()
        #expect((painted.width, painted.height) == (Self.width, Self.height))
        for d in leader(80, 300) { #expect(px[(d.y + 1) * Self.width + d.x + 1] == Self.paper, "a leader's dot at \(d)") }
        for b in glyphs(10, 70) + glyphs(320, 350) {
            #expect(px[(b.y + 10) * Self.width + b.x + 1] == Self.ink, "a glyph's stroke at \(b)")
        }
    }

    @Test func aShortFlatWordIsNoLeader() {
        // A minus before a price is as flat as a leader, and short.
        let image = page(bars: glyphs(10, 70) + glyphs(320, 350), dots: [Box(x: 300, y: 19, width: 12, height: 3)])
        let read = line([
            ("Refund", Box(x: 10, y: 10, width: 60, height: 20)), ("-", Box(x: 300, y: 19, width: 12, height: 3)),
            ("12", Box(x: 320, y: 10, width: 30, height: 20)),
        ])
        #expect(SecondPass.withoutLeaders(read, in: whole, image: image) == nil)
    }

    @Test func aFlatBoxAroundGlyphsIsNoLeader() {
        // Tesseract's box drawn too small around real text: the ink across the line is a glyph's.
        let image = page(bars: glyphs(10, 70) + glyphs(80, 300) + glyphs(320, 350), dots: [])
        let read = line([
            ("Soup", Box(x: 10, y: 10, width: 60, height: 20)), ("eee", Box(x: 80, y: 26, width: 220, height: 3)),
            ("12", Box(x: 320, y: 10, width: 30, height: 20)),
        ])
        #expect(SecondPass.withoutLeaders(read, in: whole, image: image) == nil)
    }
}
