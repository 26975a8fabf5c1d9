import Foundation
import Geometry
@testable import OCR
import Testing

/// A picture turned by quarter turns (`GrayImage.quarterTurned`), and a box read on the turned
/// picture mapped back onto the one given (`RecognizedPage.unturned`).
@Suite("Quarter turns")
struct QuarterTurnTests {
    @Test(
        "a quarter turn moves the top left block where a turn clockwise puts it, and its box maps back",
        arguments: [
            // quarter turns clockwise, where the 10 × 10 block at the top left of the 40 × 20 picture stands then
            (0, 0, 0), (1, 10, 0), (2, 30, 10), (3, 0, 30),
        ])
    func turned(quarters: Int, x: Int, y: Int) throws {
        let image = ExifOrientationTests.marked()
        let turned = try #require(image.quarterTurned(quarters))
        let sideways = quarters % 2 == 1
        #expect(turned.width == (sideways ? 20 : 40) && turned.height == (sideways ? 40 : 20))
        #expect(ExifOrientationTests.mean(turned, x: x, y: y) < 60, "the block is at \(x), \(y)")
        var page = RecognizedPage(width: turned.width, height: turned.height, lines: [], milliseconds: 0)
        page.quarterTurns = quarters
        #expect(page.unturned(Box(x: x, y: y, width: 10, height: 10)) == Box(x: 0, y: 0, width: 10, height: 10))
        // A box that is not square keeps its sides: long across the turned picture, long down the given one.
        let strip = Box(x: 0, y: 0, width: turned.width, height: 5)
        let back = page.unturned(strip)
        #expect(sideways ? (back.width == 5 && back.height == turned.width) : back.width == turned.width)
        #expect(back.x >= 0 && back.y >= 0 && back.x + back.width <= image.width && back.y + back.height <= image.height, "\(back)")
    }
}
