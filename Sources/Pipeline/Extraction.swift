import Conversion
import Foundation
import OCR
import PriceParsing

/// A price with its conversion, when one applies.
public struct PricedMatch: Sendable {
    public var match: PriceMatch
    public var conversion: ConvertedAmount?

    public init(match: PriceMatch, conversion: ConvertedAmount?) {
        self.match = match
        self.conversion = conversion
    }
}

/// Why one input produced no prices: a stable code and a message naming the input.
public struct InputFailure: Error, Sendable, Equatable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public init(_ error: ImageError) {
        self.init(code: error.code, message: error.description)
    }
}

/// What came out of one image: the contract's per-image record.
public struct ImageResult: Sendable {
    public var file: String
    public var width: Int?
    public var height: Int?
    public var milliseconds: Double
    public var prices: [PricedMatch]
    public var error: InputFailure?

    public init(file: String, width: Int? = nil, height: Int? = nil, milliseconds: Double = 0, prices: [PricedMatch] = [], error: InputFailure? = nil) {
        self.file = file
        self.width = width
        self.height = height
        self.milliseconds = milliseconds
        self.prices = prices
        self.error = error
    }
}

/// Everything a worker needs that is the same for every image.
public struct ExtractionSettings: Sendable {
    public var ocr: OCRConfiguration
    public var parser: ParserOptions
    public var converter: Converter?
    public var limits: ImageLimits
    /// Preprocessing and second pass (see README.md, "Accuracy").
    public var accuracy: AccuracyOptions

    public init(ocr: OCRConfiguration, parser: ParserOptions, converter: Converter?, limits: ImageLimits = .default, accuracy: AccuracyOptions = .fromEnvironment) {
        self.ocr = ocr
        self.parser = parser
        self.converter = converter
        self.limits = limits
        self.accuracy = accuracy
    }
}

/// Image → OCR → prices → conversion, for one worker. Owns its OCR engine,
/// so it is not `Sendable`: each worker thread makes its own.
public final class Extractor {
    public let engine: OCREngine
    public let parser: PriceParser
    public let settings: ExtractionSettings

    public init(settings: ExtractionSettings) throws(OCRError) {
        self.engine = try OCREngine(configuration: settings.ocr)
        self.parser = PriceParser(options: settings.parser)
        self.settings = settings
    }

