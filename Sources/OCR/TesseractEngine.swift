import CTesseract
import Foundation
public import Geometry
// `Geometry.Box`, spelt out: Leptonica's C headers (CTesseract) declare a `struct Box` too.

/// How the engine reads a page.
public struct OCRConfiguration: Sendable, Hashable {
    /// Folder holding `<language>.traineddata` (see `Tessdata.locate`).
    public var tessdata: String
    public var language: String
    /// Tesseract page segmentation mode; 6 (one uniform block) suits frames and receipts.
    public var pageSegmentationMode: Int
    /// Recognition deadline per image, in milliseconds (layout analysis is not bounded by it).
    public var deadlineMilliseconds: Int
    /// Folder holding `price.traineddata`, the price-text model weak region readings are read
    /// again with (`Tessdata.locatePriceModel`); nil reads without it.
    public var priceModel: String?
    /// The learned text detector's model file (`Tessdata.locateDetectorModel`); nil finds text
    /// with the Leptonica region finder instead.
    public var detectorModel: String?
    /// Folder holding the line recogniser's models (`Tessdata.locateRecognizerModels`); nil
    /// votes on total lines with Tesseract's readings alone.
    public var recognizerModels: String?
    /// Whether Tesseract reads a line again inverted when it read it unsurely
    /// (`tessedit_do_invert`, Tesseract's default: every line whose characters' mean
    /// confidence is under its `invert_threshold`, 0.7, goes through the network a second
    /// time as light print on dark, and the surer reading is kept). pricecam sets each crop's
    /// polarity itself (`TextRegion.lightOnDark`, from the box's rim), so for most lines that
    /// second run reads the wrong polarity of text Tesseract is unsure of anyway: a shelf
    /// photo's packaging, junk in a dot leader. Off by default; a region judged light on dark
    /// is read with it on (`RegionReader.read`): the rim of a small blurred dark price, its
    /// halo on the box's edge, reads as dark ground, and the second run reads it the right way
    /// (on a photo of shelf-jp-dev's phone copy, five tags' `50`, `35`, `15`, `35`, `23`, judged
    /// light, read only so).
    /// `AccuracyOptions.tesseractInverts` (`tesseract-invert`) turns it on everywhere, to
    /// measure (docs/benchmarks/2026-12-07-tesseract-invert.md).
    public var invertsUnsureLines: Bool

    public init(
        tessdata: String, language: String = "eng", pageSegmentationMode: Int = 6, deadlineMilliseconds: Int = 60_000,
        priceModel: String? = nil, detectorModel: String? = nil, recognizerModels: String? = nil, invertsUnsureLines: Bool = false
    ) {
        self.invertsUnsureLines = invertsUnsureLines
        self.tessdata = tessdata
        self.priceModel = priceModel
        self.detectorModel = detectorModel
        self.recognizerModels = recognizerModels
        self.language = language
        self.pageSegmentationMode = pageSegmentationMode
        self.deadlineMilliseconds = deadlineMilliseconds
    }
}

public enum OCRError: Error, Sendable, CustomStringConvertible {
    case initFailed(tessdata: String, language: String)
    case recognitionFailed(String)

    public var description: String {
        switch self {
        case .initFailed(let dir, let lang):
            "Tesseract could not load \(lang).traineddata from \(dir) (damaged or wrong-version file?). Reinstall tesseract-ocr-\(lang) or point --tessdata elsewhere."
        case .recognitionFailed(let why):
            "recognition failed: \(why)"
        }
    }
}

/// One Tesseract engine: a `TessBaseAPI` initialised once and reused for every image.
///
/// Not thread-safe, so not `Sendable`: give each worker thread its own engine.
public final class OCREngine {
    private let api: OpaquePointer
    public let configuration: OCRConfiguration

