import Geometry
import Foundation
@testable import OCR
import Testing

@Suite("OCR engine")
struct OCREngineTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures").path

    static func tempDir() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pricecam-ocr-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static func anyCleanImage() throws -> String {
        let dir = "\(fixtures)/clean"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: dir).sorted().first { $0.hasSuffix(".png") })
        return "\(dir)/\(name)"
    }

    @Test("reads words with boxes and confidences from a file, reusing one engine")
    func readsFile() throws {
        let engine = try OCREngine(configuration: OCRConfiguration(tessdata: try Tessdata.locate(explicit: nil)))
        let image = try GrayImage.load(path: try Self.anyCleanImage())
        let first = try engine.recognize(image)
        let second = try engine.recognize(image)
        #expect(!first.lines.isEmpty)
        #expect(first.lines.map(\.text) == second.lines.map(\.text))
        for word in first.lines.flatMap(\.words) {
            let box = try #require(word.box)
            #expect(box.width > 0 && box.height > 0)
            #expect(box.x >= 0 && box.x + box.width <= image.width)
            #expect((0...1).contains(word.confidence))
        }
    }

    @Test("a Frame's luma plane reads like the file it came from")
    func readsFrame() throws {
        let engine = try OCREngine(configuration: OCRConfiguration(tessdata: try Tessdata.locate(explicit: nil)))
        let image = try GrayImage.load(path: try Self.anyCleanImage())
        // Pad rows to exercise bytesPerRow != width.
        let raw = image.bytes()
        var padded: [UInt8] = []
        for y in 0..<image.height {
            padded += raw[(y * image.width)..<((y + 1) * image.width)]
            padded += [UInt8](repeating: 0xFF, count: 7)
        }
        let fromFrame = try engine.recognize(
            GrayImage(luma: padded, width: image.width, height: image.height, bytesPerRow: image.width + 7, isFrame: true))
        let fromFile = try engine.recognize(image)
        #expect(fromFrame.lines.map(\.text) == fromFile.lines.map(\.text))
    }

    @Test("tessdata: an explicit folder without eng.traineddata is an error naming it")
    func tessdataMissing() throws {
        let dir = try Self.tempDir()
        #expect {
            try Tessdata.locate(explicit: dir)
        } throws: { error in
            "\(error)".contains(dir) && "\(error)".contains("eng.traineddata")
        }
        #expect(throws: Tessdata.NotFound.self) {
            try Tessdata.locate(explicit: nil, environment: ["PRICECAM_TESSDATA": dir])
        }
    }

    @Test("tessdata: PRICECAM_TESSDATA wins over the system folder")
    func tessdataEnv() throws {
        let system = try Tessdata.locate(explicit: nil, environment: [:])
        let dir = try Self.tempDir()
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/eng.traineddata", withDestinationPath: "\(system)/eng.traineddata")
        #expect(try Tessdata.locate(explicit: nil, environment: ["PRICECAM_TESSDATA": dir]) == dir)
        #expect(try Tessdata.locate(explicit: dir, environment: [:]) == dir)
    }
}

@Suite("Image loading errors")
struct ImageLoadingTests {
    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let path = "\(try OCREngineTests.tempDir())/\(name)"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    @Test func zeroBytes() throws {
        let path = try Self.write([], name: "empty.png")
        #expect(throws: ImageError.empty(path: path)) { try GrayImage.load(path: path) }
    }

    @Test func textNamedPNG() throws {
        let path = try Self.write(Array("just some text, not an image\n".utf8), name: "notes.png")
        #expect { try GrayImage.load(path: path) } throws: { ($0 as? ImageError)?.code == "unreadable_image" }
    }

    @Test func truncatedJPEG() throws {
        let full = try OCREngineTests.tempDir() + "/full.jpg"
        // A real JPEG made by Leptonica's writer via the tesseract-independent path: take a fixture JPEG if any.
        let source = try #require(
            FileManager.default.enumerator(atPath: OCREngineTests.fixtures)?.allObjects
                .compactMap { $0 as? String }.first { $0.hasSuffix(".jpg") })
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(OCREngineTests.fixtures)/\(source)"))
        _ = try GrayImage.load(path: "\(OCREngineTests.fixtures)/\(source)")  // the whole file reads
        #expect(FileManager.default.createFile(atPath: full, contents: data.prefix(data.count / 2)))
        #expect { try GrayImage.load(path: full) } throws: {
            ($0 as? ImageError)?.code == "unreadable_image" && "\($0)".contains("truncated")
        }
    }

    @Test func pixelLimit() throws {
        let path = try OCREngineTests.anyCleanImage()
        let limits = ImageLimits(maxPixels: 1000, maxFileBytes: ImageLimits.default.maxFileBytes)
        #expect { try GrayImage.load(path: path, limits: limits) } throws: { ($0 as? ImageError)?.code == "image_too_large" }
    }

    @Test(
        "a JPEG over the pixel limit decodes at the least of ½, ¼, ⅛ that fits (sides rounded up, as libjpeg does); other formats, and JPEGs with too little data for their size, do not"
    )
    func reducedDecoding() {
        #expect(GrayImage.reduction(width: 100, height: 100, jpeg: true, bytes: 1 << 20, limit: 10_000) == 1)
        #expect(GrayImage.reduction(width: 100, height: 100, jpeg: false, bytes: 1 << 20, limit: 10_000) == 1)
        #expect(GrayImage.reduction(width: 200, height: 200, jpeg: true, bytes: 1 << 20, limit: 10_000) == 2)
        #expect(GrayImage.reduction(width: 201, height: 200, jpeg: true, bytes: 1 << 20, limit: 10_000) == 4)  // 101 × 100 is over
        #expect(GrayImage.reduction(width: 800, height: 800, jpeg: true, bytes: 1 << 20, limit: 10_000) == 8)
        #expect(GrayImage.reduction(width: 801, height: 800, jpeg: true, bytes: 1 << 20, limit: 10_000) == nil)
        #expect(GrayImage.reduction(width: 200, height: 200, jpeg: false, bytes: 1 << 20, limit: 10_000) == nil)
        // 200 × 200 is 625 blocks: at least 79 bytes of data; a header over less is forged.
        #expect(GrayImage.reduction(width: 200, height: 200, jpeg: true, bytes: 79, limit: 10_000) == 2)
        #expect(GrayImage.reduction(width: 200, height: 200, jpeg: true, bytes: 78, limit: 10_000) == nil)
    }

    @Test func missingPath() throws {
        #expect(throws: ImageError.notFound(path: "/nonexistent/x.png")) { try GrayImage.load(path: "/nonexistent/x.png") }
    }

    @Test func symlinkLoop() throws {
        let dir = try OCREngineTests.tempDir()
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/a.png", withDestinationPath: "\(dir)/b.png")
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/b.png", withDestinationPath: "\(dir)/a.png")
        #expect(throws: ImageError.symlinkLoop(path: "\(dir)/a.png")) { try GrayImage.load(path: "\(dir)/a.png") }
    }

    @Test func directory() throws {
        let dir = try OCREngineTests.tempDir()
        #expect(throws: ImageError.isDirectory(path: dir)) { try GrayImage.load(path: dir) }
    }
}