    /// Reads one image file; never throws: a failure becomes the record's error.
    public func extract(path: String, displayName: String? = nil) -> ImageResult {
        let start = DispatchTime.now().uptimeNanoseconds
        let name = displayName ?? path
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000 }
        do {
            let image = try GrayImage.load(path: path, limits: settings.limits)
            let prices = try prices(in: image)
            return ImageResult(file: name, width: image.width, height: image.height, milliseconds: elapsed(), prices: prices)
        } catch let error as ImageError {
            return ImageResult(file: name, milliseconds: elapsed(), error: InputFailure(error))
        } catch {
            return ImageResult(file: name, milliseconds: elapsed(), error: InputFailure(code: "ocr_failed", message: "\(path): \(error)"))
        }
    }

    /// The converted prices on an image.
    public func prices(in image: GrayImage) throws(OCRError) -> [PricedMatch] {
        price(try read(image))
    }

    /// The page as read after the chosen preprocessing and the second pass.
    public func read(_ image: GrayImage) throws(OCRError) -> RecognizedPage {
        let accuracy = settings.accuracy
        var prepared = image
        if accuracy.preprocess {
            let m = Preprocess.measure(image)
            var plan = Preprocess.plan(for: m)
            if !accuracy.stretch { plan.stretch = nil }
            if !accuracy.backgroundNorm { plan.backgroundNormalize = false }
            if SecondPass.debug {
                FileHandle.standardError.write("plan \(plan) shadow \(m.shadow) contrast \(m.contrast) \(m)\n".data(using: .utf8)!)
            }
            prepared = Preprocess.apply(plan, to: image)
        }
        if accuracy.preprocess && accuracy.deskew {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let m = Preprocess.measure(prepared)
            let d = prepared.deskewed(threshold: max(1, min(254, (m.low + m.high) / 2)), minAngle: Preprocess.deskewMinAngle)
            if SecondPass.debug {
                FileHandle.standardError.write("deskew angle \(d?.angle ?? 0) conf \(d?.confidence ?? 0) \(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6) ms\n".data(using: .utf8)!)
            }
            if let d, d.angle != 0 { prepared = d.image }
        }
        var page: RecognizedPage
        if let small = accuracy.preprocess && accuracy.downscale ? downscaled(prepared) : nil {
            // Boxes go back to `prepared`'s pixels; the second pass re-reads lines there.
            page = try engine.recognize(small).rescaled(by: Double(prepared.width) / Double(small.width), width: prepared.width, height: prepared.height)
        } else {
            page = try engine.recognize(prepared)
        }
        if SecondPass.debug {
            for l in page.lines { FileHandle.standardError.write("line \(l.rect) [\(l.words.map { "\($0.text)@\(Int($0.confidence * 100))" }.joined(separator: " "))]\n".data(using: .utf8)!) }
        }
        guard accuracy.secondPass else { return page }
        var second = SecondPass(engine: engine, parser: parser, maxRereads: accuracy.maxRereads)
        let large = image.width * image.height > Preprocess.downscaleMinimumPixels
        second.enlargeTallText = !large
        if large { second.budgetMs = page.milliseconds * accuracy.largeImageBudget }
        if image.isFrame || accuracy.forceLiveBudget {
            second.budgetMs = page.milliseconds * accuracy.liveBudget
            second.strictBudget = true
        }
        second.wordFirst = accuracy.wordReread
        // Not on live frames: their budget admits about one re-read, and the psm 11 one costs
        // more than its estimate (bench-live-ocr: +17% OCR p99 with it, +3–6% without).
        second.sparseWord = accuracy.sparseWordReread && !second.strictBudget
        let improved = second.improve(page, image: prepared)
        // Nothing found on a photo: a last, sparse-text reading (not on live frames: it costs
        // about four first passes).
        if accuracy.sparse, !image.isFrame, parser.parse(lines: PageText.lines(improved)).isEmpty,
           let sparse = try sparseRead(prepared) {
            return sparse
        }
        return improved
    }

    /// `image` shrunk for the first pass when its text is much taller than Tesseract needs (nil: read as is).
    func downscaled(_ image: GrayImage) -> GrayImage? {
        guard image.width * image.height > Preprocess.downscaleMinimumPixels else { return nil }
        let m = Preprocess.measure(image)
        let g = Preprocess.glyphHeight(image, measurements: m)
        let factor = Preprocess.downscale(glyphHeight: g.height, count: g.count, pixels: image.width * image.height)
        if SecondPass.debug {
            FileHandle.standardError.write("glyph height \(g.height) (\(g.count) components) -> scale \(factor.map { "\($0)" } ?? "1")\n".data(using: .utf8)!)
        }
        guard let factor else { return nil }
        return image.scaled(by: factor)
    }

    /// Enlargement and the least price confidence of the sparse-text pass.
    static let sparseScale = 2.0
    static let sparseMinimumConfidence = 0.6

    /// `image` read 2× enlarged with psm 11 (sparse text: no layout, every blob of text on
    /// its own), when it is at most 1 MP; the page when it holds a confident price, else nil.
    /// Small isolated tags on a busy frame (Fixtures/small frame_0002: "$32.50", "$2.00")
    /// give psm 6 no line at all, at any scale; psm 11 at 2× finds them (3× and 2.5× also
    /// found junk on negatives).
    func sparseRead(_ image: GrayImage) throws(OCRError) -> RecognizedPage? {
        guard image.width * image.height <= Preprocess.downscaleMinimumPixels,
              let big = image.scaled(by: Self.sparseScale) else { return nil }
        let page = try engine.recognize(big, pageSegmentationMode: 11)
            .rescaled(by: Double(image.width) / Double(big.width), width: image.width, height: image.height)
        if SecondPass.debug {
            for l in page.lines { FileHandle.standardError.write("sparse \(l.rect) [\(l.text)]\n".data(using: .utf8)!) }
        }
        let prices = parser.parse(lines: PageText.lines(page))
        return prices.contains { $0.confidence >= Self.sparseMinimumConfidence } ? page : nil
    }

    /// Parses and converts what the OCR read.
    public func price(_ page: RecognizedPage) -> [PricedMatch] {
        let matches = parser.parse(lines: PageText.lines(page))
        return matches.map { m in
            PricedMatch(match: m, conversion: settings.converter?.convert(m.amount, currency: m.currency))
        }
    }
}

/// OCR output in the parser's terms.
public enum PageText {
    public static func lines(_ page: RecognizedPage) -> [TextLine] {
        lines(page.lines)
    }

    public static func lines(_ lines: [RecognizedLine]) -> [TextLine] {
        lines.map { line in
            TextLine(words: line.words.map { w in
                TextWord(text: w.text, box: Box(x: w.rect.x, y: w.rect.y, width: w.rect.width, height: w.rect.height), confidence: w.confidence)
            })
        }
    }
}
