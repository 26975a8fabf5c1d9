import Geometry
import OCR
import Testing

@Suite("annotated JPEG (serve's frames)")
struct AnnotatedJPEGTests {
    static func white(width: Int, height: Int) -> GrayImage {
        GrayImage(luma: [UInt8](repeating: 255, count: width * height), width: width, height: height, bytesPerRow: width)
    }

    @Test func boxesAreDrawnWhereTheyAre() throws {
        let image = Self.white(width: 320, height: 240)
        let box = Geometry.Box(x: 40, y: 60, width: 120, height: 50)
        let jpeg = try #require(image.annotatedJPEG([(box, "4.88 EUR")]))
        #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8])
        let back = try GrayImage.decode(bytes: jpeg, name: "annotated.jpg")
        #expect(back.width == 320 && back.height == 240)
        let pixels = back.bytes()
        func at(_ x: Int, _ y: Int) -> Int { Int(pixels[y * 320 + x]) }
        // On the box's left and bottom edges the line is dark; inside and far away the page stays white.
        #expect(at(41, 85) < 200)
        #expect(at(100, 109) < 200)
        #expect(at(100, 85) > 230)
        #expect(at(300, 220) > 230)
    }

    @Test func noMarksIsThePlainImage() throws {
        let image = Self.white(width: 64, height: 48)
        let jpeg = try #require(image.annotatedJPEG([]))
        let back = try GrayImage.decode(bytes: jpeg, name: "plain.jpg")
        #expect(back.bytes().allSatisfy { $0 > 240 })
    }
}
