import Foundation
import Geometry
@testable import OCR
import Testing

/// The preprocessing chooser picks each step from its measurement on the fixture family the step exists for.
@Suite("Preprocessing chooser")
struct PreprocessTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures").path

    static func images(_ family: String) throws -> [String] {
        let dir = "\(fixtures)/\(family)"
        return try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
            .filter { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }.map { "\(dir)/\($0)" }
    }

    static func plans(_ family: String) throws -> [PreprocessPlan] {
        try images(family).map { Preprocess.plan(for: Preprocess.measure(try GrayImage.load(path: $0))) }
    }

    @Test("shadow family: every image gets background normalisation")
    func shadowGetsBackgroundNorm() throws {
        let plans = try Self.plans("shadow")
        #expect(plans.count >= 10)
        let all = plans.allSatisfy { $0.backgroundNormalize }
        #expect(all, "\(plans)")
    }

    @Test("clean family: almost nothing is preprocessed")
    func cleanMostlyUntouched() throws {
        let plans = try Self.plans("clean")
        let touched = plans.filter { $0 != .none }.count
        #expect(touched * 10 <= plans.count, "\(touched) of \(plans.count) clean images preprocessed: \(plans)")
    }

    @Test("lowcontrast family: every image gets a contrast stretch")
    func lowContrastGetsStretch() throws {
        let plans = try Self.plans("lowcontrast")
        let all = plans.allSatisfy { $0.stretch != nil && !$0.backgroundNormalize }
        #expect(all, "\(plans)")
    }

    @Test("measurements: even light has no shadow, a dark half does")
    func measurementsOnSynthetic() {
        var even = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 64)
        for t in 0..<64 { even[t][230] = 90; even[t][20] = 10 }
        let m = ImageMeasurements(tiles: even)
        #expect(m.shadow < 0.05)
        #expect(m.contrast > 150)
        var shaded = even
        for t in 0..<32 { shaded[t] = [UInt32](repeating: 0, count: 256); shaded[t][110] = 90; shaded[t][10] = 10 }
        #expect(ImageMeasurements(tiles: shaded).shadow > Preprocess.shadowThreshold)
        #expect(Preprocess.plan(for: ImageMeasurements(tiles: shaded)).backgroundNormalize)
    }

    /// A 2000 px square page of paper at 200 with a grain of ±8 levels, and one text box at
    /// (100, 100), 400 × 60 px, whose glyph strokes (every fourth column) are at `ink`.
    static func sparsePage(ink: UInt8) -> (GrayImage, Box) {
        let side = 2000
        var pixels = [UInt8](repeating: 0, count: side * side)
        for y in 0..<side {
            for x in 0..<side { pixels[y * side + x] = UInt8(192 + (x * 7 + y * 13) % 17) }
        }
        let text = Box(x: 100, y: 100, width: 400, height: 60)
        for y in text.y + 10..<text.y + 50 {
            for x in stride(from: text.x + 8, to: text.x + text.width - 8, by: 4) { pixels[y * side + x] = ink }
        }
        return (GrayImage(luma: pixels, width: side, height: side, bytesPerRow: side), text)
    }

    @Test("levels inside the detector's text boxes: a sparse page's paper grain is not stretched, faint text still is")
    func levelsInTextBoxes() {
        let (page, text) = Self.sparsePage(ink: 40)
        // The whole page's 2nd percentile is paper: its grain looks like a washed-out image.
        #expect(Preprocess.plan(for: Preprocess.measure(page)).stretch != nil)
        let m = Preprocess.measure(page, text: [text])
        #expect(m.low <= 60 && m.high >= 192, "\(m)")
        #expect(Preprocess.plan(for: m).stretch == nil, "\(m)")
        // Faint text in the boxes is still stretched.
        let (faint, box) = Self.sparsePage(ink: 150)
        #expect(Preprocess.plan(for: Preprocess.measure(faint, text: [box])).stretch != nil)
        // Boxes holding too few pixels to trust leave the whole image's levels.
        let tiny = Box(x: 100, y: 100, width: 20, height: 20)
        #expect(Preprocess.measure(page, text: [tiny]) == Preprocess.measure(page))
    }

    @Test("Leptonica steps keep size (or scale it) and own their pixels")
    func stepsProduceImages() throws {
        let image = try GrayImage.load(path: try Self.images("shadow")[0])
        let normalized = try #require(image.backgroundNormalized())
        #expect(normalized.width == image.width && normalized.height == image.height)
        let stretched = try #require(image.stretched(low: 40, high: 200))
        #expect(stretched.width == image.width)
        let big = try #require(image.scaled(by: 2))
        #expect(big.width == image.width * 2 && big.height == image.height * 2)
        // The shadowed image's paper becomes even after normalisation.
        #expect(Preprocess.measure(normalized).shadow < Preprocess.measure(image).shadow)
    }

    @Test("downscale: chosen for a clean receipt enlarged 3× (300-dpi-like text), never for the clean family as is")
    func downscaleChoice() throws {
        for path in try Self.images("clean") {
            let image = try GrayImage.load(path: path)
            let g = Preprocess.glyphHeight(image, measurements: Preprocess.measure(image))
            #expect(
                Preprocess.downscale(glyphHeight: g.height, count: g.count, pixels: image.width * image.height) == nil,
                "\(path): glyph \(g)")
        }
        let receipt = try GrayImage.load(path: "\(Self.fixtures)/clean/receipt_0001.png")
        let big = try #require(receipt.scaled(by: 3))
        let g1 = Preprocess.glyphHeight(receipt, measurements: Preprocess.measure(receipt))
        let g3 = Preprocess.glyphHeight(big, measurements: Preprocess.measure(big))
        // The estimate follows the text: 3× the pixels, about 3× the height.
        #expect(abs(Double(g3.height) - 3 * Double(g1.height)) <= 0.25 * 3 * Double(g1.height), "glyph \(g1) at 1×, \(g3) at 3×")
        let factor = try #require(Preprocess.downscale(glyphHeight: g3.height, count: g3.count, pixels: big.width * big.height))
        #expect(factor >= Preprocess.minimumScale && factor < 1)
    }

    @Test("a large page whose ink gives no glyphs to measure is shrunk by the detector's lines' glyph")
    func downscaleByTheDetectorsLines() throws {
        let reader = PageReader(
            engine: try OCREngine(configuration: OCRConfiguration(tessdata: try Tessdata.locate(explicit: nil))),
            judge: RereadChoiceTests.DigitJudge(), options: AccuracyOptions())
        // 1.5 MP of paper: no component to measure (a dim, noisy scan breaks its glyphs apart).
        let (w, h) = (1500, 1000)
        let blank = GrayImage(luma: [UInt8](repeating: 235, count: w * h), width: w, height: h, bytesPerRow: w)
        #expect(reader.downscaled(blank) == nil)
        #expect(reader.downscaled(blank, lineGlyph: Preprocess.tallGlyphHeight - 1) == nil)
        let small = try #require(reader.downscaled(blank, lineGlyph: 48))
        let factor = max(Preprocess.minimumScale, Preprocess.glyphTarget / 48)
        #expect(abs(small.width - Int(Double(w) * factor)) <= 1 && abs(small.height - Int(Double(h) * factor)) <= 1)
    }

    @Test("boxes read on a downscaled copy map back to the original's pixels")
    func rescaleBoxes() {
        let word = TextWord(text: "9,99", box: Box(x: 10, y: 20, width: 30, height: 11), confidence: 0.9)
        let page = RecognizedPage(width: 100, height: 50, lines: [TextLine(words: [word])], milliseconds: 1)
        let back = page.rescaled(by: 2, width: 200, height: 100)
        #expect(back.width == 200 && back.height == 100)
        #expect(back.lines[0].words[0].box == Box(x: 20, y: 40, width: 60, height: 22))
        // Clipped to the original image.
        let edge = RecognizedPage(
            width: 100, height: 50,
            lines: [TextLine(words: [TextWord(text: "9", box: Box(x: 90, y: 40, width: 10, height: 10), confidence: 0)])],
            milliseconds: 1)
        #expect(edge.rescaled(by: 1.5, width: 149, height: 74).lines[0].box == Box(x: 135, y: 60, width: 14, height: 14))
    }

    @Test("deskew: applied on most rotate fixtures (2–4°), never on clean or negatives")
    func deskewChoice() throws {
        func applied(_ family: String) throws -> Int {
            try Self.images(family).filter { path in
                let image = try GrayImage.load(path: path)
                let m = Preprocess.measure(image)
                let d = try #require(image.deskewed(threshold: (m.low + m.high) / 2, minAngle: Preprocess.deskewMinAngle))
                return d.angle != 0
            }.count
        }
        #expect(try applied("rotate") >= 10)
        #expect(try applied("clean") == 0)
        #expect(try applied("negatives") == 0)
    }

    /// Bars of ink on paper, 16 px each, each edge a linear ramp `ramp` px wide.
    static func bars(ramp: Int) -> GrayImage {
        // one period: paper, ramp down, ink, ramp up
        var profile: [Double] = Array(repeating: 1, count: 16)
        profile += (0..<ramp).map { 1 - Double($0 + 1) / Double(ramp + 1) }
        profile += Array(repeating: 0, count: 16)
        profile += (0..<ramp).map { Double($0 + 1) / Double(ramp + 1) }
        let w = profile.count * 5, h = 40
        var px = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { px[y * w + x] = UInt8(30 + 200 * profile[x % profile.count]) } }
        return GrayImage(luma: px, width: w, height: h, bytesPerRow: w)
    }

    @Test("edge width: sharp print steps in a pixel or two, blurred print over its blur")
    func edgeWidth() throws {
        let sharp = Self.bars(ramp: 0).edgeWidth(), soft = Self.bars(ramp: 6).edgeWidth()
        #expect(sharp <= 1.5, "\(sharp)")
        #expect(soft >= 4, "\(soft)")
        #expect(soft > AccuracyOptions().blurredEdge && sharp < AccuracyOptions().blurredEdge)
    }

    @Test("edge width: print blurred past 10 px, whose steps are all under a tenth of the contrast, is not taken for sharp")
    func edgeWidthOfHeavyBlur() {
        // 24 px ramps: each step 8 of a contrast of 200, under the edge floor of 20.
        let heavy = Self.bars(ramp: 24).edgeWidth()
        #expect(heavy >= 10, "\(heavy)")
    }

    @Test("sharpening: none at or under the blurred edge, a box half the spread, within 1...6 px")
    func sharpening() {
        #expect(Preprocess.sharpening(edgeWidth: 3.9, blurredEdge: 4) == nil)
        #expect(Preprocess.sharpening(edgeWidth: 4, blurredEdge: 4) == nil)
        #expect(Preprocess.sharpening(edgeWidth: 9, blurredEdge: 0) == nil)
        #expect(Preprocess.sharpening(edgeWidth: 4.2, blurredEdge: 4) == 2)
        #expect(Preprocess.sharpening(edgeWidth: 9, blurredEdge: 4) == 5)
        #expect(Preprocess.sharpening(edgeWidth: 40, blurredEdge: 4) == 6)
        #expect(Preprocess.sharpening(edgeWidth: 1.5, blurredEdge: 1) == 1)
    }

    @Test("a blurred page is unsharp masked by the plan: its edges step faster after")
    func unsharpPlan() throws {
        let soft = Self.bars(ramp: 6)
        let u = try #require(Preprocess.sharpening(edgeWidth: soft.edgeWidth(), blurredEdge: AccuracyOptions().blurredEdge))
        let sharpened = Preprocess.apply(PreprocessPlan(unsharp: u), to: soft)
        #expect(sharpened.edgeWidth() < soft.edgeWidth())
        #expect(PreprocessPlan(unsharp: u).description == "unsharp \(u)")
    }
}
