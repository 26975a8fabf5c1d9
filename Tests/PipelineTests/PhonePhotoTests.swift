import CTesseract
import Foundation
import Geometry
@testable import OCR
import Pipeline
import PriceParsing
import Testing
import TestSupport

/// A phone stores a portrait photo on its side with an Exif orientation; a receipt saved so
/// is read as it was held, its prices where the generator drew them.
@Suite("Phone photos")
struct PhonePhotoTests {
    /// An APP1 Exif block whose TIFF block (Intel order) holds one tag: orientation (274) 6.
    static let orientation6: [UInt8] =
        [0xFF, 0xE1, 0x00, 0x22, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
        + [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00]
        + [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00]
        + [0x00, 0x00, 0x00, 0x00]

    /// The clean fixture receipt_0001, its total and the box the generator drew it in (from the
    /// generator's gt.json).
    static func receipt() throws -> (image: GrayImage, total: Decimal, drawn: [Int]) {
        let folder = FixtureRegressionTests.root.appendingPathComponent("Fixtures/clean")
        let gt = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("gt.json"))) as? [String: [String: Any]])
        let truth = try #require(gt["receipt_0001.png"])
        let total = try #require((truth["total"] as? String).flatMap { Decimal(string: $0) })
        let amounts = try #require(truth["amounts"] as? [String]), boxes = try #require(truth["boxes"] as? [[Int]])
        let drawn = try #require(amounts.firstIndex { Decimal(string: $0) == total }.map { boxes[$0] })
        return (try GrayImage.load(path: folder.appendingPathComponent("receipt_0001.png").path), total, drawn)
    }

    @Test("a receipt stored on its side with Exif orientation 6 reads its total at the generator's box")
    func sideways() throws {
        let (receipt, total, drawn) = try Self.receipt()

        // The upright receipt turned a quarter counterclockwise is what the sensor stored;
        // orientation 6 tells a viewer to turn it a quarter clockwise.
        let upright = receipt
        let stored = try #require(ExifOrientation.upright(upright.pix, orientation: 8).map { GrayImage(owning: $0) })
        #expect(stored.width == upright.height && stored.height == upright.width)
        let path = try Scratch.folder("pricecam-phone") + "/phone.jpg"
        let jpeg = try #require(stored.jpeg(quality: 95))
        try Data(jpeg.prefix(2) + Self.orientation6 + jpeg.dropFirst(2)).write(to: URL(fileURLWithPath: path))

        let result = try DatasetRegressionTests.extractor(currency: "GBP").extract(path: path)
        #expect(result.error == nil)
        #expect(result.width == upright.width && result.height == upright.height)
        let found = try #require(result.prices.first { $0.match.amount == total }, "\(result.prices.map(\.match.amount))")
        let box = try #require(found.match.box)
        // Within a line's height of where the generator drew it, in the upright image's pixels.
        #expect(abs(box.x + box.width - (drawn[0] + drawn[2])) <= drawn[3] && abs(box.y - drawn[1]) <= drawn[3], "\(box) vs \(drawn)")
    }

    @Test(
        "a receipt photographed sideways, no orientation in the file, is turned and read, its total at the generator's box on the picture as given",
        arguments: [1, 3])
    func sidewaysWithoutExif(quarters: Int) throws {
        let (upright, total, drawn) = try Self.receipt()
        let stored = try #require(upright.quarterTurned(quarters))
        let path = try Scratch.folder("pricecam-sideways") + "/sideways-\(quarters).jpg"
        try Data(try #require(stored.jpeg(quality: 95))).write(to: URL(fileURLWithPath: path))

        let result = try DatasetRegressionTests.extractor(currency: "GBP").extract(path: path)
        #expect(result.error == nil)
        #expect(result.width == stored.width && result.height == stored.height)
        let found = try #require(result.prices.first { $0.match.amount == total }, "\(result.prices.map(\.match.amount))")
        let box = try #require(found.match.box)
        // The generator's box turned with the picture (a quarter clockwise: the upright top left
        // goes to the top right), within a line's height.
        let (x, y, w, h) = (drawn[0], drawn[1], drawn[2], drawn[3])
        let want =
            quarters == 1
            ? Box(x: upright.height - y - h, y: x, width: h, height: w) : Box(x: y, y: upright.width - x - w, width: h, height: w)
        #expect(
            abs(box.x - want.x) <= h && abs(box.y - want.y) <= h && abs(box.width - want.width) <= h
                && abs(box.height - want.height) <= h, "\(box) vs \(want)")

        // Not turned, its lines run up the picture and the total is not read.
        let unturned = try DatasetRegressionTests.extractor(currency: "GBP", accuracy: AccuracyOptions(switches: "no-sideways")).extract(
            path: path)
        #expect(!unturned.prices.contains { $0.match.amount == total }, "\(unturned.prices.map(\.match.amount))")
    }

    @Test(
        "a receipt photographed upside down, no orientation in the file, is turned and read, its total at the generator's box on the picture as given"
    )
    func upsideDownWithoutExif() throws {
        let (upright, total, drawn) = try Self.receipt()
        let stored = try #require(upright.quarterTurned(2))
        let path = try Scratch.folder("pricecam-upside-down") + "/upside-down.jpg"
        try Data(try #require(stored.jpeg(quality: 95))).write(to: URL(fileURLWithPath: path))

        let result = try DatasetRegressionTests.extractor(currency: "GBP").extract(path: path)
        #expect(result.error == nil)
        #expect(result.width == upright.width && result.height == upright.height)
        let found = try #require(result.prices.first { $0.match.amount == total }, "\(result.prices.map(\.match.amount))")
        let box = try #require(found.match.box)
        // The generator's box turned with the picture (a half turn: the upright top left goes to
        // the bottom right), within a line's height.
        let (x, y, w, h) = (drawn[0], drawn[1], drawn[2], drawn[3])
        let want = Box(x: upright.width - x - w, y: upright.height - y - h, width: w, height: h)
        #expect(
            abs(box.x - want.x) <= h && abs(box.y - want.y) <= h && abs(box.width - want.width) <= h
                && abs(box.height - want.height) <= h, "\(box) vs \(want)")

        // Not turned, Tesseract reads its lines as noise and the total is not read.
        let unturned = try DatasetRegressionTests.extractor(currency: "GBP", accuracy: AccuracyOptions(switches: "no-upside-down"))
            .extract(path: path)
        #expect(!unturned.prices.contains { $0.match.amount == total }, "\(unturned.prices.map(\.match.amount))")
    }

    @Test("a receipt photographed on a dark table is read alone, its total at the generator's box")
    func onATable() throws {
        let (receipt, total, drawn) = try Self.receipt()

        // The receipt in the middle of a picture 9/4 as wide and 3/2 as tall (its text under half
        // of it), on a table of 8 px grains of grey 60-80 (a fixed sequence).
        let (w, h) = (receipt.width, receipt.height)
        let (W, H) = (w * 9 / 4, h * 3 / 2), (x0, y0) = ((W - w) / 2, (H - h) / 2)
        var seed: UInt32 = 20_261_126
        var grain = [UInt8](repeating: 0, count: (W / 8 + 1) * (H / 8 + 1))
        for i in grain.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            grain[i] = UInt8(60 + Int(seed >> 24) % 21)
        }
        var px = [UInt8](repeating: 0, count: W * H)
        for y in 0..<H { for x in 0..<W { px[y * W + x] = grain[(y / 8) * (W / 8 + 1) + x / 8] } }
        let paper = receipt.bytes()
        for y in 0..<h { for x in 0..<w { px[(y0 + y) * W + x0 + x] = paper[y * w + x] } }
        let path = try Scratch.folder("pricecam-table") + "/table.jpg"
        try Data(try #require(GrayImage(luma: px, width: W, height: H, bytesPerRow: W).jpeg(quality: 95))).write(
            to: URL(fileURLWithPath: path))

        let result = try DatasetRegressionTests.extractor(currency: "GBP").extract(path: path)
        #expect(result.error == nil)
        let found = try #require(result.prices.first { $0.match.amount == total }, "\(result.prices.map(\.match.amount))")
        let box = try #require(found.match.box)
        let (right, top) = (x0 + drawn[0] + drawn[2], y0 + drawn[1])
        #expect(abs(box.x + box.width - right) <= drawn[3] && abs(box.y - top) <= drawn[3], "\(box) vs \(drawn) + \(x0), \(y0)")
    }

    @Test(
        "a file over the pixel limit is read at half size, its total boxed in the file's pixels: a phone's JPEG stored sideways, a PNG scan",
        arguments: ["jpg", "png"])
    func overThePixelLimit(format: String) throws {
        let (receipt, total, drawn) = try Self.receipt()
        // The receipt at twice its size under a limit that holds the receipt's own size but
        // not twice it: decoded at ½.
        let big = try #require(receipt.scaled(by: 2))
        let limits = ImageLimits(maxPixels: receipt.width * receipt.height, maxFileBytes: ImageLimits.default.maxFileBytes)
        let path = try Scratch.folder("pricecam-big") + "/big.\(format)"
        if format == "jpg" {
            // Stored on its side (orientation 6).
            let stored = try #require(ExifOrientation.upright(big.pix, orientation: 8).map { GrayImage(owning: $0) })
            let jpeg = try #require(stored.jpeg(quality: 95))
            try Data(jpeg.prefix(2) + Self.orientation6 + jpeg.dropFirst(2)).write(to: URL(fileURLWithPath: path))
        } else {
            var data: UnsafeMutablePointer<UInt8>?
            var size = 0
            #expect(pixWriteMemPng(&data, &size, big.pix, 0) == 0)
            defer { free(data) }
            try Data(UnsafeBufferPointer(start: try #require(data), count: size)).write(to: URL(fileURLWithPath: path))
        }

        let loaded = try GrayImage.load(path: path, limits: limits)
        #expect(loaded.decodeReduction == 2)
        #expect(loaded.width == receipt.width && loaded.height == receipt.height)
        #expect(loaded.fileSize == (big.width, big.height))

        let result = try DatasetRegressionTests.extractor(currency: "GBP", limits: limits).extract(path: path)
        #expect(result.error == nil)
        #expect(result.width == big.width && result.height == big.height)
        let found = try #require(result.prices.first { $0.match.amount == total }, "\(result.prices.map(\.match.amount))")
        let box = try #require(found.match.box)
        // Where the generator drew it, doubled: within a line's height, in the big file's pixels.
        let (right, top, line) = (2 * (drawn[0] + drawn[2]), 2 * drawn[1], 2 * drawn[3])
        #expect(abs(box.x + box.width - right) <= line && abs(box.y - top) <= line, "\(box) vs 2 × \(drawn)")
    }
}
