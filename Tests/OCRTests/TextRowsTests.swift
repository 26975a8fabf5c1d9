import Foundation
import Geometry
@testable import OCR
import Testing

/// Region readings grouped into rows by the detector's boxes (`TextRows`), and the test that
/// sends a page in perspective to be read by its boxes (`PageReader.linesAreLevel`). Boxes are
/// laid out here by hand, each row's words named after it, so a row that took a word of
/// another shows in its text.
@Suite("Text rows")
struct TextRowsTests {
    /// A region centred on (`cx`, `cy`), `width` long and `thickness` across, leaning by `slope`,
    /// read as `text` (one word spanning the box).
    static func item(_ text: String, cx: Double, cy: Double, width: Double, thickness: Double = 30, slope: Double = 0) -> TextRows.Item {
        // The upright bounds of the leaning box.
        let halfW = width / 2, halfT = thickness / 2
        let angle = atan(slope)
        let bw = abs(halfW * cos(angle)) + abs(halfT * sin(angle)), bh = abs(halfW * sin(angle)) + abs(halfT * cos(angle))
        let rect = Box(
            x: Int((cx - bw).rounded()), y: Int((cy - bh).rounded()), width: Int((2 * bw).rounded()), height: Int((2 * bh).rounded()))
        let region = TextRegion(
            rect: rect, glyphHeight: Int(thickness * 0.7), glyphs: max(1, Int(width / thickness)), slope: slope, thickness: thickness)
        return TextRows.Item(region: region, line: TextLine(words: [TextWord(text: text, box: rect, confidence: 0.9)]))
    }

    @Test("a level receipt: each label joins the amount across the column gap, rows top to bottom")
    func level() {
        var items: [TextRows.Item] = []
        for (n, y) in [100.0, 140, 180, 220].enumerated() {
            items.append(Self.item("label\(n)", cx: 150, cy: y, width: 200))
            items.append(Self.item("amount\(n)", cx: 700, cy: y, width: 80))
        }
        let rows = TextRows.rows(items.reversed())
        #expect(rows.map(\.text) == ["label0 amount0", "label1 amount1", "label2 amount2", "label3 amount3"])
    }

    @Test("a page in perspective: a row is followed along its own slope, not its neighbour's level")
    func leaning() {
        // Rows 40 px apart leaning down by 0.1: across the 550 px gap a row's amount stands 55 px
        // lower than its label, nearer the next row's label than its own.
        var items: [TextRows.Item] = []
        for (n, y) in [100.0, 140, 180].enumerated() {
            items.append(Self.item("label\(n)", cx: 150, cy: y, width: 200, slope: 0.1))
            items.append(Self.item("amount\(n)", cx: 700, cy: y + 0.1 * 550, width: 80, slope: 0.1))
        }
        #expect(TextRows.rows(items).map(\.text) == ["label0 amount0", "label1 amount1", "label2 amount2"])
        // Read level, the same boxes would pair each amount with the label below it.
        let level = items.map { i -> TextRows.Item in
            var i = i
            i.region.slope = 0
            return i
        }
        #expect(TextRows.rows(level).map(\.text) != ["label0 amount0", "label1 amount1", "label2 amount2"])
    }

    @Test("a short word follows the direction of the nearest long line, not its own noisy one")
    func shortWords() {
        // A short label whose box leans the wrong way (0.2 against the page's 0.1): its own
        // direction would send it to the row below.
        let items = [
            Self.item("label0", cx: 60, cy: 100, width: 60, slope: -0.2),
            Self.item("amount0", cx: 700, cy: 100 + 0.1 * 640, width: 80, slope: 0.1),
            Self.item("long0", cx: 350, cy: 100 + 0.1 * 290, width: 300, slope: 0.1),
            Self.item("label1", cx: 60, cy: 150, width: 60, slope: 0.3),
            Self.item("amount1", cx: 700, cy: 150 + 0.1 * 640, width: 80, slope: 0.1),
        ]
        let rows = TextRows.rows(items)
        #expect(rows.contains { $0.text == "label0 long0 amount0" })
        #expect(rows.contains { $0.text == "label1 amount1" })
        #expect(TextRows.directions(items.map(\.region)) == [0.1, 0.1, 0.1, 0.1, 0.1])
    }

