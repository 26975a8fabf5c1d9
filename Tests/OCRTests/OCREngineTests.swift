import CTesseract
import Geometry
import Foundation
@testable import OCR
import Testing
import TestSupport

@Suite("OCR engine")
struct OCREngineTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures").path

    static func tempDir() throws -> String {
        try Scratch.folder("pricecam-ocr")
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

    /// The clean fixture frames' prices (the generator's texts and boxes), each cropped with a
    /// margin and inverted: light print on dark, as a tag's white price on red is before
    /// pricecam inverts its crop.
    static func invertedPrices(count: Int) throws -> [(text: String, crop: GrayImage)] {
        struct Truth: Decodable {
            let texts: [String]
            let boxes: [[Int]]
        }
        let dir = "\(fixtures)/clean"
        let truth = try JSONDecoder().decode([String: Truth].self, from: Data(contentsOf: URL(fileURLWithPath: "\(dir)/gt.json")))
        var out: [(text: String, crop: GrayImage)] = []
        for name in truth.keys.sorted().prefix(count) {
            let image = try GrayImage.load(path: "\(dir)/\(name)")
            for (text, b) in zip(truth[name]!.texts, truth[name]!.boxes) where b.count == 4 {
                let m = b[3] / 2
                let box = Box(x: max(0, b[0] - m), y: max(0, b[1] - m), width: b[2] + 2 * m, height: b[3] + 2 * m)
                out.append((text, try #require(image.cropped(box)?.inverted())))
            }
        }
        return out
    }

    @Test("Tesseract reads an unsure line again inverted only when configured to (pricecam sets the crop's polarity itself)")
    func invertsUnsureLinesOnlyWhenAsked() throws {
        let tessdata = try Tessdata.locate(explicit: nil)
        let inverting = try OCREngine(configuration: OCRConfiguration(tessdata: tessdata, invertsUnsureLines: true))
        let plain = try OCREngine(configuration: OCRConfiguration(tessdata: tessdata))
        #expect(!plain.configuration.invertsUnsureLines, "the default reads each line once")
        let prices = try Self.invertedPrices(count: 4)
        try #require(prices.count >= 6)
        func digits(_ s: String) -> String { s.filter(\.isNumber) }
        var readInverting = 0, readPlain = 0, readAsked = 0
        for (text, crop) in prices {
            if try inverting.recognize(crop, pageSegmentationMode: 7).lines.contains(where: { digits($0.text) == digits(text) }) {
                readInverting += 1
            }
            if try plain.recognize(crop, pageSegmentationMode: 7).lines.contains(where: { digits($0.text) == digits(text) }) {
                readPlain += 1
            }
            // Asked for one reading (a region judged light on dark), the plain engine inverts it,
            // and only it: the next reading is plain again.
            let asked = try plain.recognize(crop, pageSegmentationMode: 7, invertingUnsureLines: true)
            if asked.lines.contains(where: { digits($0.text) == digits(text) }) { readAsked += 1 }
        }
        #expect(readAsked == readInverting, "asked per reading: \(readAsked), inverting engine: \(readInverting)")
        var again = 0
        for (text, crop) in prices
        where try plain.recognize(crop, pageSegmentationMode: 7).lines.contains(where: { digits($0.text) == digits(text) }) {
            again += 1
        }
        #expect(again == readPlain, "the plain engine after readings asked inverted: \(again), before: \(readPlain)")
        // Tesseract's second, inverted run reads light print; without it the same crops read
        // as the dark background they are.
        #expect(readInverting * 2 > prices.count, "inverting: \(readInverting) of \(prices.count)")
        #expect(readPlain * 2 < prices.count, "plain: \(readPlain) of \(prices.count)")
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
        "a JPEG or PNG over the pixel limit decodes at the least of ½, ¼, ⅛ that fits (sides rounded up, as libjpeg does); other formats, and files with too little data for their size, do not"
    )
    func reducedDecoding() {
        #expect(GrayImage.reduction(width: 100, height: 100, format: .jpeg, bytes: 1 << 20, limit: 10_000) == 1)
        #expect(GrayImage.reduction(width: 100, height: 100, format: nil, bytes: 1 << 20, limit: 10_000) == 1)
        #expect(GrayImage.reduction(width: 200, height: 200, format: .jpeg, bytes: 1 << 20, limit: 10_000) == 2)
        #expect(GrayImage.reduction(width: 201, height: 200, format: .jpeg, bytes: 1 << 20, limit: 10_000) == 4)  // 101 × 100 is over
        #expect(GrayImage.reduction(width: 800, height: 800, format: .jpeg, bytes: 1 << 20, limit: 10_000) == 8)
        #expect(GrayImage.reduction(width: 801, height: 800, format: .jpeg, bytes: 1 << 20, limit: 10_000) == nil)
        #expect(GrayImage.reduction(width: 201, height: 200, format: .png, bytes: 1 << 20, limit: 10_000) == 4)
        #expect(GrayImage.reduction(width: 200, height: 200, format: nil, bytes: 1 << 20, limit: 10_000) == nil)
        // 200 × 200 is 625 blocks: at least 79 bytes of data; a header over less is forged.
        #expect(GrayImage.reduction(width: 200, height: 200, format: .jpeg, bytes: 79, limit: 10_000) == 2)
        #expect(GrayImage.reduction(width: 200, height: 200, format: .jpeg, bytes: 78, limit: 10_000) == nil)
        // 200 rows of a filter byte and 25 bytes (one bit a pixel): 5 200 bytes, at most 1032
        // to 1 in deflate, so at least 6 bytes.
        #expect(GrayImage.reduction(width: 200, height: 200, format: .png, bytes: 6, limit: 10_000) == 2)
        #expect(GrayImage.reduction(width: 200, height: 200, format: .png, bytes: 5, limit: 10_000) == nil)
    }

    /// PNGs of every kind Leptonica writes (8-bit gray, RGB, a 4-bit palette, 1 bit, 16-bit
    /// gray), odd-sized, from a fixture's pixels.
    static func pngKinds() throws -> [(kind: String, png: [UInt8])] {
        let source = try GrayImage.load(path: try OCREngineTests.anyCleanImage())
        let (w, h) = (203, 131)  // odd: the last row and column of blocks are partial
        let all = source.bytes()
        var crop: [UInt8] = []
        for y in 0..<h {
            let start = (y + 40) * source.width + 30
            crop += all[start..<(start + w)]
        }
        let gray = GrayImage(luma: crop, width: w, height: h, bytesPerRow: w)
        let rgb = try #require(pixCreate(Int32(w), Int32(h), 32))
        let deep = try #require(pixCreate(Int32(w), Int32(h), 16))
        for y in 0..<h {
            for x in 0..<w {
                let v = Int32(crop[y * w + x])
                pixSetRGBPixel(rgb, Int32(x), Int32(y), v, 255 - v, (v * 7 + Int32(x)) % 256)
                pixSetPixel(deep, Int32(x), Int32(y), UInt32(v) * 257 ^ UInt32(x % 5))
            }
        }
        var kinds: [(String, UnsafeMutablePointer<PIX>?)] = [
            ("gray8", pixCopy(nil, gray.pix)), ("rgb", rgb), ("palette4", pixThresholdTo4bpp(gray.pix, 16, 1)),
            ("binary", pixThresholdToBinary(gray.pix, 128)), ("gray16", deep),
        ]
        defer { for i in kinds.indices { pixDestroy(&kinds[i].1) } }
        return try kinds.map { kind, pix in
            var data: UnsafeMutablePointer<UInt8>?
            var size = 0
            #expect(pixWriteMemPng(&data, &size, try #require(pix), 0) == 0, "\(kind)")
            defer { free(data) }
            return (kind, Array(UnsafeBufferPointer(start: try #require(data), count: size)))
        }
    }

    @Test("a PNG decoded reduced is Leptonica's whole decoding averaged over each block, for every kind of PNG")
    func reducedPNG() throws {
        for (kind, png) in try Self.pngKinds() {
            let whole = try GrayImage.decode(bytes: png, name: kind)
            let (w, h, full) = (whole.width, whole.height, whole.bytes())
            for reduction in [2, 4] {
                let limit = ((w + reduction - 1) / reduction) * ((h + reduction - 1) / reduction)
                let reduced = try GrayImage.decode(
                    bytes: png, name: kind, limits: ImageLimits(maxPixels: limit, maxFileBytes: ImageLimits.default.maxFileBytes))
                #expect(reduced.decodeReduction == reduction, "\(kind)")
                #expect(reduced.width == (w + reduction - 1) / reduction && reduced.height == (h + reduction - 1) / reduction, "\(kind)")
                #expect(reduced.fileSize == (w, h), "\(kind)")
                let got = reduced.bytes()
                var worst = 0
                for by in 0..<reduced.height {
                    for bx in 0..<reduced.width {
                        let ys = (by * reduction)..<min(h, (by + 1) * reduction), xs = (bx * reduction)..<min(w, (bx + 1) * reduction)
                        let sum = ys.reduce(0) { acc, y in xs.reduce(acc) { $0 + Int(full[y * w + $1]) } }
                        let count = ys.count * xs.count
                        worst = max(worst, abs(Int(got[by * reduced.width + bx]) - (sum + count / 2) / count))
                    }
                }
                // Leptonica weighs colour in floating point, the decoder in integers: at most 1 apart.
                #expect(worst <= (kind == "rgb" ? 1 : 0), "\(kind) at 1/\(reduction): a block off by \(worst)")
            }
        }
    }

    @Test("a reduced PNG's damage is named: a bad CRC, data cut short; an interlaced one stays refused")
    func reducedPNGDamage() throws {
        let png = try #require(try Self.pngKinds().first { $0.kind == "gray8" }?.png)
        let limits = ImageLimits(maxPixels: 2000, maxFileBytes: ImageLimits.default.maxFileBytes)
        var flipped = png
        flipped[png.count - 20] ^= 0x55  // inside the last IDAT
        #expect { try GrayImage.decode(bytes: flipped, name: "crc.png", limits: limits) } throws: {
            ($0 as? ImageError)?.code == "unreadable_image" && "\($0)".contains("CRC error in a IDAT chunk")
        }
        #expect { try GrayImage.decode(bytes: Array(png.prefix(png.count / 2)), name: "cut.png", limits: limits) } throws: {
            ($0 as? ImageError)?.code == "unreadable_image" && "\($0)".contains("cut.png") && "\($0)".contains("truncated PNG")
        }
        // Without its IEND but with every row, it reads.
        #expect(try GrayImage.decode(bytes: Array(png.prefix(png.count - 12)), name: "no-end.png", limits: limits).decodeReduction == 4)
        var interlaced = png
        interlaced[28] = 1  // IHDR's interlace method, then its CRC made right again
        let crc = Self.crc32(Array(interlaced[12..<29]))
        interlaced.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        #expect { try GrayImage.decode(bytes: interlaced, name: "adam7.png", limits: limits) } throws: {
            ($0 as? ImageError)?.code == "image_too_large"
        }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
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
