import Foundation
import Geometry
@testable import OCR
import Testing

/// A document read whole is cut out of a picture it fills at most nine tenths of
/// (`PageReader.documentArea`), and what is read on the cut maps back onto the picture.
@Suite("Document area")
struct DocumentAreaTests {
    /// A picture of a dark table (70) with a sheet of paper (230) over `paper`; all paper
    /// (a scanner's lid) without.
    static func picture(_ width: Int, _ height: Int, paper: Box? = nil) -> GrayImage {
        var px = [UInt8](repeating: paper == nil ? 230 : 70, count: width * height)
        if let p = paper {
            for y in max(0, p.y)..<min(height, p.y + p.height) {
                for x in max(0, p.x)..<min(width, p.x + p.width) { px[y * width + x] = 230 }
            }
        }
        return GrayImage(luma: px, width: width, height: height, bytesPerRow: width)
    }

    /// The sheet under `lines(count, x, y)`: their span and 100 px about it.
    static func sheet(_ count: Int, x: Int, y: Int) -> Box {
        Box(x: x - 100, y: y - 100, width: 600, height: 30 * count + 200)
    }

    /// Lines of 20 px glyphs, 30 px apart, 400 px long, from `x`, `y`.
    static func lines(_ count: Int, x: Int, y: Int) -> [TextRegion] {
        (0..<count).map { TextRegion(rect: Box(x: x, y: y + 30 * $0, width: 400, height: 26), glyphHeight: 20, glyphs: 20) }
    }

    @Test("a receipt on a table: its lines and three line heights about them")
    func onATable() throws {
        let regions = Self.lines(20, x: 1000, y: 800)
        let area = try #require(PageReader.documentArea(regions, in: Self.picture(3000, 4000, paper: Self.sheet(20, x: 1000, y: 800))))
        let m = PageReader.documentMargin * 20
        #expect(area == Box(x: 1000 - m, y: 800 - m, width: 400 + 2 * m, height: 19 * 30 + 26 + 2 * m))
    }

    @Test("the text's area is its boxes grown by the margin or a share of themselves, within the picture")
    func textArea() throws {
        let regions = Self.lines(3, x: 30, y: 900)
        let area = try #require(PageReader.textArea(regions, margin: 50, in: Self.picture(1000, 1000)))
        #expect(area == Box(x: 0, y: 850, width: 480, height: 150))
        #expect(PageReader.textArea([], margin: 50, in: Self.picture(1000, 1000)) == nil)
        // A quarter of the text's 400 × 86 rectangle on each side where that is more than 10 px.
        let grown = try #require(PageReader.textArea(Self.lines(3, x: 300, y: 400), margin: 10, share: 0.25, in: Self.picture(1000, 1000)))
        #expect(grown == Box(x: 200, y: 379, width: 600, height: 128))
    }

    @Test("a receipt on an A4 scan, the lid as light as its paper, is read as it is")
    func onALid() {
        #expect(PageReader.documentArea(Self.lines(20, x: 1000, y: 800), in: Self.picture(3000, 4000)) == nil)
        let levels = PageReader.medianLevels(
            Self.picture(3000, 4000, paper: Self.sheet(20, x: 1000, y: 800)), inside: Self.sheet(20, x: 1000, y: 800))
        #expect(levels.inside == 230 && levels.outside == 70)
    }

    @Test("a receipt half as wide as the photo and nearly as tall is cut out of its table")
    func tallOnATable() throws {
        // The lines and their margins take 520 x 776 of 800 x 1000, half the picture (a phone's
        // photo of a long receipt, receipts-de `phone` copy): the table beside it is still read
        // as lines.
        let area = try #require(
            PageReader.documentArea(Self.lines(22, x: 120, y: 110), in: Self.picture(800, 1000, paper: Self.sheet(22, x: 120, y: 110))))
        #expect(area == Box(x: 60, y: 50, width: 520, height: 21 * 30 + 26 + 120))
    }

    @Test("a scan the text fills, or a picture without boxes, is read as it is")
    func filled() {
        // The lines and their margins take 520 x 776 of 560 x 800: over nine tenths.
        #expect(
            PageReader.documentArea(Self.lines(22, x: 70, y: 70), in: Self.picture(560, 800, paper: Self.sheet(22, x: 70, y: 70)))
                == nil)
        #expect(PageReader.documentArea([], in: Self.picture(800, 1000, paper: Self.sheet(22, x: 120, y: 110))) == nil)
    }

    @Test("the margin stops at the picture's edge")
    func atTheEdge() throws {
        let area = try #require(
            PageReader.documentArea(Self.lines(5, x: 10, y: 5), in: Self.picture(3000, 4000, paper: Self.sheet(5, x: 10, y: 5))))
        #expect(area.x == 0 && area.y == 0)
        #expect(area.width == 10 + 400 + PageReader.documentMargin * 20)
    }

    @Test("boxes read on the cut land on the picture, and regions move there and back")
    func placedBack() {
        let word = TextWord(text: "23.80", box: Box(x: 5, y: 7, width: 50, height: 20), confidence: 0.9)
        let page = RecognizedPage(width: 300, height: 200, lines: [TextLine(words: [word])], milliseconds: 1)
        let back = page.placed(atX: 940, y: 740, width: 3000, height: 4000)
        #expect(back.width == 3000 && back.height == 4000)
        #expect(back.lines.first?.words.first?.box == Box(x: 945, y: 747, width: 50, height: 20))
        let region = Self.lines(1, x: 1000, y: 800)[0]
        #expect(region.moved(byX: -940, y: -740).rect == Box(x: 60, y: 60, width: 400, height: 26))
        #expect(region.moved(byX: -940, y: -740).moved(byX: 940, y: 740) == region)
    }
}