    public init(configuration: OCRConfiguration) throws(OCRError) {
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            OCRLog.write("engine \(configuration.language) loaded in \(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) ms")
        }
        guard let api = TessBaseAPICreate() else {
            throw .initFailed(tessdata: configuration.tessdata, language: configuration.language)
        }
        // Tesseract's stray diagnostics go nowhere; pricecam reports its own errors.
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        if TessBaseAPIInit3(api, configuration.tessdata, configuration.language) != 0 {
            TessBaseAPIDelete(api)
            throw .initFailed(tessdata: configuration.tessdata, language: configuration.language)
        }
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(configuration.pageSegmentationMode)))
        self.api = api
        self.configuration = configuration
        setInverting(configuration.invertsUnsureLines)
    }

    /// Sets Tesseract's `tessedit_do_invert` (see `OCRConfiguration.invertsUnsureLines`).
    private func setInverting(_ on: Bool) {
        _ = TessBaseAPISetVariable(api, "tessedit_do_invert", on ? "1" : "0")
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }

    /// Sets a Tesseract variable; returns false when the name is unknown.
    @discardableResult
    public func setVariable(_ name: String, _ value: String) -> Bool {
        TessBaseAPISetVariable(api, name, value) != 0
    }

    /// Reads every word on the image (or within `region`), grouped in lines. `invertingUnsureLines`:
    /// this reading's `OCRConfiguration.invertsUnsureLines` (nil: the engine's).
    public func recognize(
        _ image: GrayImage, region: Geometry.Box? = nil, pageSegmentationMode: Int? = nil, invertingUnsureLines: Bool? = nil
    ) throws(OCRError) -> RecognizedPage {
        let start = DispatchTime.now().uptimeNanoseconds
        let switched = invertingUnsureLines.map { $0 != configuration.invertsUnsureLines } ?? false
        if switched { setInverting(!configuration.invertsUnsureLines) }
        defer { if switched { setInverting(configuration.invertsUnsureLines) } }
        TessBaseAPISetImage2(api, image.pix)
        // Files without a resolution (and all frames) would make Tesseract warn
        // and guess 70 dpi; 300 matches how its models were trained.
        TessBaseAPISetSourceResolution(api, Int32(image.dpi >= 70 && image.dpi <= 2400 ? image.dpi : 300))
        if let region {
            TessBaseAPISetRectangle(api, Int32(region.x), Int32(region.y), Int32(region.width), Int32(region.height))
        }
        let psm = pageSegmentationMode ?? configuration.pageSegmentationMode
        TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(psm)))
        defer {
            if psm != configuration.pageSegmentationMode {
                TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(configuration.pageSegmentationMode)))
            }
            TessBaseAPIClear(api)
        }

        let monitor = TessMonitorCreate()
        defer { TessMonitorDelete(monitor) }
        TessMonitorSetDeadlineMSecs(monitor, Int32(configuration.deadlineMilliseconds))
        if TessBaseAPIRecognize(api, monitor) != 0 {
            throw .recognitionFailed(
                "Tesseract gave up on this image (deadline \(configuration.deadlineMilliseconds) ms or internal error)")
        }
        let lines = readLines()
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        return RecognizedPage(width: image.width, height: image.height, lines: lines, milliseconds: ms)
    }

    /// The text lines Tesseract's own layout analysis finds on `image` with page segmentation
    /// mode `psm`, without recognising them (`TessBaseAPIAnalyseLayout`).
    public func layoutLines(_ image: GrayImage, pageSegmentationMode psm: Int) -> [Geometry.Box] {
        TessBaseAPISetImage2(api, image.pix)
        TessBaseAPISetSourceResolution(api, Int32(image.dpi >= 70 && image.dpi <= 2400 ? image.dpi : 300))
        TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(psm)))
        defer {
            TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(configuration.pageSegmentationMode)))
            TessBaseAPIClear(api)
        }
        guard let it = TessBaseAPIAnalyseLayout(api) else { return [] }
        defer { TessPageIteratorDelete(it) }
        var out: [Geometry.Box] = []
        repeat {
            var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
            if TessPageIteratorBoundingBox(it, RIL_TEXTLINE, &l, &t, &r, &b) != 0, r > l, b > t {
                out.append(Geometry.Box(x: Int(l), y: Int(t), width: Int(r - l), height: Int(b - t)))
            }
        } while TessPageIteratorNext(it, RIL_TEXTLINE) != 0
        return out
    }

    private func readLines() -> [TextLine] {
        guard let results = TessBaseAPIGetIterator(api) else { return [] }
        defer { TessResultIteratorDelete(results) }
        let page = TessResultIteratorGetPageIterator(results)
        var lines: [TextLine] = []
        var current: [TextWord] = []

        func closeLine() {
            guard !current.isEmpty else { return }
            lines.append(TextLine(words: current))
            current = []
        }

        repeat {
            if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 { closeLine() }
            guard let cText = TessResultIteratorGetUTF8Text(results, RIL_WORD) else { continue }
            let text = String(cString: cText)
            TessDeleteText(cText)
            if text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
            guard TessPageIteratorBoundingBox(page, RIL_WORD, &l, &t, &r, &b) != 0 else { continue }
            let confidence = Double(TessResultIteratorConfidence(results, RIL_WORD)) / 100
            current.append(
                TextWord(
                    text: text,
                    box: Geometry.Box(x: Int(l), y: Int(t), width: Int(r - l), height: Int(b - t)),
                    confidence: min(max(confidence, 0), 1)))
        } while TessResultIteratorNext(results, RIL_WORD) != 0
        closeLine()
        return lines
    }
}

/// An engine loaded on first use, on the thread that uses it (a model takes 0.07 s (`eng`) to
/// 0.3 s (`eng+jpn`) to load), then kept. Not `Sendable`, like the engine: one per worker.
public final class LazyEngine {
    public let configuration: OCRConfiguration
    private var loaded: OCREngine?

    /// An engine to load when first asked for.
    public init(configuration: OCRConfiguration) {
        self.configuration = configuration
    }

    /// An engine already loaded.
    public init(_ engine: OCREngine) {
        self.configuration = engine.configuration
        self.loaded = engine
    }

    public var isLoaded: Bool { loaded != nil }

    /// The engine, loaded now if it was not yet.
    public func engine() throws(OCRError) -> OCREngine {
        if let loaded { return loaded }
        let made = try OCREngine(configuration: configuration)
        loaded = made
        return made
    }
}
