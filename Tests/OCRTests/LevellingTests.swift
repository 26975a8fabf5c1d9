import Foundation
import Geometry
@testable import OCR
import Testing

/// A picture rotated level on a grown canvas (`GrayImage.rotatedWhole`) keeps all of it, and a
/// box read on the levelled picture maps back onto the one given (`RecognizedPage.unturned`
/// through its `levelling`).
@Suite("Levelling a leaning page")
struct LevellingTests {
    /// A white `width` × `height` picture with black `blocks` (x, y, side).
    static func picture(width: Int, height: Int, blocks: [(Int, Int, Int)]) -> GrayImage {
        var pixels = [UInt8](repeating: 255, count: width * height)
        for (bx, by, side) in blocks {
            for y in by..<(by + side) { for x in bx..<(bx + side) { pixels[y * width + x] = 0 } }
        }
        return GrayImage(luma: pixels, width: width, height: height, bytesPerRow: width)
    }

    /// The upright box around the dark pixels of `image` within `area`.
    static func ink(_ image: GrayImage, in area: Box) -> Box? {
        let g = image.bytes()
        var (x0, y0, x1, y1) = (Int.max, Int.max, -1, -1)
        for y in max(0, area.y)..<min(image.height, area.y + area.height) {
            for x in max(0, area.x)..<min(image.width, area.x + area.width) where g[y * image.width + x] < 128 {
                (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
            }
        }
        return x1 < 0 ? nil : Box(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    @Test(
        "every corner block survives the turn, and each block's box on the levelled picture maps back onto it",
        arguments: [10.0, -15.0, 30.0])
    func blocksMapBack(degrees: Double) throws {
        let (w, h) = (300, 420)
        let blocks = [(0, 0, 16), (284, 0, 16), (0, 404, 16), (284, 404, 16), (140, 200, 16)]
        let image = Self.picture(width: w, height: h, blocks: blocks)
        let (level, levelling) = try #require(image.rotatedWhole(by: degrees * .pi / 180))
        #expect(level.width > w && level.height > h)
        var page = RecognizedPage(width: w, height: h, lines: [], milliseconds: 0)
        page.levelling = levelling
        for (bx, by, side) in blocks {
            // Where the block went: the forward turn of its centre (Leptonica turns clockwise by
            // -radians about the grown canvas's centre), then its ink around there.
            let a = -degrees * .pi / 180
            let (cx, cy) = (Double(level.width) / 2, Double(level.height) / 2)
            let dx = Double(bx + levelling.padX) + Double(side) / 2 - cx, dy = Double(by + levelling.padY) + Double(side) / 2 - cy
            let (px, py) = (cx + dx * cos(a) - dy * sin(a), cy + dx * sin(a) + dy * cos(a))
            let found = try #require(
                Self.ink(level, in: Box(x: Int(px) - 2 * side, y: Int(py) - 2 * side, width: 4 * side, height: 4 * side)),
                "block at \(bx),\(by) lost turning \(degrees)°")
            let back = page.unturned(found)
            // The box around the turned block's corners holds the block, and little more.
            #expect(
                back.x <= bx + 2 && back.y <= by + 2 && back.x + back.width >= bx + side - 2 && back.y + back.height >= by + side - 2,
                "turned \(degrees)°: \(found) maps to \(back), drawn at \(bx),\(by) side \(side)")
            #expect(back.width <= 2 * side && back.height <= 2 * side, "turned \(degrees)°: \(back) is too large")
        }
    }
}
