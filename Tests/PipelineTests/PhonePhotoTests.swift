import Foundation
import Geometry
@testable import OCR
import Pipeline
import PriceParsing
import Testing

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

    @Test("a receipt stored on its side with Exif orientation 6 reads its total at the generator's box")
    func sideways() throws {
        let folder = FixtureRegressionTests.root.appendingPathComponent("Fixtures/clean")
        let gt = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("gt.json"))) as? [String: [String: Any]])
        let truth = try #require(gt["receipt_0001.png"])
        let total = try #require((truth["total"] as? String).flatMap { Decimal(string: $0) })
        let amounts = try #require(truth["amounts"] as? [String]), boxes = try #require(truth["boxes"] as? [[Int]])
        let drawn = try #require(amounts.firstIndex { Decimal(string: $0) == total }.map { boxes[$0] })

        // The upright receipt turned a quarter counterclockwise is what the sensor stored;
        // orientation 6 tells a viewer to turn it a quarter clockwise.
        let upright = try GrayImage.load(path: folder.appendingPathComponent("receipt_0001.png").path)
        let stored = try #require(ExifOrientation.upright(upright.pix, orientation: 8).map { GrayImage(owning: $0) })
        #expect(stored.width == upright.height && stored.height == upright.width)
        let path = NSTemporaryDirectory() + "pricecam-phone-\(UUID().uuidString).jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
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
}
