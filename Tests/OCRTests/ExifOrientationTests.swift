import Foundation
@testable import OCR
import Testing
import TestSupport

/// A phone's photo is read as it was held: its JPEG's Exif orientation turns the stored pixels
/// upright (`ExifOrientation`), for the gray image read and for the colour one displayed.
@Suite("Exif orientation")
struct ExifOrientationTests {
    /// `jpeg` with an APP1 Exif block recording `orientation` put right after its start marker,
    /// its TIFF block in Intel ("II") or Motorola ("MM") byte order, the orientation entry after
    /// `before` other entries.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: Int, intel: Bool = true, before: Int = 0, type: Int = 3) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { intel ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { intel ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        var tiff: [UInt8] = (intel ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8) + u16(before + 1)
        for k in 0..<before { tiff += u16(0x010F + k) + u16(2) + u32(4) + u32(0) }  // other tags (Make...)
        tiff += u16(0x0112) + u16(type) + u32(1) + u16(orientation) + u16(0)
        tiff += u32(0)
        let body: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0] + tiff
        let length = body.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body + jpeg.dropFirst(2)
    }

    static func orientation(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { ExifOrientation.of(jpeg: $0) }
    }

    /// 40 × 20 paper (230) with a dark (20) 10 × 10 block at its top left.
    static func marked() -> GrayImage {
        var px = [UInt8](repeating: 230, count: 40 * 20)
        for y in 0..<10 { for x in 0..<10 { px[y * 40 + x] = 20 } }
        return GrayImage(luma: px, width: 40, height: 20, bytesPerRow: 40)
    }

    /// Mean of the 10 × 10 block at `x`, `y` of `image`.
    static func mean(_ image: GrayImage, x: Int, y: Int) -> Int {
        let px = image.bytes()
        var sum = 0
        for r in y..<(y + 10) { for c in x..<(x + 10) { sum += Int(px[r * image.width + c]) } }
        return sum / 100
    }

    @Test("the orientation tag is read in either byte order, among other tags, and not from damaged blocks")
    func parsing() throws {
        let jpeg = try #require(Self.marked().jpeg())
        #expect(Self.orientation(jpeg) == nil, "a JPEG without Exif")
        for o in 1...8 {
            #expect(Self.orientation(Self.withOrientation(jpeg, o)) == o)
            #expect(Self.orientation(Self.withOrientation(jpeg, o, intel: false, before: 3)) == o)
        }
        #expect(Self.orientation(Self.withOrientation(jpeg, 9)) == nil, "no such orientation")
        #expect(Self.orientation(Self.withOrientation(jpeg, 6, type: 4)) == nil, "not a SHORT")
        let exif = Self.withOrientation(jpeg, 6)
        #expect(Self.orientation(Array(exif.prefix(30))) == nil, "cut inside the Exif block")
        #expect(Self.orientation([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0]) == nil, "not a JPEG")
    }

    @Test(
        "a photo is turned upright by its orientation",
        arguments: [
            // orientation, where the top-left block of the stored pixels stands once turned: the
            // same shape for 1-4 (mirrored, upside down, flipped), sides swapped for 5-8 (a
            // quarter turn clockwise puts it at the top right (6), counterclockwise at the
            // bottom left (8); transposed at the top left (5), transversed at the bottom right (7))
            (1, 0, 0), (2, 30, 0), (3, 30, 10), (4, 0, 10), (5, 0, 0), (6, 10, 0), (7, 10, 30), (8, 0, 30),
        ])
    func turned(orientation: Int, x: Int, y: Int) throws {
        let jpeg = Self.withOrientation(try #require(Self.marked().jpeg(quality: 95)), orientation)
        let image = try GrayImage.decode(bytes: jpeg, name: "photo.jpg")
        let quarter = orientation >= 5
        #expect(image.width == (quarter ? 20 : 40) && image.height == (quarter ? 40 : 20))
        #expect(Self.mean(image, x: x, y: y) < 60, "the block is at \(x), \(y)")
        let corners = [(0, 0), (image.width - 10, 0), (0, image.height - 10), (image.width - 10, image.height - 10)]
        for (cx, cy) in corners where cx != x || cy != y {
            #expect(Self.mean(image, x: cx, y: cy) > 180, "paper at \(cx), \(cy)")
        }
    }

    @Test("the colour frame shown for a photo is turned as its gray image is")
    func displayed() throws {
        let path = try Scratch.folder("pricecam-exif") + "/photo.jpg"
        try Data(Self.withOrientation(try #require(Self.marked().jpeg(quality: 95)), 6)).write(to: URL(fileURLWithPath: path))
        let shown = try GrayImage.decode(bytes: try #require(DisplayJPEG.colour(path: path)), name: "shown.jpg")
        let read = try GrayImage.load(path: path)
        #expect(shown.width == read.width && shown.height == read.height && read.width == 20)
        #expect(Self.mean(shown, x: 10, y: 0) < 60)
    }
}
