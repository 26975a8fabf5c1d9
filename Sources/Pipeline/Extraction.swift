public import Conversion
public import Foundation
public import Geometry
public import OCR
public import PriceParsing

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

    public init(
        file: String, width: Int? = nil, height: Int? = nil, milliseconds: Double = 0, prices: [PricedMatch] = [],
        error: InputFailure? = nil
    ) {
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
    /// Preprocessing and second pass: every step on, unless a measurement (`eval --accuracy`) says.
    public var accuracy: AccuracyOptions

    public init(
        ocr: OCRConfiguration, parser: ParserOptions, converter: Converter?, limits: ImageLimits = .default,
        accuracy: AccuracyOptions = AccuracyOptions()
    ) {
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
    public let reader: PageReader
    public let parser: PriceParser
    public let settings: ExtractionSettings

    /// `nets`: a detector and recogniser net an earlier worker made from the same models, used
    /// instead of new ones (`NetShelf`).
    public init(settings: ExtractionSettings, nets: Nets = Nets()) throws(OCRError) {
        self.parser = PriceParser(options: settings.parser)
        let judge = ParserJudge(parser: parser)
        let models = Tessdata.models(settings.ocr.language)
        var ocr = settings.ocr
        ocr.invertsUnsureLines = settings.accuracy.tesseractInverts
        // Several models (`eng+jpn`): the whole language loads when a document needs it, the
        // scene engine when a scene does; `eng` alone (the re-reads') loads now, so a broken
        // tessdata folder still fails the worker's start.
        let main: LazyEngine
        var reread: OCREngine?
        var scene: LazyEngine?
        if models.count > 1 {
            main = LazyEngine(configuration: ocr)
            var first = ocr
            first.language = models[0]
            reread = try OCREngine(configuration: first)
            let scripts = models.filter { m in Language.all.contains { $0.tesseract == m && $0.ownScript } }
            if !scripts.isEmpty, scripts.count < models.count {
                var sceneConfiguration = ocr
                sceneConfiguration.language = scripts.joined(separator: "+")
                scene = LazyEngine(configuration: sceneConfiguration)
            }
        } else {
            main = LazyEngine(try OCREngine(configuration: ocr))
        }
        var detector: TextDetector?
        if let model = settings.ocr.detectorModel {
            do {
                detector = TextDetector(net: try nets.detector(for: model))
                if let side = settings.accuracy.detectorSide { detector?.maxSide = side }
                if let sharp = settings.accuracy.detectorSharpening { detector?.documentSharpening = sharp }
            } catch {
                throw .recognitionFailed("\(error)")
            }
        }
        var price: OCREngine?
        if settings.accuracy.priceModel, let dir = settings.ocr.priceModel {
            price = try OCREngine(
                configuration: OCRConfiguration(
                    tessdata: dir, language: Tessdata.priceModel, pageSegmentationMode: 7, invertsUnsureLines: ocr.invertsUnsureLines))
        }
        var recognizer: TextRecognizerNet?
        if settings.accuracy.recognizer, let dir = settings.ocr.recognizerModels {
            do {
                recognizer = try nets.recognizer(for: dir)
            } catch {
                throw .recognitionFailed("\(error)")
            }
        }
        self.reader = PageReader(
            main: main, scene: scene, reread: reread, price: price, detector: detector, recognizer: recognizer, judge: judge,
            options: settings.accuracy)
        self.settings = settings
    }

    /// Reads one image file; never throws: a failure becomes the record's error.
    public func extract(path: String, displayName: String? = nil) -> ImageResult {
        record(name: displayName ?? path, path: path) { () throws(ImageError) in try GrayImage.load(path: path, limits: settings.limits) }
    }

    /// Reads an image held in memory (an upload); `name` stands for the path in
    /// the record and in errors. Never throws, like `extract(path:)`.
    public func extract(bytes: [UInt8], name: String) -> ImageResult {
        record(name: name, path: name) { () throws(ImageError) in try GrayImage.decode(bytes: bytes, name: name, limits: settings.limits) }
    }

    /// Loads with `load`, reads, and times it; any failure becomes the record's error.
    private func record(name: String, path: String, load: () throws(ImageError) -> GrayImage) -> ImageResult {
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000 }
        do {
            let image = try load()
            var prices = try prices(in: image)
            // A JPEG decoded at a fraction of its size: boxes and size in the file's own pixels.
            let r = image.decodeReduction
            if r != 1 {
                for i in prices.indices { prices[i].match.box = prices[i].match.box?.scaled(by: Double(r)) }
            }
            let size = image.fileSize
            return ImageResult(file: name, width: size.width, height: size.height, milliseconds: elapsed(), prices: prices)
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

    /// The page as the OCR stage read it.
    public func read(_ image: GrayImage) throws(OCRError) -> RecognizedPage {
        try reader.read(image)
    }

    /// Parses and converts what the OCR read.
    public func price(_ page: RecognizedPage) -> [PricedMatch] {
        if OCRLog.enabled {
            for l in page.lines {
                OCRLog.write(
                    "final \(l.box.map { "\($0)" } ?? "-") [\(l.words.map { "\($0.text)@\(Int($0.confidence * 100))" }.joined(separator: " "))]"
                )
            }
        }
        var matches = parser.parse(lines: page.lines)
        // Parsed on the page as read (a sideways photo turned upright); boxes reported on the image.
        if page.quarterTurns != 0 || page.levelling != nil {
            for i in matches.indices { matches[i].box = matches[i].box.map(page.unturned) }
        }
        return matches.map { m in
            PricedMatch(match: m, conversion: settings.converter?.convert(m.amount, currency: m.currency))
        }
    }
}

/// The price parser as the OCR stage's judge of its readings.
public struct ParserJudge: PriceJudge {
    public let parser: PriceParser

    public init(parser: PriceParser) {
        self.parser = parser
    }

    public func prices(in lines: [TextLine]) -> [PriceReading] {
        parser.parse(lines: lines).map {
            PriceReading(
                text: $0.text, amount: $0.amount, confidence: $0.confidence, isRange: $0.flags.contains(.range), isTotal: $0.role == .total)
        }
    }

    public func namesTotal(_ line: TextLine) -> Bool { PriceParser.namesTotal(line) }
    public func namesAnotherAmount(_ line: TextLine) -> Bool { PriceParser.namesAnotherAmount(line) }
    public func confirmsTotal(_ amount: Decimal, line: Int, of lines: [TextLine]) -> Bool {
        parser.confirmsTotal(amount, line: line, of: lines)
    }
    public var printsWholeNumbers: Bool {
        parser.options.currencyHint.map { Currencies.printedDigits($0) == 0 } ?? false
    }
}
