import Foundation
public import Geometry

/// Cheap measurements of an image, taken before OCR to choose its preprocessing.
public struct ImageMeasurements: Sendable, Hashable {
    /// 2nd and 98th percentile gray levels of the whole image, or of its text boxes
    /// (`Preprocess.measure(_:text:)`).
    public var low: Int
    public var high: Int
    /// Paper level (90th percentile) of the darkest and brightest tiles (10th and 90th percentile over tiles).
    public var paperDark: Int
    public var paperBright: Int

    public init(low: Int, high: Int, paperDark: Int, paperBright: Int) {
        self.low = low
        self.high = high
        self.paperDark = paperDark
        self.paperBright = paperBright
    }

    /// How much darker the shaded paper is than the lit paper (0 = even light, 1 = black shadow).
    public var shadow: Double {
        paperBright > 0 ? 1 - Double(paperDark) / Double(paperBright) : 0
    }

    public var contrast: Int { high - low }

    /// Measures from tile histograms (see `GrayImage.tileHistograms`).
    public init(tiles: [[UInt32]]) {
        var global = [UInt32](repeating: 0, count: 256)
        var papers: [Int] = []
        for tile in tiles {
            for i in 0..<256 { global[i] &+= tile[i] }
            let n = tile.reduce(0, +)
            if n >= 16 { papers.append(Self.percentile(tile, 0.90)) }
        }
        papers.sort()
        func at(_ q: Double) -> Int { papers.isEmpty ? 0 : papers[min(papers.count - 1, Int(Double(papers.count - 1) * q + 0.5))] }
        self.init(low: Self.percentile(global, 0.02), high: Self.percentile(global, 0.98), paperDark: at(0.10), paperBright: at(0.90))
    }

    static func percentile(_ hist: [UInt32], _ q: Double) -> Int {
        let total = hist.reduce(0, +)
        guard total > 0 else { return 0 }
        let want = UInt32(Double(total) * q)
        var run: UInt32 = 0
        for (level, count) in hist.enumerated() {
            run += count
            if run > want { return level }
        }
        return 255
    }
}

/// Which preprocessing an image gets before the first OCR pass.
public struct PreprocessPlan: Sendable, Hashable, CustomStringConvertible {
    /// Leptonica background normalisation, for shadows and uneven light.
    public var backgroundNormalize = false
    /// Contrast stretch `low...high` to the full range, for washed-out images.
    public var stretch: ClosedRange<Int>? = nil
    /// Unsharp masking over a box of this half-width, for blurred pages (`Preprocess.sharpening`).
    public var unsharp: Int? = nil

    public init(backgroundNormalize: Bool = false, stretch: ClosedRange<Int>? = nil, unsharp: Int? = nil) {
        self.backgroundNormalize = backgroundNormalize
        self.stretch = stretch
        self.unsharp = unsharp
    }

    public static let none = PreprocessPlan()

    public var description: String {
        var steps: [String] = []
        if backgroundNormalize { steps.append("background-norm") }
        if let s = stretch { steps.append("stretch \(s.lowerBound)-\(s.upperBound)") }
        if let u = unsharp { steps.append("unsharp \(u)") }
        return steps.isEmpty ? "none" : steps.joined(separator: "+")
    }
}

/// Chooses and applies preprocessing from cheap measurements (about 1 ms at 640×480).
public enum Preprocess {
    /// Shadow strength above which background normalisation pays (measured on Fixtures/shadow vs clean).
    public static let shadowThreshold = 0.22
    /// Contrast (p98 − p2) below which a stretch is applied.
    public static let contrastThreshold = 90

    public static func measure(_ image: GrayImage) -> ImageMeasurements {
        let step = max(1, min(image.width, image.height) / 240)
        return ImageMeasurements(tiles: image.tileHistograms(columns: 8, rows: 8, step: step))
    }

    /// `measure(image)` with its ink and paper levels (`low`, `high`) taken inside `text`, the
    /// boxes a detector found text in, when they hold at least `textSamples` pixels. A page
    /// with little ink (a receipt on an A4 scan: under 1% of the pixels) puts the whole
    /// image's 2nd percentile on the paper, so its "contrast" is the paper's grain: stretched,
    /// that grain becomes a million specks Tesseract lays out for 12–13 s (sroie-dev 459 and
    /// 523 dimmed or saved at JPEG quality 30; 0.4 s clean). Inside the boxes ink is a tenth
    /// or more of the pixels, so the levels are the text's. The shadow measures stay the
    /// whole image's: shade falls on paper, text or not.
    public static func measure(_ image: GrayImage, text: [Box]) -> ImageMeasurements {
        var m = measure(image)
        guard !text.isEmpty else { return m }
        // Sample every step-th pixel, so a page's boxes cost about as much as `measure`.
        let area = text.reduce(0) { $0 + $1.width * $1.height }
        let step = max(1, Int((Double(area) / Double(textSamples * 4)).squareRoot()))
        var hist = [UInt32](repeating: 0, count: 256)
        for box in text {
            guard let crop = image.cropped(box), let h = crop.tileHistograms(columns: 1, rows: 1, step: step).first else { continue }
            for i in 0..<256 { hist[i] &+= h[i] }
        }
        guard hist.reduce(0, +) >= UInt32(textSamples) else { return m }
        m.low = ImageMeasurements.percentile(hist, 0.02)
        m.high = ImageMeasurements.percentile(hist, 0.98)
        return m
    }

