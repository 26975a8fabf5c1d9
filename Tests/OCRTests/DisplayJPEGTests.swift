import Foundation
import OCR
import Testing
import TestSupport

@Suite("display JPEG (serve's frames)")
struct DisplayJPEGTests {
    /// Left half pure red, right half pure blue.
    static func halves(width: Int, height: Int) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width { rgb[(y * width + x) * 3 + (x < width / 2 ? 0 : 2)] = 255 }
        }
        return rgb
    }

    @Test func colourComesThroughAndNothingIsDrawnOnIt() throws {
        let jpeg = try #require(DisplayJPEG.rgb(Self.halves(width: 64, height: 32), width: 64, height: 32))
        #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8])
        let back = try GrayImage.decode(bytes: jpeg, name: "display.jpg")
        #expect(back.width == 64 && back.height == 32)
        let pixels = back.bytes()
        // Luma of pure red is 0.299 × 255 ≈ 76, of pure blue 0.114 × 255 ≈ 29 (BT.601): a gray
        // encoding would have lost the difference only if the channels were dropped.
        let red = pixels[16 * 64 + 10], blue = pixels[16 * 64 + 54]
        #expect(abs(Int(red) - 76) <= 8, "red read as luma \(red)")
        #expect(abs(Int(blue) - 29) <= 8, "blue read as luma \(blue)")
        // Every row is the same: no box or label is burned in.
        for y in 0..<32 { #expect(abs(Int(pixels[y * 64 + 10]) - Int(red)) <= 6) }
    }

    @Test func aColourFileIsEncodedInColour() throws {
        let path = try Scratch.folder("pricecam-colour") + "/colour.jpg"
        let made = try #require(DisplayJPEG.rgb(Self.halves(width: 40, height: 20), width: 40, height: 20, quality: 95))
        try Data(made).write(to: URL(fileURLWithPath: path))
        let again = try #require(DisplayJPEG.colour(path: path))
        let back = try GrayImage.decode(bytes: again, name: "again.jpg").bytes()
        #expect(abs(Int(back[10 * 40 + 5]) - 76) <= 10)
        #expect(abs(Int(back[10 * 40 + 35]) - 29) <= 10)
        #expect(DisplayJPEG.colour(path: "/nonexistent/file.png") == nil)
    }

    @Test func aGrayImageEncodesAsItIs() throws {
        let image = GrayImage(luma: [UInt8](repeating: 200, count: 48 * 32), width: 48, height: 32, bytesPerRow: 48)
        let back = try GrayImage.decode(bytes: try #require(image.jpeg()), name: "gray.jpg")
        #expect(back.bytes().allSatisfy { abs(Int($0) - 200) <= 3 })
    }
}