    @Test("fine print under a big price, and two detections of one word, stay apart")
    func apart() {
        // A tag's 60 px price and its 15 px fine print beside it on the same centre line.
        let tag = [
            Self.item("198", cx: 100, cy: 100, width: 150, thickness: 60), Self.item("fine", cx: 260, cy: 100, width: 80, thickness: 15),
        ]
        #expect(TextRows.rows(tag).count == 2)
        // A double-height total beside its keyword joins (2×).
        let total = [
            Self.item("TOTAL", cx: 100, cy: 100, width: 150, thickness: 30), Self.item("9.99", cx: 500, cy: 100, width: 150, thickness: 60),
        ]
        #expect(TextRows.rows(total).map(\.text) == ["TOTAL 9.99"])
        // A box mostly over the row's last box is another reading of it, not the next word.
        let twice = [Self.item("a", cx: 100, cy: 100, width: 200), Self.item("b", cx: 120, cy: 100, width: 200)]
        #expect(TextRows.rows(twice).count == 2)
    }

    @Test("a row's pieces of one text are joined for reading; words across a gap, other rows and light text are not")
    func pieces() throws {
        // A double-width total split by the detector: `SUMME` far left, `27` and `,42` touching
        // (receipts-de marktkauf_08042020: 598–700 and 680–780 px, glyphs 36 and 25 px).
        let label = Self.item("SUMME", cx: 150, cy: 1785, width: 210, thickness: 60).region
        var left = Self.item("27", cx: 649, cy: 1784, width: 102, thickness: 57).region
        var right = Self.item(",42", cx: 730, cy: 1786, width: 100, thickness: 57).region
        (left.glyphHeight, left.glyphs, right.glyphHeight, right.glyphs) = (36, 4, 25, 5)
        let below = Self.item("BAR", cx: 700, cy: 1880, width: 110, thickness: 48).region
        let out = TextRows.joiningPieces([right, below, label, left])
        #expect(out.count == 3, "\(out.map(\.rect))")
        let joined = try #require(out.first { $0.rect.x == left.rect.x })
        #expect(joined.rect == left.rect.union(right.rect))
        #expect(joined.glyphs == 9 && joined.glyphHeight == 36)
        // Its band spans both pieces (their centres 2 px apart across the row).
        #expect(joined.thickness >= 57 && joined.thickness <= 57 + 2 * 2 + 1)
        #expect(out.contains { $0.rect == label.rect } && out.contains { $0.rect == below.rect })
        // A gap of more than half a glyph between two boxes of a row: two texts (a label and
        // its amount across a column gap, words the network set apart).
        let apart = Self.item("0,99", cx: 649 + 102 + 18 + 50, cy: 1784, width: 100, thickness: 57).region
        #expect(TextRows.joiningPieces([left, apart]).count == 2)
        // A light-on-dark box beside dark text is another print, read with its own polarity.
        var inverse = right
        inverse.lightOnDark = true
        #expect(TextRows.joiningPieces([left, inverse]).count == 2)
    }

    @Test("the detector's rotated box gives its text direction; a vertical or square box none")
    func slope() {
        func box(_ pts: [(Double, Double)]) -> RotatedTextBox { RotatedTextBox(corners: pts.map { Point(x: $0.0, y: $0.1) }, score: 1) }
        #expect(abs(box([(0, 0), (100, 10), (97, 40), (-3, 30)]).slope - 0.1) < 1e-9)
        #expect(box([(0, 0), (100, 0), (100, 30), (0, 30)]).slope == 0)
        // Taller than long: a vertical line of text, no direction to follow along a row.
        #expect(box([(0, 0), (20, 1), (18, 200), (-2, 199)]).slope == 0)
    }

