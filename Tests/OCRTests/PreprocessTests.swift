import Foundation
import OCR
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
}