    /// Pixels the text boxes must give for their levels to be trusted over the whole image's:
    /// a few lines of text (a line 40 px high and 400 px long is 16 000).
    static let textSamples = 10_000

    public static func plan(for m: ImageMeasurements) -> PreprocessPlan {
        var plan = PreprocessPlan()
        if m.shadow > shadowThreshold {
            plan.backgroundNormalize = true
        } else if m.contrast < contrastThreshold && m.contrast > 10 {
            plan.stretch = max(0, m.low - 8)...min(255, m.high + 8)
        }
        return plan
    }

    /// The image after `plan` (the same object when the plan is `.none` or a step fails).
    public static func apply(_ plan: PreprocessPlan, to image: GrayImage) -> GrayImage {
        var out = image
        if plan.backgroundNormalize, let n = out.backgroundNormalized() { out = n }
        if let s = plan.stretch, let n = out.stretched(low: s.lowerBound, high: s.upperBound) { out = n }
        if let u = plan.unsharp, let n = out.unsharpened(halfwidth: u, amount: sharpenAmount) { out = n }
        return out
    }

    /// Unsharp masking of a blurred page: `sharpenAmount` of the detail added back (3: blurred
    /// receipts-de 0.423 -> 0.654 of totals; docs/benchmarks/2026-11-25-blur.md), over a box
    /// half as wide as the edges spread, within `sharpenWidths` (a 1 px box is the least
    /// Leptonica takes; past 6 px the mask rings around the glyphs more than it restores them).
    public static let sharpenAmount = 3.0
    public static let sharpenWidths = 1...6

    /// The unsharp half-width for a page whose edges spread over `edgeWidth` px
    /// (`GrayImage.edgeWidth`), or nil when they spread over `blurredEdge` px or less (sharp).
    public static func sharpening(edgeWidth: Double, blurredEdge: Double) -> Int? {
        guard blurredEdge > 0, edgeWidth > blurredEdge else { return nil }
        return min(max(Int((edgeWidth / 2).rounded()), sharpenWidths.lowerBound), sharpenWidths.upperBound)
    }

    /// Median glyph height (px) from which a large image is read downscaled. 300-dpi receipt
    /// scans measure 20–34 px (Tesseract's word boxes 35–40 px), past the height its LSTM reads
    /// best, and the first pass costs with the pixel count (receipts-de: 24/18 read 25/26 totals
    /// right in the first pass at 434 ms/img, vs 23/26 at 518 ms/img unscaled).
    public static let tallGlyphHeight = 24
    /// Glyph height (px) a downscaled image aims for (20: 461 ms/img, same totals).
    public static let glyphTarget = 18.0
    /// Never shrink more than this.
    public static let minimumScale = 0.5
    /// Only images over this many pixels (larger than a 720p frame) are downscaled: there the
    /// first pass costs 0.4–0.8 s. Big-text 720p tags read worse shrunk (clean frame_0013
    /// "zł34,49" → "zi34,49", jpeg frame_0002 lost "£57.75") and gain under 10 ms.
    public static let downscaleMinimumPixels = 1_000_000

    /// Median glyph height of `image` (binarised halfway between its p2 and p98 levels).
    public static func glyphHeight(_ image: GrayImage, measurements m: ImageMeasurements) -> (height: Int, count: Int) {
        image.glyphHeight(threshold: max(1, min(254, (m.low + m.high) / 2)))
    }

    /// Glyph-like components needed to trust their median height.
    public static let trustedGlyphs = 20

    /// Factor to shrink an image by before the first pass (nil: read as is). Needs at least
    /// `trustedGlyphs` glyph-like components to trust the median.
    public static func downscale(glyphHeight h: Int, count: Int, pixels: Int) -> Double? {
        guard pixels > downscaleMinimumPixels, count >= trustedGlyphs, h >= tallGlyphHeight else { return nil }
        return max(minimumScale, glyphTarget / Double(h))
    }

    /// Skew (degrees) from which an image is rotated upright (`pixFindSkew`, confidence ≥ 2).
    /// Tesseract reads lines skewed by about a degree as well as straight ones, and frames
    /// with a few boxed tags give false skews of 1.2° at confidence 2–3 (Fixtures:
    /// clean/frame_0012, small/frame_0007, whose rotation lost a price); the rotate family
    /// (2–4°) is found at confidence 2.1–6.8, which 3 (the former floor) mostly missed.
    public static let deskewMinAngle = 1.5
}