    @Test("a page is level unless its long lines lean apart by more than tan 3°")
    func levelPages() {
        func page(_ slopes: [Double]) -> [TextRegion] {
            slopes.enumerated().map { n, s in Self.item("l\(n)", cx: 300, cy: 50 + 40 * Double(n), width: 400, slope: s).region }
        }
        // A flat scan: every line within a hair of level.
        #expect(PageReader.linesAreLevel(page((0..<20).map { Double($0 % 3) * 0.005 })))
        // Skewed as a whole (deskew's job, not the layout's): all lines lean alike.
        #expect(PageReader.linesAreLevel(page(Array(repeating: 0.08, count: 20))))
        // A keystone: the top lines lean down, the bottom ones up.
        #expect(!PageReader.linesAreLevel(page((0..<20).map { 0.1 - 0.01 * Double($0) })))
        // Too few long lines to tell: level.
        #expect(PageReader.linesAreLevel(page([0.2, -0.2, 0.1])))
        #expect(!PageReader.linesAreLevel(page([0.2, -0.2, 0.1]), unmeasured: false))
        // Within half the spread only when closer.
        #expect(!PageReader.linesAreLevel(page((0..<20).map { Double($0 % 2) * 0.04 }), within: PageReader.levelSpread / 2))
    }

    @Test("the slope a page's lines share: their median when they run together, none otherwise")
    func commonSlope() throws {
        func page(_ slopes: [Double]) -> [TextRegion] {
            slopes.enumerated().map { n, s in Self.item("l\(n)", cx: 300, cy: 50 + 40 * Double(n), width: 400, slope: s).region }
        }
        let s = try #require(PageReader.commonSlope(page((0..<20).map { 0.08 + Double($0 % 3) * 0.004 })))
        #expect(abs(s - 0.084) < 0.0041)
        #expect(PageReader.commonSlope(page((0..<20).map { 0.1 - 0.01 * Double($0) })) == nil)  // a keystone
        #expect(PageReader.commonSlope(page([0.08, 0.08, 0.08])) == nil)  // too few to tell
    }
}

/// A leaning line is turned level before it is read (`RegionReader.straightened`, on
/// Leptonica's rotation): a drawn bar leaning by 0.1 comes out level and cut to its own band.
@Suite("Straightened lines")
struct StraightenedLineTests {
    /// A white image with a dark bar 8 px thick through its centre, leaning by `slope`.
    static func bar(width: Int = 400, height: Int = 120, slope: Double) -> GrayImage {
        var pixels = [UInt8](repeating: 255, count: width * height)
        let cx = Double(width) / 2, cy = Double(height) / 2
        for y in 0..<height {
            for x in 40..<(width - 40) {
                let line = cy + slope * (Double(x) - cx)
                if abs(Double(y) - line) <= 4 { pixels[y * width + x] = 0 }
            }
        }
        return GrayImage(luma: pixels, width: width, height: height, bytesPerRow: width)
    }

    /// Rows holding dark pixels.
    static func inkRows(_ image: GrayImage) -> Int {
        let p = image.bytes()
        return (0..<image.height).filter { y in (0..<image.width).contains { p[y * image.width + $0] < 128 } }.count
    }

    @Test("a bar leaning down to the right by 0.1 is level after rotated(by: atan(0.1)), not after the opposite turn")
    func direction() throws {
        let leaning = Self.bar(slope: 0.1)
        #expect(Self.inkRows(leaning) > 30)  // 320 px × 0.1 + 8
        let level = try #require(leaning.rotated(by: atan(0.1)))
        #expect(level.width == leaning.width && level.height == leaning.height)
        #expect(Self.inkRows(level) <= 12)
        let worse = try #require(leaning.rotated(by: -atan(0.1)))
        #expect(Self.inkRows(worse) > Self.inkRows(leaning))
    }

    @Test("a leaning region is straightened and cut to its band; a level one is left alone")
    func band() throws {
        let reader = RegionReader()
        let image = Self.bar(slope: 0.1)
        let region = TextRegion(rect: Box(x: 0, y: 0, width: 400, height: 120), glyphHeight: 8, glyphs: 1, slope: 0.1, thickness: 12)
        let (cut, top) = try #require(reader.straightened(image, region: region))
        // thickness 12 + 2 × 0.35 × 8 padding + 2, centred
        #expect(cut.height == 20 && top == 50)
        #expect(Self.inkRows(cut) >= 8 && Self.inkRows(cut) <= 12)
        let flat = TextRegion(rect: region.rect, glyphHeight: 8, glyphs: 1, slope: 0.01, thickness: 12)
        #expect(reader.straightened(image, region: flat) == nil)
    }
}
