import Foundation
import Geometry

/// The OCR stage for one worker: an image in, the text lines on it out.
///
/// Preprocessing (background, contrast, skew), then the text-region stage finds where text
/// is at a bounded working resolution, then either each region is read cropped and scaled
/// to the glyph height Tesseract reads best (scenes: frames, tags, shelves), or the page is
/// read by Tesseract's own layout (dense documents: receipts), then weak readings are read
/// again. Owns its engines, so it is not `Sendable`: one per worker.
public final class PageReader {
    /// The run's whole language (`eng+jpn`): documents (the page reading and its second pass),
    /// Tesseract's own layout, the sparse-text pass. Loaded on first use when the reader was
    /// made with its configuration: a run of shelf photos in Japan never needs it.
    public let main: LazyEngine
    /// The price-text model (`models/price.traineddata`), when installed: weak region readings
    /// are read again with it too.
    public let priceEngine: OCREngine?
    /// The run's first model alone (`eng` of `eng+jpn`), when it reads other scripts too: the
    /// stock re-reads of a weak region reading use it. They re-read digits, which every model
    /// after the first only makes slower: tags-jp-dev 32% and shelf-jp-dev 18% less CPU with
    /// eng than with eng+jpn, shelf recall the same, tags one more stray amount (P 0.938 → 0.918).
    public let rereadEngine: OCREngine?
    /// The run's models of scripts `eng` cannot read, alone (`jpn` of `eng+jpn`): the first
    /// reading of each region of a scene uses them. With `eng+jpn` Tesseract reads every word
    /// with `eng` first and again with `jpn` when `eng` reads it badly, which on a shop's
    /// shelf is most words (its product names); `jpn` alone reads the digits too, and weak
    /// digit readings still get the `eng` and price-model re-reads. shelf-jp-dev 1346 → 1041
    /// ms per image (first readings 618 → 295 ms on one photo), recall and precision the
    /// same; tags-jp-dev the same total recall, one stray amount fewer; Fixtures/symbols with
    /// `--lang jpn+kor+hin` amount recall 0.636 → 0.727. Loaded on first use (about 0.2 s for
    /// `jpn`), so a run of documents never loads it. Nil: regions are read with `main`.
    public let scene: LazyEngine?
    public let judge: any PriceJudge
    public var options: AccuracyOptions {
        didSet { configureRegionReader() }
    }
    public var layout = RegionLayout()
    /// The learned text detector, which finds the regions of a scene and tells a scene from a
    /// document. Nil: only the whole-page reading (`AccuracyOptions.reading` `.page`) works;
    /// anything else is an error naming the missing model.
    public let detector: TextDetector?
    /// The line recogniser (PP-OCRv4's), a second reader of unconfirmed total lines in the
    /// second pass's vote. Nil: the vote uses Tesseract's readings alone.
    public let recognizer: TextRecognizerNet?
    public var regionReader = RegionReader()
    /// Regions read again by `reread` so far, each try counted (a measure of the work the
    /// second look costs, for tests and diagnostics).
    public private(set) var rereadTries = 0
    /// Other workers' readers that take some of this one's region readings while they have
    /// nothing else to read (the last images of a batch; `ReadingHelp`). Nil: this reader
    /// reads alone. Live frames never share (their re-reads keep a time budget).
    public var help: ReadingHelp?

    /// A reader around an engine already loaded (and the other engines, when given).
    public convenience init(
        engine: OCREngine, scene: LazyEngine? = nil, reread: OCREngine? = nil, price: OCREngine? = nil, detector: TextDetector? = nil,
        recognizer: TextRecognizerNet? = nil, judge: any PriceJudge, options: AccuracyOptions
    ) {
        self.init(
            main: LazyEngine(engine), scene: scene, reread: reread, price: price, detector: detector, recognizer: recognizer, judge: judge,
            options: options)
    }

    /// Every engine the reader uses is given here (see the properties): none is set later.
    public init(
        main: LazyEngine, scene: LazyEngine? = nil, reread: OCREngine? = nil, price: OCREngine? = nil, detector: TextDetector? = nil,
        recognizer: TextRecognizerNet? = nil, judge: any PriceJudge, options: AccuracyOptions
    ) {
        self.main = main
        self.recognizer = recognizer
        self.scene = scene
        self.rereadEngine = reread
        self.priceEngine = price
        self.detector = detector
        self.judge = judge
        self.options = options
        configureRegionReader()
    }

    /// The region reader's steps as `options` set them.
    private func configureRegionReader() {
        regionReader.flattenShadows = options.cropShadows
        regionReader.blurredEdgeShare = options.cropBlurredEdgeShare
    }

    /// The run's whole-language engine (see `main`).
    public func engine() throws(OCRError) -> OCREngine {
        try main.engine()
    }

    /// The engine that first reads a scene's regions (see `scene`).
    func sceneEngine() throws(OCRError) -> OCREngine {
        try (scene ?? main).engine()
    }

    /// Loads every engine now that would otherwise load on first use: live workers call it
    /// before the first frame, so no frame waits for a model to load.
    public func loadEngines() throws(OCRError) {
        _ = try main.engine()
        _ = try scene?.engine()
    }

    /// The text on `image` after preprocessing, the chosen reading and the re-reads.
    public func read(_ image: GrayImage) throws(OCRError) -> RecognizedPage {
        try read(image, mayTurn: true, mayFlip: true)
    }

    /// `read`; `mayTurn`: a file whose lines run up or down is turned a quarter and read
    /// again (`sidewaysTurn`), once; `mayFlip`: a file whose lines stand upside down is turned
    /// a half turn and read again (`upsideDown`), once, a sideways file after its quarter turn too.
    func read(_ image: GrayImage, mayTurn: Bool, mayFlip: Bool) throws(OCRError) -> RecognizedPage {
        let deskewStart = DispatchTime.now().uptimeNanoseconds
        let upright = deskewed(image)
        OCRLog.write("deskew in \(Self.ms(since: deskewStart)) ms")
        let start = DispatchTime.now().uptimeNanoseconds
        var regions: [TextRegion]
        // A blurred page is read by its rows with both readers (`blurredRows`).
        var blurred = false
        if options.reading == .auto, !image.isFrame, options.levelRows, options.blurredRows { blurred = try blurredPortrait(upright) }
        if options.reading == .page {
            regions = []
        } else if blurred {
            regions = try blurredPortraitRegions(upright, isFrame: image.isFrame)
        } else if options.reading == .auto, !image.isFrame, let first = try coarserRegions(upright) {
            // A document found at the coarser side, whose lines run level, is read as a page:
            // its boxes only choose the reading and find a lost price column, and their glyph
            // heights are measured on the ink at full resolution. Anything else is detected
            // again at the full working size, where scenes' small tags and the rows of a
            // page in perspective are found and cut best. The coarser boxes are fewer and
            // shorter, their directions less sure: they keep a page only when enough of them
            // run within the level spread less `coarseSlopeError` (a page near the limit,
            // crumpled or in perspective, is judged on the full detection).
            // With `levelRows` (the default) only a blurred portrait file gets here (its input
            // edges spread: `coarserRegions`), and only with `no-blurred-rows`: its level
            // document is read whole; every other portrait file is detected once, at the full
            // working size (above or below).
            let rowsWanted = levelRowsWanted
            if !rowsWanted, choose(first.regions, imageHeight: upright.height) == .page,
                Self.linesAreLevel(first.regions, within: Self.levelSpread - Self.coarseSlopeError, unmeasured: false)
            {
                OCRLog.write("document at \(options.documentSide) px: its boxes kept")
                regions = first.regions
            } else if first.nearFull, !rowsWanted {
                OCRLog.write("document at \(options.documentSide) px: its boxes stand for the full size's")
                regions = first.regions
            } else {
                // A blurred document's (its coarser input was sharpened) full input is sharpened too.
                // A scene's small text is detected again as a landscape scene's is.
                regions = try smallTextRegions(
                    learnedRegions(upright, document: detector?.lastInputSharpened ?? false), in: upright, isFrame: image.isFrame)
            }
        } else if options.reading == .auto, !image.isFrame, let coarse = try coarsePageRegions(upright) {
            regions = try smallTextRegions(coarse, in: upright, isFrame: image.isFrame)
        } else {
            regions = try smallTextRegions(learnedRegions(upright), in: upright, isFrame: image.isFrame)
        }
        // A page whose print measures blurred though its input did not is detected again
        // sharpened by its print's spread; measured sharp, the rows below need not measure it again.
        var leastSpread = 0.0, printSharp = false
        if !blurred {
            switch try printBlurredRegions(regions, in: upright, isFrame: image.isFrame) {
            case .detectedAgain(let again, let spread): (regions, blurred, leastSpread) = (again, true, spread)
            case .sharp: printSharp = true
            case nil: break
            }
        }
        if mayTurn, !image.isFrame, options.sideways, let turn = try sidewaysTurn(regions, in: upright),
            let turned = image.quarterTurned(turn)
        {
            OCRLog.write("sideways: turned \(turn == 1 ? "clockwise" : "counterclockwise") and read again")
            var page = try read(turned, mayTurn: false, mayFlip: mayFlip)
            page.quarterTurns = (page.quarterTurns + turn) % 4
            return page
        }
        let mode = options.reading == .auto ? choose(regions, imageHeight: upright.height) : options.reading
        if mayFlip, !image.isFrame, options.upsideDown, mode == .page || mode == .rows, try upsideDown(regions, in: upright),
            let turned = image.quarterTurned(2)
        {
            OCRLog.write("upside down: turned a half turn and read again")
            var page = try read(turned, mayTurn: false, mayFlip: false)
            page.quarterTurns = 2
            return page
        }
        OCRLog.write(
            "column \(layout.longestColumnExtent(regions)) of \(upright.height) lines \(regions.filter { $0.glyphs >= Self.documentLineGlyphs }.count) regions \(regions.count) stacked \(String(format: "%.2f", layout.stackedShare(regions))) in \(Self.ms(since: start)) ms -> \(mode)"
        )
        switch mode {
        case .regions, .auto:
            // Each crop is binarised on its own by Tesseract, so uneven light across the image
            // needs no correction here (background normalisation cost shelf-jp-dev recall
            // 0.63 -> 0.51: it flattens the tag cards' contrast).
            return try readRegions(regions, in: upright, isFrame: image.isFrame, since: start)
        case .page where options.reading == .auto && readsByRows(regions, isFrame: image.isFrame), .rows:
            let both =
                blurred
                || (options.blurredPrint && options.blurredRows && options.reading == .auto && !image.isFrame
                    && !printSharp && blurredPrint(regions, in: upright))
            if let (level, levelling) = levelled(upright, regions: regions, isFrame: image.isFrame, least: Self.levelRowsAngle) {
                let levelRegions = try withLeastSpread(leastSpread) { () throws(OCRError) in
                    try learnedRegions(level, document: blurred)
                }
                var page = try readRows(levelRegions, in: level, isFrame: image.isFrame, since: start, bothReaders: both)
                (page.width, page.height, page.levelling) = (upright.width, upright.height, levelling)
                return page
            }
            return try readRows(regions, in: upright, isFrame: image.isFrame, since: start, bothReaders: both)
        case .page:
            var (upright, regions, levelling) = (upright, regions, Levelling?.none)
            let given = (width: upright.width, height: upright.height)
            if let (level, l) = levelled(upright, regions: regions, isFrame: image.isFrame, least: Preprocess.deskewMinAngle) {
                (upright, levelling) = (level, l)
                if let coarser = try coarserRegions(level) { regions = coarser.regions } else { regions = try learnedRegions(level) }
            }
            // The document alone when it is a small part of the picture (`documentArea`).
            let whole = (width: upright.width, height: upright.height)
            let area = image.isFrame ? nil : Self.documentArea(regions, in: upright)
            if let area, let crop = upright.cropped(area) {
                OCRLog.write("document in \(area) of \(whole.width)x\(whole.height): read alone")
                upright = crop
                regions = regions.map { $0.moved(byX: -area.x, y: -area.y) }
            }
            let text = regions.map(\.rect)
            let page = try readPage(
                normalized(upright, isFrame: image.isFrame, text: text), isFrame: image.isFrame, original: image,
                lineGlyph: Self.lineGlyph(regions), text: text)
            var read = try withPriceColumn(page, regions: regions, in: upright, isFrame: image.isFrame)
            if let area, upright.width != whole.width || upright.height != whole.height {
                read = read.placed(atX: area.x, y: area.y, width: whole.width, height: whole.height)
            }
            if let levelling { (read.width, read.height, read.levelling) = (given.width, given.height, levelling) }
            return read
        }
    }

    /// A right-aligned column of prices that the page reading lost, read box by box.
    ///
    /// Tesseract's page layout reads a row as one line; across a wide gap, dot leaders or a
    /// script model beside Latin digits (a menu: `牛肉麵 ........ 180`) it can garble the number
    /// at the row's end while the row's text survives. The detector boxed each of those
    /// numbers: a short box whose right edge lines up with at least `columnPeers` others' (the
    /// column a menu, a price list or a receipt prints its prices in), that no word of the
    /// page reading holding a price overlaps, and that the page reading did not read surely
    /// as other words, is read alone; its line is added when it holds a price read as surely
    /// as one the second pass adds. When Tesseract reads such a box as digits but no sure
    /// price, or unsurely (`needsAnotherLook`), the line recogniser reads it too, and its
    /// reading counts when it holds a price it read surely (`recognized`). Tesseract reads a
    /// shadowed `2,11` as `2,18` at 0.49 and a receipt's `20,55` as `eo ,55`; the recogniser,
    /// trained on photographed print, reads both (amount recall up on eight of the fixture
    /// menus' ten perturbed copies: docs/benchmarks/2026-12-01-price-column-recogniser.md). A
    /// reading whose amount a page line over the box already holds is not added (below).
    func withPriceColumn(_ page: RecognizedPage, regions: [TextRegion], in image: GrayImage, isFrame: Bool) throws(OCRError)
        -> RecognizedPage
    {
        guard !isFrame, !regions.isEmpty else { return page }
        // The page's words that hold a price alone (`50.00`, not a garbled `150900000090000009`).
        let words = page.lines.flatMap(\.words)
        let priced = words.filter { w in
            w.text.contains(where: \.isNumber) && !judge.prices(in: [TextLine(words: [w])]).isEmpty
        }.compactMap(\.box)
        var out = page
        var added = 0
        for r in regions where r.glyphs <= Self.priceGlyphs {
            let right = r.rect.x + r.rect.width
            let tolerance = max(r.glyphHeight, 1)
            let peers = regions.filter { $0.rect != r.rect && abs($0.rect.x + $0.rect.width - right) <= tolerance }.count
            guard peers >= Self.columnPeers else { continue }
            let covered = priced.contains { $0.intersectionArea(r.rect) > 0 }
            if Self.readSurely(r.rect, by: words) { continue }
            // As sure as a price the second pass adds (`67 元` at 0.89 kept; a shadowed `2,11`
            // that Tesseract reads `2,18` at 0.49 is not, and the recogniser reads it instead).
            guard !covered else { continue }
            var line = try firstReading(r, in: image).line
            if surePrices(line).isEmpty,
                line.map({ !surelyNoPrice($0) && ($0.text.contains(where: \.isNumber) || needsAnotherLook($0)) }) ?? true,
                let read = recognized(r, instead: line, in: image)
            {
                line = read
            }
            let prices = surePrices(line)
            guard let line, !prices.isEmpty else { continue }
            // A price the page reading already holds on a line over the box is no lost price:
            // read alone it was only split differently (`CASH : 200. 00`), and a second copy of
            // it on a line of its own would stand for another amount (sroie-dev 043, where it
            // was marked as the total).
            let amounts = Set(prices.map(\.amount))
            let overlapping = page.lines.filter { $0.box.map { $0.intersectionArea(r.rect) > 0 } ?? false }
            if judge.prices(in: overlapping).contains(where: { amounts.contains($0.amount) }) { continue }
            out.lines.append(line)
            added += 1
        }
        if added > 0 {
            out.lines.sort { ($0.box?.y ?? 0, $0.box?.x ?? 0) < ($1.box?.y ?? 0, $1.box?.x ?? 0) }
            OCRLog.write("price column: \(added) boxes the page reading lost, read alone")
        }
        return out
    }

    /// The prices `line` holds when one of them is read as surely as one the second pass adds
    /// (`SecondPass.addedPriceConfidence`); empty otherwise.
    func surePrices(_ line: TextLine?) -> [PriceReading] {
        guard let line else { return [] }
        let prices = judge.prices(in: [line])
        return prices.contains { $0.confidence >= SecondPass.addedPriceConfidence } ? prices : []
    }

    /// Whether the page reading read `box` surely as words without digits (every word
    /// overlapping it has none and is at least `SecondPass.lowConfidence` sure: `CASH`,
    /// `CHANGE`): such a box was not a lost price, and read alone it would say the same
    /// (sroie-dev: 342 of 1288 column boxes, none of which the column rule had added; 20 ms an
    /// image). A box no word overlaps, or with an unsure word, or with digits the page read as
    /// no price (a menu's `14,00` read `L4,00` at 0.89), is read.
    static func readSurely(_ box: Box, by words: [TextWord]) -> Bool {
        let over = words.filter { ($0.box?.intersectionArea(box) ?? 0) > 0 }
        return !over.isEmpty
            && over.allSatisfy { $0.confidence >= SecondPass.lowConfidence && !$0.text.contains(where: \.isNumber) }
    }

    /// Right edges a price box must line up with to be in a column: two others make three in a
    /// line, the fewest that is a column rather than a coincidence of two rows.
    static let columnPeers = 2

    // MARK: preprocessing

    /// `image` rotated upright when Leptonica finds it skewed (see `Preprocess.deskewMinAngle`).
    func deskewed(_ image: GrayImage) -> GrayImage {
        guard options.preprocess, options.deskew else { return image }
        let m = Preprocess.measure(image)
        let d = image.deskewed(threshold: max(1, min(254, (m.low + m.high) / 2)), minAngle: Preprocess.deskewMinAngle)
        OCRLog.write("deskew angle \(d?.angle ?? 0) conf \(d?.confidence ?? 0)")
        if let d, d.angle != 0 { return d.image }
        return image
    }

    /// `image` after the background and contrast corrections its measurements call for, and,
    /// on a page that is not a live frame, unsharp masking when its edges are blurred (a frame
    /// is read again a moment later, within a budget the mask would eat into). Its ink and
    /// paper levels are measured inside `text`, the detector's boxes, when there are any
    /// (`Preprocess.measure(_:text:)`).
    func normalized(_ image: GrayImage, isFrame: Bool, text: [Box] = []) -> GrayImage {
        guard options.preprocess else { return image }
        let m = Preprocess.measure(image, text: text)
        var plan = Preprocess.plan(for: m)
        if !options.stretch { plan.stretch = nil }
        if !options.backgroundNorm { plan.backgroundNormalize = false }
        var out = Preprocess.apply(plan, to: image)
        var edge = 0.0
        if !isFrame, options.blurredEdge > 0 {
            // Measured after the corrections, on the contrast Tesseract will see.
            edge = out.edgeWidth()
            if let u = Preprocess.sharpening(edgeWidth: edge, blurredEdge: options.blurredEdge) {
                plan.unsharp = u
                out = Preprocess.apply(PreprocessPlan(unsharp: u), to: out)
            }
        }
        OCRLog.write("plan \(plan) shadow \(m.shadow) contrast \(m.contrast) edges spread \(edge) px \(m)")
        return out
    }

    /// The part of a picture a document read whole takes: the rectangle of its text boxes,
    /// grown by `documentMargin` line heights on every side, when that is at most
    /// `documentShare` of the picture. Tesseract's page layout reads everything it is given: a
    /// receipt photographed on a grainy table had the grain read as lines that ran into the
    /// receipt's (`zu zahlen` joined to junk and a wrong amount), and the table's dark set off
    /// the shadow correction meant for the paper. Nil when the text fills most of the picture
    /// (a scan, a cropped photo) or the picture around it is as light as its paper (a receipt
    /// on an A4 scan): those are read as they are.
    static func documentArea(_ regions: [TextRegion], in image: GrayImage) -> Box? {
        guard let first = regions.first,
            let area = textArea(regions, margin: documentMargin * (lineGlyph(regions) ?? first.glyphHeight), in: image),
            Double(area.width * area.height) <= documentShare * Double(image.width * image.height)
        else { return nil }
        // Around a scanned receipt lies the scanner's white lid, which Tesseract reads as the
        // blank it is; around a photographed one, a table.
        let (inside, outside) = medianLevels(image, inside: area)
        return Double(outside) < surroundShade * Double(inside) ? area : nil
    }

    /// The rectangle of `regions`' boxes grown by `m` px on every side, and by `share` of its
    /// own width and height when that is more, within `image`; nil without boxes.
    static func textArea(_ regions: [TextRegion], margin m: Int, share: Double = 0, in image: GrayImage) -> Box? {
        guard let first = regions.first else { return nil }
        let text = regions.dropFirst().reduce(first.rect) { $0.union($1.rect) }
        let mx = max(m, Int(share * Double(text.width))), my = max(m, Int(share * Double(text.height)))
        let x0 = max(0, text.x - mx), y0 = max(0, text.y - my)
        let area = Box(
            x: x0, y: y0, width: min(image.width, text.x + text.width + mx) - x0,
            height: min(image.height, text.y + text.height + my) - y0)
        return area.width > 0 && area.height > 0 ? area : nil
    }

    /// How dark the surround of a document must be, against its paper, for the document to be
    /// cut out of the picture: a quarter darker is no paper of the same sheet or lid.
    static let surroundShade = 0.75

    /// The median gray levels inside and outside `area` of `image`, from about 100 000 pixels
    /// sampled on a grid (the outside's: the whole picture's samples less the area's).
    static func medianLevels(_ image: GrayImage, inside area: Box) -> (inside: Int, outside: Int) {
        let step = max(1, Int((Double(image.width * image.height) / 100_000).squareRoot()))
        let whole = image.tileHistograms(columns: 1, rows: 1, step: step).first ?? []
        let hin = image.cropped(area)?.tileHistograms(columns: 1, rows: 1, step: step).first ?? []
        guard whole.count == 256, hin.count == 256 else { return (0, 0) }
        let hout = (0..<256).map { whole[$0] > hin[$0] ? whole[$0] - hin[$0] : 0 }
        return (ImageMeasurements.percentile(hin, 0.5), ImageMeasurements.percentile(hout, 0.5))
    }

    /// Line heights of paper kept around a document's text: Tesseract finds a line by the
    /// background about it, and a receipt's own margins are a few lines wide.
    static let documentMargin = 3

    /// Share of the text's rectangle added on each side of it when a scene is detected again on
    /// its area (`textAreaRegions`): the text the first pass missed, too small for it, lies
    /// beyond what it found as well as among it. On shelf-jp-dev's photos laid in a 5 120 ×
    /// 3 840 frame, the boxes found on the whole frame, grown by three glyphs, made areas as
    /// narrow as 1 494 of a shelf's 1 920 px (the tags at its ends unseen) or as low as 847 of
    /// its 1 080; those areas cut off tags and read worse than the whole frame (amount recall
    /// 0.673 against 0.776). A quarter on each side, the found extent half again, took in
    /// every shelf (0.918).
    static let textAreaShare = 0.25
    /// Most of a picture a document may take and still be cut out of it: what lies around a
    /// larger one is a thin border of the frame, not worth a copy of the picture. The surround
    /// test decides the rest. At one half, a phone's photo of a long receipt (half the frame's
    /// width, most of its height with the margins: 14 of receipts-de's 26 `phone` copies) was
    /// read with its table, whose grain Tesseract read as lines; all 26 cut out, totals went
    /// 0.885 -> 0.923 and marked totals 0.769 -> 0.923, no dev set or fixture family moving
    /// (docs/benchmarks/2026-11-27-phone-cut.md).
    static let documentShare = 0.9

    /// The quarter turns clockwise (1, or 3: counterclockwise) that stand a file photographed
    /// sideways upright, or nil: its text runs across the picture, or no turn reads surely.
    ///
    /// The detector finds a line of text whichever way it runs; a camera held sideways, its
    /// orientation not in the file (stripped by an app, or a scanner's), makes every line run
    /// up or down the picture, which Tesseract and the line recogniser, trained on level lines,
    /// read as noise. When most of the lines that are long (at least `sidewaysAspect` times as
    /// long as thick: a word or more) run up or down, and they are `sidewaysLines` or more,
    /// the `sidewaysProbes` longest are read turned either way, and the turn that reads more
    /// characters surely (in words at `weakDigits` or more) wins when they are
    /// `sidewaysSureCharacters` or more and `sidewaysMargin` times the other turn's: read the
    /// wrong way up, Latin print comes back as noise at almost no confidence. Text
    /// written vertically (Japanese tategaki on a menu or a sign) reads as noise either way,
    /// and stays as it is.
    func sidewaysTurn(_ regions: [TextRegion], in image: GrayImage) throws(OCRError) -> Int? {
        let long = regions.filter {
            max($0.rect.width, $0.rect.height) >= Int(Self.sidewaysAspect * Double(min($0.rect.width, $0.rect.height)))
        }
        let upDown = long.filter { $0.rect.height > $0.rect.width }
        guard upDown.count >= Self.sidewaysLines, upDown.count * 2 > long.count else { return nil }
        let (sure, characters) = try turnedReadings(
            Array(upDown.sorted(by: { $0.rect.height > $1.rect.height }).prefix(Self.sidewaysProbes)), in: image, turns: [1, 3])
        let best = sure[1, default: 0] >= sure[3, default: 0] ? 1 : 3, other = 4 - best
        OCRLog.write(
            "sideways? \(upDown.count) of \(long.count) long lines run up or down; characters read surely of all: clockwise \(sure[1, default: 0])/\(characters[1, default: 0]), counterclockwise \(sure[3, default: 0])/\(characters[3, default: 0])"
        )
        return Self.readsSurely(sure[best, default: 0], over: sure[other, default: 0]) ? best : nil
    }

    /// Whether a turn whose probes Tesseract read with `sure` characters surely beats one with
    /// `other`: `sidewaysSureCharacters` or more, and `sidewaysMargin` times as many.
    static func readsSurely(_ sure: Int, over other: Int) -> Bool {
        sure >= sidewaysSureCharacters && sure >= sidewaysMargin * other
    }

    /// The characters of the words Tesseract reads surely (at `weakDigits` or more) in
    /// `probes`, each cut from `image` and turned clockwise by each of `turns` quarter turns,
    /// and the characters of all its words, per turn.
    func turnedReadings(_ probes: [TextRegion], in image: GrayImage, turns: [Int]) throws(OCRError) -> (
        sure: [Int: Int], characters: [Int: Int]
    ) {
        var sure: [Int: Int] = [:], characters: [Int: Int] = [:]
        for q in turns { (sure[q], characters[q]) = (0, 0) }
        for r in probes {
            let box = RegionReader.crop(r.rect, padded: Int((r.thickness * regionReader.padding).rounded(.up)), in: image)
            guard box.width > 2, box.height > 2, let crop = image.cropped(box) else { continue }
            for q in turns {
                guard let turned = crop.quarterTurned(q) else { continue }
                let glyph = max(1, Int((r.thickness * TextDetector.glyphShare).rounded()))
                let whole = TextRegion(
                    rect: Box(x: 0, y: 0, width: turned.width, height: turned.height), glyphHeight: glyph,
                    glyphs: max(1, turned.width / glyph), lightOnDark: r.lightOnDark, thickness: r.thickness)
                var reader = regionReader
                reader.padding = 0
                let read = try reader.read(whole, in: turned, engine: engine())
                OCRLog.write(
                    "  turned \(q) quarters: [\(read?.words.map { "\($0.text)@\(Int($0.confidence * 100))" }.joined(separator: " ") ?? "")]"
                )
                for w in read?.words ?? [] {
                    let n = w.text.filter { !$0.isWhitespace }.count
                    characters[q, default: 0] += n
                    if w.confidence >= Self.weakDigits { sure[q, default: 0] += n }
                }
            }
        }
        return (sure, characters)
    }

    /// Whether a document's text stands upside down (a scene's is not asked: its lines are
    /// short, a tag's price often digits alone, which read alike either way up, `6` and `9`,
    /// `0` and `8`; on shelf-jp-dev's copies the classifier judged tags upside down at up to
    /// 0.99 and Tesseract read 14–15 characters surely on them turned: 5 of its 11 copies had
    /// a photo turned wrongly before the rule asked documents only). Its level lines (at least `sidewaysAspect`
    /// times as long as thick, `sidewaysLines` or more of them), the `directionProbes` longest,
    /// are judged by PP-OCR's direction classifier (`TextDirectionNet`, trained on real text
    /// lines either way up); when their mean probability of standing upside down is over one
    /// half (the classifier's own boundary), the `sidewaysProbes` longest are read by
    /// Tesseract as they stand and turned a half turn, and the turn must read surely as a
    /// sideways turn must (`sidewaysSureCharacters`, `sidewaysMargin`). A camera photographing
    /// a receipt or a menu from the far side of a table stores the picture upside down with an
    /// upright orientation, which Tesseract reads as noise. The classifier alone is not enough:
    /// every receipts-de, sroie-dev and menu page turned stood at 0.73 or over, but on the
    /// upright pages and their copies 29 of 1 526 stood over one half (blurred, tilted, small
    /// print; clean receipts up to 0.41), all refused by the reading
    /// (docs/benchmarks/2026-12-06-upside-down.md).
    func upsideDown(_ regions: [TextRegion], in image: GrayImage) throws(OCRError) -> Bool {
        guard let direction = recognizer?.direction, options.recognizer else { return false }
        let level = regions.filter { $0.rect.width >= Int(Self.sidewaysAspect * Double($0.rect.height)) }
            .sorted { $0.rect.width > $1.rect.width }
        guard level.count >= Self.sidewaysLines else { return false }
        let start = DispatchTime.now().uptimeNanoseconds
        var p: [Double] = []
        for r in level.prefix(Self.directionProbes) {
            do { p.append(try direction.upsideDown(image, box: r.rect)) } catch { throw .recognitionFailed("\(error)") }
        }
        let mean = p.reduce(0, +) / Double(max(1, p.count))
        OCRLog.write(
            "upside down? \(p.count) of \(level.count) level lines judged, mean \(String(format: "%.2f", mean)) in \(Self.ms(since: start)) ms"
        )
        guard mean > 0.5 else { return false }
        let (sure, characters) = try turnedReadings(Array(level.prefix(Self.sidewaysProbes)), in: image, turns: [0, 2])
        OCRLog.write(
            "upside down? characters read surely of all: as it stands \(sure[0, default: 0])/\(characters[0, default: 0]), turned \(sure[2, default: 0])/\(characters[2, default: 0])"
        )
        return Self.readsSurely(sure[2, default: 0], over: sure[0, default: 0])
    }

    /// How many of a file's longest level lines the direction classifier judges: a few lines
    /// of words, not a receipt's every digit row (each costs about a millisecond).
    static let directionProbes = 8

    /// A detector's box at least this many times as long as thick is a line of text (a word of
    /// three or four glyphs or more) whose direction counts; a shorter one (a glyph, a number
    /// of two digits) stands either way.
    static let sidewaysAspect = 3.0
    /// Fewest lines running up or down that say a picture is sideways: one or two are a
    /// vertical label, a spine, a price on a rotated card.
    static let sidewaysLines = 3
    /// How many of the longest such lines are read turned either way: a receipt's longest
    /// lines are as often card data or a barcode's digits, read unsurely both ways.
    static let sidewaysProbes = 5
    /// Fewest characters the winning turn must read surely (in words at `weakDigits` or more):
    /// a word or an amount. On receipts-de and the fixture menus turned a quarter either way,
    /// the right turn read 3–95 characters surely, the wrong one 0–15 (a receipt's card data
    /// and barcode digits read unsurely both ways).
    static let sidewaysSureCharacters = 4
    /// How many times the other turn's surely read characters the winning turn's must be: the
    /// wrong turn read at most 15 where the right one read 30, and 12 where the right one read
    /// 7 (left as it is: no turn is sure).
    static let sidewaysMargin = 2

    /// The learned detector's text boxes as regions, at the full working size or with the
    /// working image's longest side at most `side`; `document`: a document's detection, its
    /// input sharpened when blurred (`TextDetector.documentSharpening`).
    func learnedRegions(_ image: GrayImage, side: Int? = nil, document: Bool = false) throws(OCRError) -> [TextRegion] {
        let detector = try learnedDetector()
        let t0 = DispatchTime.now().uptimeNanoseconds
        let boxes: [RotatedTextBox]
        do {
            boxes = document || side != nil ? try detector.detect(image, side: side, document: document) : try detector.detect(image)
        } catch {
            throw .recognitionFailed("\(error)")
        }
        let t1 = DispatchTime.now().uptimeNanoseconds
        let regions = detector.regions(boxes, in: image)
        OCRLog.write(
            "detector\(side.map { " at \($0) px" } ?? ""): \(boxes.count) boxes in \(Self.ms(since: t0)) ms (their regions \(Self.ms(since: t1)) ms)"
        )
        return regions
    }

    /// A file's page's first, coarser detection (`AccuracyOptions.documentSide`); nil when it
    /// is switched off, the image is not portrait, the side is not smaller than the full
    /// working size, or level documents are read by their rows and the input is not blurred
    /// (`TextDetector.inputBlurred` at that side): the coarser pass then chooses nothing. Only
    /// portrait images are tried so: a page read whole is taller than wide (every receipt and
    /// menu of the dev sets and fixtures: 1.13–3.94 times), while a
    /// camera's scene is mostly wider, and the coarser pass would only add to its detection
    /// (shelf-jp-dev, 16:9: +30% time).
    ///
    /// `nearFull`: the full working size is less than `fullDetectionGain` times the coarser
    /// one (an image whose longest side is under 1 200 px), so a full detection would see the
    /// same glyphs hardly larger, and the coarser boxes stand for its boxes too.
    func coarserRegions(_ image: GrayImage) throws(OCRError) -> (regions: [TextRegion], nearFull: Bool)? {
        guard let (detector, side, coarser, full) = try coarserSide(image) else { return nil }
        // A level document read by its rows needs the full detection's boxes anyway
        // (`levelRows`): the coarser pass would only tell a blurred page, to be read whole
        // (`no-blurred-rows`), and the input's edges tell that without the net.
        if options.levelRows, options.blurredRows || !detector.inputBlurred(image, side: side) { return nil }
        return (try learnedRegions(image, side: side, document: true), full < Self.fullDetectionGain * coarser)
    }

    /// Whether a document's print is blurred as its lines would be read: the median of its
    /// lines' edge spreads (`RegionReader.edgeShare`, boxes of at least `documentLineGlyphs`
    /// glyphs, at most `blurredPrintLines` of them spread over the page) is over the share
    /// at which a crop is sharpened (`RegionReader.blurredEdgeShare`).
    func blurredPrint(_ regions: [TextRegion], in image: GrayImage) -> Bool {
        guard let (share, _) = printEdges(regions, in: image) else { return false }
        return share > regionReader.blurredEdgeShare
    }

    /// The median edge spread of a document's lines as a share of their glyph (as
    /// `blurredPrint` measures it) and their median glyph height (image px); nil when no line
    /// is measured or crops are never sharpened.
    func printEdges(_ regions: [TextRegion], in image: GrayImage) -> (share: Double, glyph: Int)? {
        let lines = regions.filter { $0.glyphs >= Self.documentLineGlyphs }.sorted { $0.rect.y < $1.rect.y }
        guard !lines.isEmpty, regionReader.blurredEdgeShare > 0 else { return nil }
        let step = max(1, (lines.count + Self.blurredPrintLines - 1) / Self.blurredPrintLines)
        let measured = stride(from: 0, to: lines.count, by: step).compactMap { k in
            regionReader.edgeShare(lines[k], in: image).map { (share: $0, glyph: lines[k].glyphHeight) }
        }
        guard let share = measured.map(\.share).median, let glyph = measured.map(\.glyph).median else { return nil }
        OCRLog.write("print's edges: median \(String(format: "%.3f", share)) of the glyph over \(measured.count) lines")
        return (share, glyph)
    }

    /// What `printBlurredRegions` found on a page whose print it measured.
    enum PrintBlur {
        /// The print measures sharp (`blurredPrint` is false on the same regions).
        case sharp
        /// The print measures blurred: the page detected again, sharpened by `spread` px.
        case detectedAgain(regions: [TextRegion], spread: Double)
    }

    /// A portrait file's page detected again, its input sharpened, when the print of the
    /// lines found measures blurred (`printEdges` over `RegionReader.blurredEdgeShare`) though
    /// the whole input's edges did not (`blurredPortrait`); nil when it does not apply (the
    /// print not measured).
    ///
    /// A receipt photographed half the width of a phone's frame on a grainy table: the table's
    /// grain and the receipt's sharp outline make the whole image's edges look sharp (a
    /// blurred receipt's phone photo measured 1.50 px at 960 px, its sharp original's photo
    /// 1.93), so its detector input is not sharpened and the network finds a few boxes of the
    /// receipt (4 of about 80), read as a scene. The lines it did find carry the blur: the
    /// spread they measure, as a share of their glyph, times their glyph height at the working
    /// scale, is the spread the detection sharpens by (`InputSharpening.leastSpread`). The
    /// page is then read as a blurred portrait page is (`blurredPortraitRegions`, both readers).
    func printBlurredRegions(_ regions: [TextRegion], in image: GrayImage, isFrame: Bool) throws(OCRError) -> PrintBlur? {
        guard options.printBlurredDetection, options.reading == .auto, !isFrame, options.levelRows, options.blurredRows,
            options.blurredPrint, let detector, detector.documentSharpening.blurredEdge > 0, !detector.lastInputSharpened,
            try coarserSide(image) != nil,
            let (share, glyph) = printEdges(regions, in: image)
        else { return nil }
        guard share > regionReader.blurredEdgeShare else { return .sharp }
        let spread = share * Double(glyph) * detector.workingSize(width: image.width, height: image.height).scale
        OCRLog.write(
            "print blurred (\(String(format: "%.3f", share)) of a \(glyph) px glyph): detected again sharpened by \(String(format: "%.1f", spread)) px"
        )
        let found = try withLeastSpread(spread) { () throws(OCRError) in try blurredPortraitRegions(image, isFrame: isFrame) }
        return .detectedAgain(regions: found, spread: spread)
    }

    /// `body` run with the detector's document sharpening taking edges to spread at least
    /// `spread` px (`InputSharpening.leastSpread`); 0: as measured.
    func withLeastSpread<T>(_ spread: Double, _ body: () throws(OCRError) -> T) throws(OCRError) -> T {
        guard spread > 0, let detector else { return try body() }
        let kept = detector.documentSharpening.leastSpread
        detector.documentSharpening.leastSpread = spread
        defer { detector.documentSharpening.leastSpread = kept }
        return try body()
    }

    /// Lines measured at most by `blurredPrint`, spread over the page: its median is the
    /// page's as surely as all of them (sroie-dev/blur pages of 13–22 measured lines all fell
    /// 0.05 or more from the bound), and a receipt of 100 lines costs no more to judge.
    static let blurredPrintLines = 24

    /// The regions of a blurred portrait page (`blurredPortrait`): the full detection's, its
    /// input sharpened (the coarser pass would choose nothing), detected again when small or
    /// unsure as a document is. When those boxes make a scene (`choose`: regions, a shelf in a
    /// portrait frame), it is detected again as scenes are, its input as it is: sharpened, a
    /// scene's boxes change and its tags read worse (shelf-jp-dev's phone copy, whose photos
    /// measure 3.1–3.3 px at the working size, read 0.939 of its prices sharpened at amount 1,
    /// 0.878 at 2, 0.959 as it is; `TextDetector.documentSharpening`).
    ///
    /// A scene is told on the first boxes already, before their small text is detected again:
    /// that second detection of a page's small print (a 12 MP shelf photo's tags: 0.4 s) would
    /// only be thrown away with the sharpened boxes.
    func blurredPortraitRegions(_ upright: GrayImage, isFrame: Bool) throws(OCRError) -> [TextRegion] {
        let first = try learnedRegions(upright, document: true)
        if choose(first, imageHeight: upright.height) == .page {
            let sharpened = try smallTextRegions(first, in: upright, isFrame: isFrame, document: true)
            guard choose(sharpened, imageHeight: upright.height) == .regions else { return sharpened }
        }
        OCRLog.write("blurred portrait page is a scene: detected again as it is")
        return try smallTextRegions(learnedRegions(upright), in: upright, isFrame: isFrame)
    }

    /// Whether a file's portrait page is blurred as the coarser pass would judge it
    /// (`coarserSide`, then `TextDetector.inputBlurred` at `documentSide`).
    func blurredPortrait(_ image: GrayImage) throws(OCRError) -> Bool {
        guard let (detector, side, _, _) = try coarserSide(image) else { return false }
        return detector.inputBlurred(image, side: side)
    }

    /// The detector, the coarser side and the coarser and full scales for a file's `image`
    /// when a coarser pass could apply: `documentSide` on, a portrait image, the side under
    /// the full working size. Nil otherwise.
    private func coarserSide(_ image: GrayImage) throws(OCRError) -> (TextDetector, side: Int, coarser: Double, full: Double)? {
        let side = options.documentSide
        guard side > 0, image.height > image.width else { return nil }
        let detector = try learnedDetector()
        let coarser = detector.workingSize(width: image.width, height: image.height, side: side).scale
        let full = detector.workingSize(width: image.width, height: image.height).scale
        return coarser < full ? (detector, side, coarser, full) : nil
    }

    /// A portrait file's page detected at a coarser scale than the full working size, when its
    /// print is large enough to be found there; nil: detect it at the full size.
    ///
    /// The network's time goes by the pixels it is given, and it finds a line once its glyphs
    /// stand about `AccuracyOptions.coarsePageGlyph` px tall in its input: a page of large
    /// print (a menu's 16–24 px dishes and prices) detected at its own size costs twice what
    /// finds the same lines. A band across the page's middle (`probeBandShare` of its height,
    /// where a menu's dishes and a receipt's items stand) is detected first at the longest
    /// side `AccuracyOptions.coarsePageSide`; the tenth percentile of its boxes' glyph heights,
    /// measured on the ink at full resolution (the page's small print, not one stray mark),
    /// sets the scale that makes it `coarsePageGlyph` px tall, never below the band's own (print
    /// the band's scale missed would be smaller still). The page is detected there when that is
    /// `fullDetectionGain` times coarser than the full working size or more, else at full size
    /// (a band with no box: full size too). Only portrait images: pages (see `coarserRegions`);
    /// a scene's small tags beside large packaging print are the small-text rule's
    /// (`smallTextRegions`). The band costs a receipt of small print a twentieth to a tenth of its
    /// detection (docs/benchmarks/2026-12-05-coarse-page.md).
    func coarsePageRegions(_ image: GrayImage) throws(OCRError) -> [TextRegion]? {
        let side = options.coarsePageSide, glyph = options.coarsePageGlyph
        guard side > 0, glyph > 0, image.height > image.width, let detector else { return nil }
        let full = detector.workingSize(width: image.width, height: image.height).scale
        let coarse = detector.workingSize(width: image.width, height: image.height, side: side).scale
        guard coarse * Self.fullDetectionGain <= full else { return nil }
        let bandHeight = max(1, image.height / Self.probeBandShare)
        let band = Box(x: 0, y: (image.height - bandHeight) / 2, width: image.width, height: bandHeight)
        guard let crop = image.cropped(band) else { return nil }
        let start = DispatchTime.now().uptimeNanoseconds
        let boxes: [RotatedTextBox]
        do { boxes = try detector.detect(crop, scale: coarse) } catch { throw .recognitionFailed("\(error)") }
        let glyphs = detector.regions(boxes, in: crop).map(\.glyphHeight).sorted()
        let small = glyphs.isEmpty ? nil : glyphs[glyphs.count / 10]
        let chosen = Self.coarsePageScale(smallPrint: small, coarse: coarse, full: full, glyph: glyph)
        OCRLog.write(
            "page band \(band) at scale \(String(format: "%.3f", coarse)): \(boxes.count) boxes, small print \(small.map(String.init) ?? "none") px in \(Self.ms(since: start)) ms -> \(chosen.map { "scale \(String(format: "%.3f", $0))" } ?? "full size \(String(format: "%.3f", full))")"
        )
        guard let chosen else { return nil }
        return try detectedAgain(image, scale: chosen, with: detector) {
            "page detected at scale \(String(format: "%.3f", chosen)): \($0) boxes in \($1) ms"
        }
    }

    /// The scale to detect a page at (`coarsePageRegions`): the one that makes its small print
    /// (image px; nil: the band held no box) `glyph` px tall, never below the band's `coarse`
    /// scale; nil (the full working scale) when that is not `fullDetectionGain` times under `full`.
    static func coarsePageScale(smallPrint: Int?, coarse: Double, full: Double, glyph: Double) -> Double? {
        guard let smallPrint else { return nil }
        let wanted = max(coarse, glyph / Double(max(1, smallPrint)))
        return wanted * fullDetectionGain <= full ? wanted : nil
    }

    /// The band across a page's middle that `coarsePageRegions` detects first: a quarter of
    /// its height, 5–15 lines of a receipt or a menu.
    static let probeBandShare = 4

    /// Whether a document found as `regions` is read by its boxes in rows (`read`): a page in
    /// perspective, or a level one of a file with `levelRows`. A live frame's level document
    /// keeps the page reading: the frame's budget was measured on it, and rows read every box.
    func readsByRows(_ regions: [TextRegion], isFrame: Bool) -> Bool {
        options.documentReading == .rows && (!Self.linesAreLevel(regions) || (levelRowsWanted && !isFrame))
    }

    /// Whether a level document of a file is read by its rows (`AccuracyOptions.levelRows`); a
    /// blurred page (the last detection's input sharpened) only with `blurredRows`, else whole.
    var levelRowsWanted: Bool { options.levelRows && (options.blurredRows || !(detector?.lastInputSharpened ?? false)) }

    /// A file's scene detected again, enlarged, when the detector saw its text small, or at its
    /// own size when the detector, working on it downscaled, was unsure of its text
    /// (`unsureSceneScale`).
    ///
    /// The network finds text of the size it was trained on; the same shelf photographed at a
    /// third of the resolution puts its tags' digits at 8 px, where it finds none on four of
    /// five photos (shelf-jp-dev at 0.35: amount recall 0.122; RapidOCR, which enlarges every
    /// image's shorter side to 736 px, 0.714). The boxes' median glyph height, measured on the
    /// ink at full resolution, tells how large the network saw the text: under
    /// `AccuracyOptions.smallTextGlyph` at the working scale, the image is detected again at
    /// the scale that brings it there (no box found: the largest), within
    /// `TextDetector.largestScale`, when that is at least `fullDetectionGain` times the first
    /// scale (a smaller step changes little of what the network finds), and the network was
    /// not sure of the text it found (`sureScore`). Its boxes replace the first ones.
    /// Live frames keep their size: their budget is the frame's. A document read
    /// as a page is not detected again: Tesseract reads it at its own enlargement
    /// (`AccuracyOptions.smallGlyph`), its boxes only choose the reading; detected again, the
    /// small receipt and menu copies took 19–52% longer for a total and a price more (sroie-dev
    /// and the fixture menus at 0.35) and a marked total less. A document read by its rows
    /// (`readsByRows`) is: its boxes are what is read, and a receipt small in a large photo
    /// lost most of its lines at the photo's working size (sroie-dev's phone copy, `027`: 5 of
    /// its 10 amounts, the total lost). Detected again, sroie-dev's phone copy reads a total
    /// more (0.937 → 0.952) and its 0.35 copy four marked totals more (0.825 → 0.889); every
    /// other document set, copy and fixture family reads the same
    /// (docs/benchmarks/2026-12-05-level-rows-default.md).
    func smallTextRegions(_ first: [TextRegion], in image: GrayImage, isFrame: Bool, document: Bool = false) throws(OCRError)
        -> [TextRegion]
    {
        guard !isFrame, options.reading != .page, let detector,
            options.reading != .auto || choose(first, imageHeight: image.height) != .page
                || readsByRows(first, isFrame: isFrame)
        else { return first }
        let now = detector.workingSize(width: image.width, height: image.height).scale
        let most = detector.largestScale(width: image.width, height: image.height)
        let glyph = first.map(\.glyphHeight).median.map { max(1, $0) }, score = first.map(\.score).median
        let side = options.unsureSceneSide ?? Int(Double(detector.maxSide) * Self.fullDetectionGain)
        if let area = try textAreaRegions(first, in: image, scale: now, largest: most, glyph: glyph, score: score, document: document) {
            return area
        }
        guard
            let wanted =
                (options.smallTextGlyph > 0
                    ? Self.smallTextScale(
                        medianGlyph: glyph, medianScore: score, scale: now, largest: most, target: options.smallTextGlyph) : nil)
                ?? Self.unsureSceneScale(medianScore: score, scale: now, width: image.width, height: image.height, side: side)
        else { return first }
        return try detectedAgain(image, scale: wanted, with: detector, document: document) {
            "small or unsure text (median glyph \(glyph.map(String.init) ?? "none") px, score \(score.map { String(format: "%.2f", $0) } ?? "none"), at scale \(now)): detected again at scale \(wanted), \($0) boxes in \($1) ms"
        }
    }

    /// The regions `detector` finds on `image` at `scale`, logged by `log` (given the boxes
    /// found and the milliseconds taken).
    func detectedAgain(
        _ image: GrayImage, scale: Double, with detector: TextDetector, document: Bool = false, log: (Int, Double) -> String
    ) throws(OCRError) -> [TextRegion] {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let boxes: [RotatedTextBox]
        do { boxes = try detector.detect(image, scale: scale, document: document) } catch { throw .recognitionFailed("\(error)") }
        let regions = detector.regions(boxes, in: image)
        OCRLog.write(log(boxes.count, Self.ms(since: t0)))
        return regions
    }

    /// A file's scene whose text the detector saw small, detected again on the area of its
    /// boxes alone when that lets the network see it larger than the whole picture can: a
    /// shelf or a receipt that takes a part of a large photo (a phone's 12–20 MP frame of a
    /// shelf across the aisle, a receipt on a table). The working size bounds the detector's
    /// cost by the pixels it is given (`TextDetector.maxSide`), so on the whole frame the
    /// text's glyphs stay as small as the frame is large; the area is detected at the working
    /// size of a photo of it alone. Not at the small-text glyph: the boxes' median glyph
    /// is the packaging's large print as often as the tags' (40 px on one shelf photo, whose
    /// area detected for 18 px found 5 boxes where its working size found 22). The area is
    /// the boxes' rectangle grown by `textAreaShare` of itself on each side, at least
    /// `documentMargin` median glyphs. Used only when the small-text rule asks for more than
    /// the whole picture allows and the area's scale is at least `fullDetectionGain` times the
    /// whole picture's (a smaller step changes little of what the network finds); its boxes
    /// replace the first. Nil otherwise: the text fills the picture, or is seen large enough.
    ///
    /// `largest`: the whole picture's largest detection scale (`TextDetector.largestScale`).
    func textAreaRegions(
        _ first: [TextRegion], in image: GrayImage, scale now: Double, largest most: Double, glyph: Int?, score: Double?,
        document: Bool = false
    ) throws(OCRError) -> [TextRegion]? {
        guard options.textArea, options.smallTextGlyph > 0, let detector, let glyph,
            let area = Self.textArea(first, margin: Self.documentMargin * glyph, share: Self.textAreaShare, in: image)
        else { return nil }
        let wanted = detector.workingSize(width: area.width, height: area.height).scale
        guard wanted >= Self.fullDetectionGain * most,
            Self.smallTextScale(
                medianGlyph: glyph, medianScore: score, scale: now, largest: .infinity, target: options.smallTextGlyph) ?? 0 > most,
            let crop = image.cropped(area)
        else { return nil }
        return try detectedAgain(crop, scale: wanted, with: detector, document: document) {
            "small text (median glyph \(glyph) px at scale \(now)) in \(area) of \(image.width)x\(image.height): detected again there at scale \(wanted), \($0) boxes in \($1) ms"
        }.map { $0.moved(byX: area.x, y: area.y) }
    }

    /// The scale to detect a scene again at (`smallTextRegions`): the one that makes its median
    /// glyph (image px; nil: no box found) `target` px tall, at most `largest`; nil when that is
    /// less than `fullDetectionGain` times the first detection's `scale`, or when the network
    /// was sure of what it found (its boxes' median score at least `sureScore`).
    static func smallTextScale(medianGlyph: Int?, medianScore: Double?, scale: Double, largest: Double, target: Int) -> Double? {
        if let medianScore, medianScore >= sureScore { return nil }
        let wanted = min(largest, medianGlyph.map { Double(target) / Double(max(1, $0)) } ?? largest)
        return wanted >= fullDetectionGain * scale ? wanted : nil
    }

    /// The scale to detect a scene again at when the network was unsure of its text (its boxes'
    /// median score under `sureScore`, or no box) at a working `scale` under the image's own
    /// size: its own size, its longest side at most `side` (`AccuracyOptions.unsureSceneSide`);
    /// nil when that is not larger than `scale` or the network was sure. Blurred text is the
    /// case: shelf-jp-dev's photos blurred as `scripts/perturb.py blur` makes them (a Gaussian
    /// of 0.15% of the longer side) scored 0.68–0.77 at the 1 600 px working size, where the
    /// network found 7–15 boxes a photo and amount recall was 0.143; at their own 1 920 px,
    /// 0.327 (RapidOCR, which detects a 1080p photo at its own size: 0.347). The clean photos
    /// scored 0.82–0.85 and are not detected again. Enlarging past the image's own size is the
    /// small-text rule's (`smallTextScale`), which goes first.
    static func unsureSceneScale(medianScore: Double?, scale: Double, width: Int, height: Int, side: Int) -> Double? {
        if let medianScore, medianScore >= sureScore { return nil }
        guard side > 0 else { return nil }
        let own = min(1, Double(side) / Double(max(1, width, height)))
        return own > scale ? own : nil
    }

    /// The boxes' median score (the mean probability of the network's map in each) at which
    /// the network saw a scene's text well enough not to detect it again enlarged. On the
    /// shelf-jp-dev photos at the 1 600 px working size, where it found their tags, the
    /// median was 0.80–0.85 a photo; the same photos at half size scored 0.64–0.79 at their
    /// own size, and detected again enlarged gave 3 more prices of 49. Small but crisp text
    /// is seen surely: the fixture frames of 640 × 480 with 9–10 px glyphs scored 0.83–0.86,
    /// and detected again enlarged they gave nothing more at 2.3 times the time.
    static let sureScore = 0.80

    /// How much larger the full detection must see a page's glyphs than the coarser one to be
    /// run after it (`coarserRegions`). 1.25 is the step from 1 280 to 1 600 px, the smallest
    /// that changed what the network found (`TextDetector.maxSide`). On a page under 1 200 px
    /// (the fixture menus, 860 × 1 020–1 200) the two detections were 0.80–0.94 of each
    /// other's scale and the second one cost as much as the first (tilted menus: 13.4 s of
    /// 45 s), to find the same lines.
    static let fullDetectionGain = 1.25

    private func learnedDetector() throws(OCRError) -> TextDetector {
        guard let detector else {
            throw .recognitionFailed(
                "\(DetectorError.missingModel(searched: Tessdata.modelsDirectories().map { ($0 as NSString).appendingPathComponent(TextDetectorNet.modelFile) }))"
            )
        }
        return detector
    }

    // MARK: choosing the reading

    /// Lines of at least this many glyphs count as lines of running text.
    static let documentLineGlyphs = 4
    /// A page with at least this many such lines, most of them stacked (`documentStacking`),
    /// is a document (receipt, menu page): Tesseract's own layout reads those best
    /// (receipts-de: page 26/26 totals), and region by region would mean a read per line.
    /// With the detector's boxes receipts-de and sroie-dev hold 21–83 of them (19 on a phone
    /// copy), shelf-jp-dev photos 3–17, tags-jp-dev crops 0–2.
    static let documentLines = 16
    /// ... and at least this share of its lines stand in stacks (`RegionLayout.stackedShare`):
    /// a line count alone took shelf photos with 16–17 lines for documents (shelf-jp-dev, its
    /// 2×, JPEG and rot+4 copies), and read as pages they lost prices and took twice the time
    /// (rot+4: amount recall 0.816 in 1 284 ms an image, by regions 0.898 in 563 ms). Half:
    /// documents measured 0.59 or more (but two scans photographed small: 0.19, whose total
    /// is read by its regions as well, and 0.44, a page by its column), scenes 0.33 at most.
    static let documentStacking = 0.5
    /// A page with a column of at least this many lines (`RegionLayout.longestColumn`) is a
    /// document too: a receipt's item list, a menu. The fixture receipts' longest columns hold
    /// 4–17 lines with the detector's boxes; read region by region, the fixture receipts lost
    /// amounts (a point or minus far from its digits, a line split in two) that the page
    /// layout reads.
    static let documentColumn = 4
    /// ... and that column spans at least this share of the image's height: a page is a column
    /// of lines that fills much of the frame (the fixture receipts' columns of 4 or more lines
    /// span 0.35–0.77 of theirs), while a shelf label stacks its name, price and fine print
    /// into a short column (shelf-jp-dev: 4 lines spanning 0.13 of the photo, which the line
    /// count alone took for a document).
    static let documentColumnSpan = 0.25

    func choose(_ regions: [TextRegion], imageHeight: Int) -> ReadingMode {
        if regions.filter({ $0.glyphs >= Self.documentLineGlyphs }).count >= Self.documentLines,
            layout.stackedShare(regions) >= Self.documentStacking
        {
            return .page
        }
        let column = layout.longestColumnExtent(regions)
        return column.lines >= Self.documentColumn && Double(column.span) >= Self.documentColumnSpan * Double(imageHeight)
            ? .page : .regions
    }

    // MARK: region by region

    /// Whether a page's text lines run parallel, as Tesseract's page layout needs: it finds one
    /// skew for the page and cuts it into level lines. The detector's long boxes (at least
    /// `TextRows.directionLength` thicknesses long, whose direction is sure) tell each line's own
    /// direction; when the middle 80% of them spread over more than `levelSpread` the page is
    /// in perspective or curled, and is read by its boxes (`readRows`). A page with fewer than
    /// `directionLines` long boxes counts as level.
    ///
    /// `levelSpread` is tan 3°: a receipt line of about 40 glyphs is about 25 glyph heights
    /// long, so a line 1.5° off the page's skew drifts by about 0.65 of its height along it,
    /// where the layout starts to cut it apart or join it to the next. Measured spreads: flat
    /// scans 0–0.02 (receipts-de), crumpled ones up to 0.051 (sroie-dev), a receipt seen in
    /// perspective (the robustness set's keystone tilt) 0.06–0.37.
    ///
    /// `within`: the spread allowed (`levelSpread`); `unmeasured`: the answer for a page with
    /// too few long boxes to tell.
    static func linesAreLevel(_ regions: [TextRegion], within spread: Double = levelSpread, unmeasured: Bool = true) -> Bool {
        guard let s = lineSlopes(regions) else { return unmeasured }
        OCRLog.write("line slopes \(String(format: "%.4f", s.low))...\(String(format: "%.4f", s.high)) of \(s.count) long boxes")
        return s.high - s.low <= spread
    }

    /// The slope the page's lines share (the median of its long boxes'), when at least
    /// `directionLines` long boxes run within `levelSpread` of each other; nil otherwise.
    static func commonSlope(_ regions: [TextRegion]) -> Double? {
        guard let s = lineSlopes(regions), s.high - s.low <= levelSpread else { return nil }
        return s.median
    }

    /// The slopes of the long boxes (at least `TextRows.directionLength` thicknesses long,
    /// whose direction is sure): their 10th, 50th and 90th percentiles; nil with fewer than
    /// `directionLines` of them.
    static func lineSlopes(_ regions: [TextRegion]) -> (low: Double, median: Double, high: Double, count: Int)? {
        let slopes = regions.filter { Double($0.rect.width) >= TextRows.directionLength * $0.thickness }.map(\.slope).sorted()
        guard slopes.count >= directionLines else { return nil }
        return (slopes[slopes.count / 10], slopes[slopes.count / 2], slopes[slopes.count - 1 - slopes.count / 10], slopes.count)
    }

    /// A file's page whose long lines share a slope (`commonSlope`) of at least `least`
    /// degrees, rotated level by it on a canvas grown so that none of it is cut off
    /// (`GrayImage.rotatedWhole`); nil when it leans less or is not a file's page. Its text is
    /// then found again on the levelled picture: the detector's boxes turned with the page
    /// were tried instead (2026-12-06, late) and lost the short boxes it finds only on level print
    /// (a menu's one-digit prices; docs/benchmarks/2026-12-06-levelled-page.md). The page's
    /// boxes stay the levelled picture's until the parser has read them
    /// (`RecognizedPage.levelling`).
    ///
    /// A page read whole is levelled from `Preprocess.deskewMinAngle` when Leptonica found no
    /// skew it was sure of (`deskewed`: a photo's background, a small receipt on a large scan,
    /// noise): Tesseract's page layout cuts lines level, and a receipt leaning 4.6° (sroie-dev's
    /// copy turned by 4°, 532, skew confidence 1.9 of the 2 needed) lost its total read whole.
    /// A document read by its rows is levelled from `levelRowsAngle`: each line is read
    /// straightened wherever it leans, but the layout the parser reads is the boxes'
    /// positions: a menu's column of prices lined up at the right (`MenuPrices`), a receipt's
    /// amounts under each other. Leaning 10°, a column of prices 40 px apart runs 7 px
    /// further right with each row, and the fixture menus turned 10° and 15° read 0.905 and
    /// 0.888 of their prices (0.988 upright), their whole prices without a mark the ones lost.
    /// Levelled first, 0.979 and 0.988 (docs/benchmarks/2026-12-06-leaning-glyphs.md).
    func levelled(_ image: GrayImage, regions: [TextRegion], isFrame: Bool, least: Double) -> (
        image: GrayImage, levelling: Levelling
    )? {
        guard options.preprocess, options.deskew, !isFrame, let slope = Self.commonSlope(regions) else { return nil }
        let degrees = atan(slope) * 180 / .pi
        guard abs(degrees) >= least, let (turned, levelling) = image.rotatedWhole(by: atan(slope)) else { return nil }
        OCRLog.write("lines lean \(String(format: "%.1f", degrees))°: page levelled by them and detected again")
        return (turned, levelling)
    }

    /// The least lean (degrees) of a document's rows that is levelled before they are read
    /// (`levelled`): Leptonica's deskew (`deskewed`) searches ±7° (its default sweep)
    /// and levels a page it is sure of within that; a page it was not sure of, leaning less,
    /// is read as it leans, as before (its rows' positions lean less than a glyph across a
    /// row of prices).
    static let levelRowsAngle = 7.0

    /// See `linesAreLevel`.
    static let levelSpread = tan(3 * Double.pi / 180)

    /// How much less the slopes of the coarser detection's boxes may spread than the full
    /// detection's: on sroie-dev's keystone-tilted copy (every page detected both ways) the
    /// coarser spread lay within 0.010 of the full one on 58 of 63 pages, 0.016–0.033 under it
    /// on three; every tilted page's coarser spread was 0.045 or more, over `levelSpread` less
    /// this (0.042), so each was detected again and read as rows
    /// (docs/benchmarks/2026-11-26-text-levels.md). Half the spread, the bound before,
    /// detected 10 of 63 clean sroie-dev pages twice for nothing.
    static let coarseSlopeError = 0.010
    static let directionLines = 8

    /// A document read box by box: every box the detector found (a document's every line may
    /// hold its total: no `regionLimit`), grouped into rows (`TextRows`), then the second pass
    /// over the rows (weak lines read again, the total line voted on) as over a page reading.
    /// The boxes follow the text wherever the page lies in the photo, at whatever angle and
    /// perspective, where Tesseract's page layout needs straight, level lines:
    /// receipts-de tilted (keystone) total recall 0.846 page, 1.000 by boxes. With
    /// `joinPieces`, a row's boxes that stand within `TextRows.pieceGap` of each other are
    /// read as one (`TextRows.joiningPieces`): the network breaks letter-spaced print apart.
    func readRows(_ found: [TextRegion], in image: GrayImage, isFrame: Bool, since start: UInt64, bothReaders: Bool = false)
        throws(OCRError) -> RecognizedPage
    {
        let regions = options.joinPieces ? TextRows.joiningPieces(found) : found
        if regions.count != found.count { OCRLog.write("rows: \(found.count) boxes, \(regions.count) with a row's pieces joined") }
        let rows = try readRegions(
            regions, in: image, isFrame: isFrame, since: start, limit: regions.count, document: true, bothReaders: bothReaders)
        guard options.secondPass else { return rows }
        // The pixels the rows cover stand for the page's in the work budget.
        let covered = regions.map { $0.rect.width * $0.rect.height }.reduce(0, +)
        var second = try secondPass(for: image, isFrame: isFrame, firstMs: rows.milliseconds, workPixels: covered)
        second.sparseWord = false
        second.smallDigits = options.rereadSmallRows
        second.textBoxes = regions.map(\.rect)
        let improved = second.improve(rows, image: image)
        OCRLog.write("rows: second pass \(second.reread) re-reads, \(second.replaced) lines replaced")
        return improved
    }

    func readRegions(
        _ regions: [TextRegion], in image: GrayImage, isFrame: Bool, since start: UInt64, limit: Int? = nil, document: Bool = false,
        bothReaders: Bool = false
    ) throws(OCRError) -> RecognizedPage {
        let candidates = layout.worthReading(
            regions, limit: limit ?? options.regionLimit, document: document && options.rowSingleGlyphs)
        // Live frames keep their time budget, which needs the readings in turn; files share
        // their readings with idle workers when there are any (`help`).
        let live = isFrame || options.forceLiveBudget
        let shared = live ? nil : help
        var read: [(region: TextRegion, line: TextLine?, ms: Double)] = []
        if let shared {
            let lines = try shared.read(count: candidates.count, by: self) { reader, i throws(OCRError) in
                try reader.firstReading(candidates[i], in: image).line
            }
            read = zip(candidates, lines).map { ($0, $1, 0) }
        } else {
            for r in candidates { read.append(try firstReading(r, in: image)) }
        }
        if bothReaders { read = try withRecognizerReadings(read, in: image, shared: shared) }
        if options.secondPass {
            // Likeliest prices first (`worthReading`'s order), at most `maxRereads` of them on a live
            // frame or a document, `sceneRereads` on a file's scene (every one by default). On live
            // frames the re-reads may add at most `liveBudget` of the first readings' time, and one
            // starts only when it should end within it (its region's first reading × the tries);
            // there an empty first reading (whose time says nothing of a real one) is not retried.
            let firstMs = read.map(\.ms).reduce(0, +)
            let budget: Double? = live ? firstMs * options.liveBudget : nil
            var spent = 0.0
            var picked: [Int] = []
            let most = live || document ? options.maxRereads : options.sceneRereads ?? read.count
            let askRecognizer = !document || options.rowRecognizer
            let tries = Self.rereads.count + (priceEngine == nil ? 0 : Self.priceRereads.count)
            for i in read.indices
            where picked.count < most && read[i].region.glyphs <= Self.priceGlyphs
                && (read[i].line.map { document ? rowNeedsAnotherLook($0) : needsAnotherLook($0) } ?? (budget == nil))
            {
                if let budget {
                    if spent + read[i].ms * Double(tries) > budget { continue }
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    read[i].line = try rereadLogged(
                        read[i].region, firstReading: read[i].line, in: image, scene: !document, recognizer: askRecognizer)
                    spent += Self.ms(since: t0)
                }
                picked.append(i)
            }
            if budget == nil {
                let firsts = picked.map { (read[$0].region, read[$0].line) }
                let again: [TextLine?]
                if let shared {
                    again = try shared.read(count: firsts.count, by: self) { reader, k throws(OCRError) in
                        try reader.rereadLogged(
                            firsts[k].0, firstReading: firsts[k].1, in: image, scene: !document, recognizer: askRecognizer)
                    }
                } else {
                    var lines: [TextLine?] = []
                    for (region, line) in firsts {
                        lines.append(try rereadLogged(region, firstReading: line, in: image, scene: !document, recognizer: askRecognizer))
                    }
                    again = lines
                }
                for (k, i) in picked.enumerated() { read[i].line = again[k] }
            }
        }
        OCRLog.write("regions: \(read.count) read (\(rereadTries) re-read tries so far) in \(Self.ms(since: start)) ms")
        // (A whole small label read as sparse text when no region held a price, which the
        // Leptonica finder needed on glare-cut digits, found nothing more with the learned
        // detector on any set or fixture family: removed.)
        let lines =
            options.rowGrouping
            ? TextRows.rows(read.compactMap { r in r.line.map { TextRows.Item(region: r.region, line: $0) } })
            : Self.assembled(read.compactMap(\.line))
        return RecognizedPage(width: image.width, height: image.height, lines: lines, milliseconds: Self.ms(since: start))
    }

    /// A region's first reading (see `scene`; the line recogniser's instead when its print is
    /// tiny and it reads it surer: `tinyReading`), and how long it took. It may be empty: Tesseract finds no text line in
    /// some blurred crops of big digits (tags-jp-dev: a blurred `50` 23 px tall) that another
    /// scale reads.
    func firstReading(_ r: TextRegion, in image: GrayImage) throws(OCRError) -> (region: TextRegion, line: TextLine?, ms: Double) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        var line = try regionReader.read(r, in: image, engine: sceneEngine())
        if let read = tinyReading(r, in: image), read.confidence > line?.confidence ?? 0 {
            OCRLog.write("  tiny print: the recogniser's reading [\(read.text)] instead")
            line = read
        }
        let ms = Self.ms(since: t0)
        OCRLog.write(
            "region \(r.rect) h\(r.glyphHeight) n\(r.glyphs) \(r.lightOnDark ? "light" : "dark") fill \(String(format: "%.2f", r.fill)) clutter \(String(format: "%.3f", r.clutter)) -> [\(line?.words.map { "\($0.text)@\(Int($0.confidence * 100))" }.joined(separator: " ") ?? "nothing")] in \(String(format: "%.1f", ms)) ms"
        )
        return (r, line, ms)
    }

    /// Whether `line` holds words, none with a digit, each read at `weakDigits` or more: a
    /// heading or a dish that a second reader would not make a price of.
    static func surelyWords(_ line: TextLine) -> Bool {
        !line.words.isEmpty && digitWords(line).isEmpty && line.words.allSatisfy { $0.confidence >= weakDigits }
    }

    /// A blurred page's first readings (`AccuracyOptions.blurredRows`) with the line
    /// recogniser's beside them, the surer of the two standing for each box (by
    /// `TextLine.confidence`, as for tiny print: `tinyReading`). Tesseract, trained on sharp
    /// print, reads a blurred receipt's `19,46` as `19,16` or its words as junk; the
    /// recogniser, trained on photographed print, took 55 of a blurred receipts-de page's 75
    /// boxes. Not asked: a box Tesseract read as words surely, without a digit
    /// (`surelyWords`: no price to gain; the same readings on the blurred copies without it).
    /// Each box is read alone, by idle workers too; a failed run leaves Tesseract's reading.
    /// (Short boxes packed several to an input cost a third less but lost marked totals:
    /// docs/benchmarks/2026-12-07-blurred-rows.md.)
    func withRecognizerReadings(
        _ read: [(region: TextRegion, line: TextLine?, ms: Double)], in image: GrayImage, shared: ReadingHelp?
    ) throws(OCRError) -> [(region: TextRegion, line: TextLine?, ms: Double)] {
        guard options.recognizer, recognizer != nil else { return read }
        let asked = read.indices.filter { read[$0].line.map(Self.surelyWords) != true }
        let boxes = asked.map { read[$0].region.rect }
        let task = { (reader: PageReader, k: Int) -> TextLine? in try? reader.recognizer?.read(image, box: boxes[k]) }
        let lines: [TextLine?]
        if let shared {
            lines = try shared.read(count: boxes.count, by: self) { reader, k throws(OCRError) in task(reader, k) }
        } else {
            lines = boxes.indices.map { task(self, $0) }
        }
        var out = read
        for (k, i) in asked.enumerated() {
            guard let line = lines[k], !line.text.allSatisfy(\.isWhitespace), line.confidence > out[i].line?.confidence ?? 0 else {
                continue
            }
            OCRLog.write("  blurred print: the recogniser's reading [\(line.text)] instead of [\(out[i].line?.text ?? "")]")
            out[i].line = line
        }
        OCRLog.write("blurred print: \(asked.count) of \(read.count) boxes read by the recogniser too")
        return out
    }

    /// The line recogniser's reading of a file's box whose glyphs are too small for Tesseract
    /// (`AccuracyOptions.tinyGlyph`); nil for any other box, or when it reads nothing. The
    /// first reading takes it when its words are surer on average than Tesseract's
    /// (`TextLine.confidence`): two readers trained apart, the surer one stands. Not on live frames:
    /// their budget is the frame's.
    func tinyReading(_ r: TextRegion, in image: GrayImage) -> TextLine? {
        guard r.glyphHeight <= options.tinyGlyph, !image.isFrame, options.recognizer, let recognizer,
            let read = try? recognizer.read(image, box: r.rect), !read.text.allSatisfy(\.isWhitespace)
        else { return nil }
        return read
    }

    /// `reread`, with its start and its choice in the debug log.
    func rereadLogged(
        _ region: TextRegion, firstReading first: TextLine?, in image: GrayImage, scene: Bool = true, recognizer: Bool = true
    ) throws(OCRError) -> TextLine? {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let line = try reread(region, firstReading: first, in: image, scene: scene, recognizer: recognizer)
        OCRLog.write(
            "reread \(region.rect) first [\(first?.text ?? "")] -> [\(line?.text ?? "")] in \(String(format: "%.1f", Self.ms(since: t0))) ms"
        )
        return line
    }

    /// Regions of more glyphs than this are no price alone (`-1 234 567,89 zł` has 13); they are
    /// not read again.
    static let priceGlyphs = 14

    /// Word confidence under which a reading holding digits is read again.
    static let weakDigits = 0.80

    /// Word confidence under which a reading without digits is read again (a price misread
    /// as letters: noise/receipt_0004 "2.37" → "iY f", "17.77" → "LITT").
    static let garbled = 0.50

    /// Most characters of a short reading without digits that is read again when any of its
    /// words is under `weakDigits`: a price's 2–4 digits misread as letters (`99` → `SS` at
    /// 0.75, `50` → `ーー` at 0.57). The re-read probes it with the price model first and
    /// stops there when the model sees no digit, so a short word costs two small reads.
    static let shortReading = 4

    /// A reading with digits that parses to no price or whose digits read unsurely, a
    /// reading with a word read very unsurely, or a short reading read unsurely.
    func needsAnotherLook(_ line: TextLine) -> Bool {
        needsAnotherLook(line, digitWords: Self.digitWords(line))
    }

    /// `needsAnotherLook`, given the words of `line` that hold a digit.
    private func needsAnotherLook(_ line: TextLine, digitWords numeric: [TextWord]) -> Bool {
        guard !numeric.isEmpty else {
            let short = line.words.map { $0.text.filter { !$0.isWhitespace }.count }.reduce(0, +) <= Self.shortReading
            return line.words.contains { $0.confidence < (short ? Self.weakDigits : Self.garbled) }
        }
        return judge.prices(in: [line]).isEmpty || numeric.contains { $0.confidence < Self.weakDigits }
    }

    /// A document's box read alone (`readRows`) needs another look as any region does
    /// (`needsAnotherLook`), but not when every word holding a digit was read surely (at
    /// `weakDigits` or more) and the reading holds no price: a time (`Aperto 12:00-15:00`), a
    /// phone number, an address, a calorie count, a year, a dish's number. A number followed
    /// by two digits is still read again (`splitCents`). Read again, such a box gave back the
    /// same digits on every page of the fixture menus read by their boxes; each try of those
    /// long boxes cost 100–180 ms, and twice the price model made a price of a dish's number
    /// (`A5. 鍋貼` → `AS. $84`). Measured on every document set and copy whose pages were read
    /// by their boxes (docs/benchmarks/2026-12-03-sure-rows.md): Tesseract reads 3–30% fewer
    /// (the menus' tilted copy 1 322 → 931), amount precision up on 8 of the 11 menu sets;
    /// recall one price more or less on seven of them (a re-read slot freed goes to another
    /// box), every total the same. `reread-sure-rows` reads them again, to measure.
    func rowNeedsAnotherLook(_ line: TextLine) -> Bool {
        let numeric = Self.digitWords(line)
        guard needsAnotherLook(line, digitWords: numeric) else { return false }
        if options.rereadSureRows { return true }
        return numeric.isEmpty || numeric.contains { $0.confidence < Self.weakDigits } || Self.splitCents(line)
    }

    /// The words of `line` that hold a digit.
    static func digitWords(_ line: TextLine) -> [TextWord] {
        line.words.filter { $0.text.contains(where: \.isNumber) }
    }

    /// Whether a word ending in a digit is followed by a word of two digits (`Cash 22 25`): a
    /// price whose point Tesseract read as a gap, surely, which a re-read reads whole
    /// (sroie-dev's tilted copy, 280: `22.25`, its total, the cash line's vote). Not within a
    /// run of `digitGroupRun` or more words of digits alone: a phone number printed in groups
    /// (`Tel. 91 522 12 34`, `Tél. 01 42 60 12 34`), which a re-read reads the same again (the
    /// fixture menus' phone lines, 100 ms each); a quantity before a split price (`1 22 25`)
    /// or a date (`12 05 2018`) is three words, and still read again.
    static func splitCents(_ line: TextLine) -> Bool {
        let w = line.words
        func digits(_ i: Int) -> Bool { w.indices.contains(i) && !w[i].text.isEmpty && w[i].text.allSatisfy(\.isNumber) }
        return w.indices.dropLast().contains { i in
            guard w[i].text.last?.isNumber == true, w[i + 1].text.count == 2, digits(i + 1) else { return false }
            var first = i + 1, last = i + 1
            while digits(first - 1) { first -= 1 }
            while digits(last + 1) { last += 1 }
            return last - first + 1 < Self.digitGroupRun
        }
    }

    /// Fewest words of digits alone in a row that make a phone number, not a price split at
    /// its point (`splitCents`): a number dialled in groups runs to four or more (`91 522 12
    /// 34`), a quantity and a split price to three.
    static let digitGroupRun = 4

    /// Other ways to read a region when the first reading was weak, tried in turn: larger
    /// (digit height 56 instead of 36) as one word (psm 8), which reads bold condensed shelf
    /// digits better (tags-jp-dev, RapidOCR's boxes, stock eng: psm 8 at 48–64 px 0.76–0.84
    /// of prices vs 0.61 at psm 7).
    /// A glyph height of 0 reads the region at its own size (noise is enlarged with the text).
    static let rereads: [(glyph: Double, psm: Int)] = [(56, 8), (0, 7), (44, 7)]

    /// The best of several readings of `region`: the amount two readings agree on, else the
    /// reading the judge scores highest.
    ///
    /// A region whose first reading is letters without a digit (a product name, most of a
    /// shelf photo's weak readings) is probed: the price model's first two readings, then,
    /// when the model read nothing sure (or does not read: small type, no model), the first
    /// stock re-read. When the model's probe shows no digit at `probeDigitConfidence` or more,
    /// or the stock probe no digit at all, the region holds text, not a price, and the other
    /// re-reads are skipped. Prices read as letters first (`オイ` for 99, `= きき` for 30,
    /// `SI` for 99) show their digits to the model at 0.80–0.93. shelf-jp-dev 3.14 → 2.72 s
    /// for the set, recall and precision the same; tags-jp-dev and every fixture family the
    /// same.
    ///
    /// A scene's region Tesseract read nothing in is shown to the line recogniser before any
    /// re-read: its sure price ends them, and a reading without a digit says the region holds
    /// no price (one try instead of up to seven). Since every unsure region of a file's scene
    /// is read again (`AccuracyOptions.sceneRereads`), those are a shelf photo's product
    /// packaging mostly: on shelf-jp-dev's tilted copy 503 → 434 Tesseract reads, every copy's
    /// recall the same, the phone copy's precision 0.605 → 0.634; tags-jp-dev, its copies and
    /// every fixture family the same (docs/benchmarks/2026-12-02-scene-rereads.md). Probed by
    /// the price model instead, as letters are, the blurred, dim and tilted shelf copies and
    /// two tags-jp-dev copies lost a price each.
    ///
    /// `recognizer`: the line recogniser reads the region too, before the stock re-reads, and
    /// its sure price ends them (`recognized`); after them when it was not asked before. A
    /// document's short boxes (`readRows`) are read so too (`AccuracyOptions.rowRecognizer`): on
    /// the fixture menus it reads the `元` that Tesseract's chi_sim and the price model read
    /// as digits on the dim, tilted and small copies (`75元` → `7576`). `scene`: a scene's
    /// region, whose first reading Tesseract left empty, is shown to the recogniser before
    /// anything else, and a reading without a digit ends the re-reads there with no text. A
    /// document's box is not: that reading may be its words (`SUMME`, receipts-de tilted,
    /// whose total line then lost its keyword), which the re-reads keep.
    func reread(
        _ region: TextRegion, firstReading first: TextLine?, in image: GrayImage, scene: Bool = true, recognizer: Bool = true
    ) throws(OCRError) -> TextLine? {
        var reader = regionReader
        let letters = first.map { !$0.text.isEmpty && !$0.text.contains(where: \.isNumber) } ?? false
        // A region Tesseract read nothing in is shown to the recogniser before any re-read: its
        // sure price ends them, and when it reads no digit there the region holds no price.
        // `asked`: the recogniser has read the region; it is asked once at most.
        var asked = false
        if recognizer, first?.text.allSatisfy(\.isWhitespace) ?? true,
            let read = recognizerReading(region, instead: first, in: image)
        {
            if read.sure { return read.line }
            if !read.line.text.contains(where: \.isNumber) {
                OCRLog.write("  no digit in the recogniser's reading: no price")
                // A document's box keeps the recogniser's words: they may be a total's keyword.
                return scene || read.line.text.allSatisfy(\.isWhitespace) ? first : read.line
            }
            asked = true
        }
        // The price model first: when two of its readings agree on a price, that is the price,
        // and the stock re-reads (the larger part of a shelf photo's time) are skipped.
        var model: [TextLine] = [], unsure: [TextLine] = []
        if let priceEngine, region.glyphHeight >= Self.priceModelMinGlyph {
            var sawDigit = false
            for (n, (glyph, psm)) in Self.priceRereads.enumerated() {
                reader.targetGlyph = glyph
                let again = try reader.read(region, in: image, engine: priceEngine, pageSegmentationMode: psm)
                rereadTries += 1
                if let again {
                    OCRLog.write(
                        "  price model \(Int(glyph)) px psm \(psm) -> [\(again.text)] words \(again.words.map { Int($0.confidence * 100) })"
                    )
                    let digits = again.words.filter { $0.text.contains(where: \.isNumber) }
                    if digits.contains(where: { $0.confidence >= Self.probeDigitConfidence }) { sawDigit = true }
                    if !digits.isEmpty && digits.allSatisfy({ $0.confidence >= Self.priceModelMinConfidence }) {
                        model.append(again)
                    } else if !digits.isEmpty && digits.allSatisfy({ $0.confidence >= Self.priceModelAgreeingConfidence }) {
                        unsure.append(again)
                    }
                }
                if letters, n == 1, !sawDigit {
                    // A short box read as letters at almost no confidence is shown to the
                    // recogniser before it is called text (`unsureShortLetters`).
                    if recognizer, !scene || options.sceneShortLetters, !asked, let first, Self.unsureShortLetters(first),
                        let read = recognized(region, instead: first, in: image)
                    {
                        return read
                    }
                    OCRLog.write("  no digit in the probe: text")
                    return first
                }
                // Two readings that agree already decide (below): the third is not needed.
                if model.count == 2, first.map(surelyNoPrice) != true, Self.agreement(model, judge: judge) != nil { break }
            }
            if first.map(surelyNoPrice) != true, let agreed = Self.agreement(model, witnesses: first.map { [$0] } ?? [], judge: judge) {
                return settled(
                    wholeReading(instead: agreed, among: model), against: first, region, in: image, recognizer: recognizer && !asked)
            }
            // Two of the model's readings at different sizes that agree on an amount, one of them
            // at least at `probeDigitConfidence`, decide too: a blurred `119` read `119` at 0.60
            // and 0.27 (and `11` by the stock model).
            if first.map(surelyNoPrice) != true, let agreed = Self.agreement(model + unsure, judge: judge),
                agreed.words.contains(where: { $0.text.contains(where: \.isNumber) && $0.confidence >= Self.probeDigitConfidence })
            {
                return settled(
                    wholeReading(instead: agreed, among: model), against: first, region, in: image, recognizer: recognizer && !asked)
            }
        }
        // The recogniser's sure reading replaces whatever the stock re-reads would pick
        // (`recognized`), so it is asked before them, and they are skipped when it is sure. A
        // reading of letters that the price model saw no digit in waits for the stock probe
        // below, which may still find it text. Print under `priceModelMinGlyph` is not shown to
        // the model, and Tesseract's stock probe of it says little (a tag's `50` 7 px tall read
        // `SC`, then `so`, which the recogniser reads `50`): the recogniser is asked first.
        if recognizer, !asked, !(letters && model.isEmpty && region.glyphHeight >= Self.priceModelMinGlyph) {
            asked = true
            if let read = recognized(region, instead: first, in: image) { return read }
        }
        var readings = first.map { [$0] } ?? []
        let stock: OCREngine
        if let rereadEngine { stock = rereadEngine } else { stock = try engine() }
        for (n, (glyph, psm)) in Self.rereads.enumerated() {
            reader.targetGlyph = glyph > 0 ? glyph : Double(region.glyphHeight)
            let again = try reader.read(region, in: image, engine: stock, pageSegmentationMode: psm)
            rereadTries += 1
            if let again {
                OCRLog.write("  reread \(Int(glyph)) px psm \(psm) -> [\(again.text)] \(judge.score(again))")
                readings.append(again)
            }
            if letters, model.isEmpty, n == 0, again?.text.contains(where: \.isNumber) != true {
                OCRLog.write("  no digit in the probe: text")
                return first
            }
        }
        let pick = chosen(stock: readings, model: model) ?? first
        return recognizer && !asked ? recognized(region, instead: pick, in: image) ?? pick : pick
    }

    /// Whether a box read as letters is short (at most `shortReading` characters) and every
    /// word of it read under `garbled`: a few glyphs Tesseract could not read, which on a
    /// menu's or a receipt's row, or a shelf tag, are as often a price as a word (a dim menu's
    /// `17` read `x` at 0; a shaded tag's `99` read `SS |` at 0.39, its `35` `で` at 0.36; the
    /// price model's probe saw no digit in any of them). The recogniser, trained on
    /// photographed print, reads it before the box is called text; only its sure price
    /// replaces the reading (`recognized`). A scene's box is asked too
    /// (`AccuracyOptions.sceneShortLetters`).
    static func unsureShortLetters(_ line: TextLine) -> Bool {
        line.text.filter { !$0.isWhitespace }.count <= shortReading && line.words.allSatisfy { $0.confidence < garbled }
    }

    /// The price model's agreed reading, or the first reading when the two name other amounts
    /// and the line recogniser, a third reader trained apart from both, reads the first's
    /// amounts surely (`settlesForFirst`). The model's readings at two sizes are one model's
    /// and err together: a receipt's dotted `0.20` (a zero with a dot inside, as receipt fonts
    /// print it) read `9.20` at 0.87 and 0.38, first read `0.20` at 0.72 (Fixtures/small, read
    /// by its rows).
    func settled(_ agreed: TextLine, against first: TextLine?, _ region: TextRegion, in image: GrayImage, recognizer: Bool) -> TextLine {
        guard recognizer, let first else { return agreed }
        let firstAmounts = judge.amounts(in: first)
        guard !firstAmounts.isEmpty, firstAmounts != judge.amounts(in: agreed),
            let read = recognizerReading(region, instead: agreed, in: image),
            Self.settlesForFirst(read.line, sure: read.sure, first: first, agreed: agreed, readersAgree: options.readersAgree),
            judge.amounts(in: read.line) == firstAmounts
        else { return agreed }
        OCRLog.write("  the recogniser reads the first reading's amounts: kept")
        return first
    }

    /// A short region of a file's scene that Tesseract's first reading left unsure (`reread`),
    /// read by the line recogniser (PP-OCRv4's, trained apart from Tesseract on photographed and
    /// small print); its reading, instead of Tesseract's (`pick`), when it holds a price whose
    /// digits it read surely (`SecondPass.isSure`).
    ///
    /// Tesseract reads a tag's price as kana or nothing when it is small, blurred or seen
    /// from a phone (`=ー` for 30, `LU 1` for 119, `1SS` for 199), and its re-reads settle on
    /// a price with a digit wrong when the tag is turned or small (`113` for 119 turned 4°,
    /// first read `119` at 0.06); the recogniser reads those at 0.94–0.99. A first reading at
    /// `weakDigits` or more is not re-read, so not asked (`393` at 0.80 for 399 stays). Regions whose probes showed no digit are
    /// not asked (`reread` returns before), so a shelf photo's product names cost nothing.
    /// Measured (docs/benchmarks/2026-11-29-small-text.md and
    /// 2026-11-29-recognizer-on-unsure-regions.md): asked only where no reading found a price,
    /// tags-jp-dev blur 0.959 → 1.000, at 0.35 0.755 → 0.816, phone, 2× and tilt 0.939 →
    /// 0.959; asked over an unsure price too, tags-jp-dev at 0.35 → 0.878, at 0.5, tilt and
    /// rotated −4° 0.959 → 0.980, rotated +4° 0.939 → 0.959, shelf-jp-dev at 0.35 0.816 →
    /// 0.959 (precision 0.513 → 0.603) and dim 0.878 → 0.918; every clean set and fixture
    /// family the same, about three times as many calls (56 ms each).
    /// A document's short boxes (`readRows`) are read so too since 2026-12-03
    /// (`AccuracyOptions.rowRecognizer`, docs/benchmarks/2026-12-03-row-recognizer.md): the
    /// fixture menus' copies read the `元` Tesseract read as digits (`75元` → `7576`; dim 0.926 →
    /// 0.946 of the amounts), sroie-dev's tilted copy 0.907 → 0.922, receipts-intl 0.983 →
    /// 0.989, no total changed, for 3–14% more CPU on the sets read by their boxes. A page's
    /// price column box that Tesseract read unsurely is too (`withPriceColumn`).
    func recognized(_ region: TextRegion, instead pick: TextLine?, in image: GrayImage) -> TextLine? {
        recognizerReading(region, instead: pick, in: image).flatMap { $0.sure ? $0.line : nil }
    }

    /// The recogniser's reading of `region` (nil: not asked, see `recognized`), and whether it
    /// holds a price whose digits it read surely.
    func recognizerReading(_ region: TextRegion, instead pick: TextLine?, in image: GrayImage) -> (line: TextLine, sure: Bool)? {
        guard !image.isFrame, options.recognizer, let recognizer, region.glyphs <= Self.recognizedGlyphs else { return nil }
        let t0 = DispatchTime.now().uptimeNanoseconds
        guard let read = try? recognizer.read(image, box: region.rect) else { return nil }
        rereadTries += 1
        let priced = !judge.prices(in: [read]).isEmpty
        let sure = priced && (SecondPass.isSure(read) || (options.readersAgree && Self.sameDigits(read, pick)))
        OCRLog.write(
            "  recogniser -> [\(read.words.map { "\($0.text)@\(Int($0.confidence * 100))" }.joined(separator: " "))] instead of [\(pick?.text ?? "")] \(sure ? "KEEP" : "drop") in \(String(format: "%.1f", Self.ms(since: t0))) ms"
        )
        return (read, sure)
    }

    /// Whether the recogniser's reading `read` holds the same digits, in the same order, as
    /// Tesseract's reading `tesseract` of the same box, and at least `agreeingDigits` of them.
    /// Two readers trained apart that agree on every digit are sure of them, however unsure
    /// each one is alone; the recogniser's reading is kept for its separators, which
    /// Tesseract reads worst on blurred and faded print (sroie-dev 105 blurred: its total
    /// `30.30`, read `(30:30.` by Tesseract and `30.30` at 0.71 by the recogniser).
    static func sameDigits(_ read: TextLine, _ tesseract: TextLine?) -> Bool {
        guard let tesseract else { return false }
        let mine = asciiDigits(read)
        return mine.count >= agreeingDigits && mine == asciiDigits(tesseract)
    }

    /// The ASCII digits `line` reads, in order (the digits an amount is made of).
    static func asciiDigits(_ line: TextLine) -> String { line.text.filter { $0.isASCII && $0.isNumber } }

    /// Whether the recogniser's reading `read` of a box (`sure`: as `recognizerReading` judged
    /// it against the price model's `agreed` reading) settles a disagreement for Tesseract's
    /// `first` reading (`settled`; its amounts are checked there). Sure alone, or, with
    /// `readersAgree`, reading every digit of `first` alike (`sameDigits`): two readers
    /// trained apart agreeing digit for digit, however unsure each is alone, as
    /// `recognizerReading` counts agreement with the reading it would replace. receipts-de's
    /// tilted copy, its total `19,46`: first read `19,46.` at 0.31, the price model `19.16` at
    /// 0.67 and 0.70, the recogniser `19,46` at 0.58. Not when `first` holds fewer digits than
    /// `agreed`: blur merges glyphs, and two readers then drop the same one (receipts-de's
    /// blurred copy, its total `26.42`: first read `26.0`, the recogniser `26.0` at 0.44, the
    /// price model `26.42` at 0.60 twice).
    static func settlesForFirst(_ read: TextLine, sure: Bool, first: TextLine, agreed: TextLine, readersAgree: Bool) -> Bool {
        sure || (readersAgree && sameDigits(read, first) && asciiDigits(first).count >= asciiDigits(agreed).count)
    }

    /// Least digits two readers must agree on (`sameDigits`): a price with cents has three
    /// (`0.50`); one or two digits alike (`7`, `12`) are as often a misread's chance.
    static let agreeingDigits = 3

    /// Most glyphs of a region the recogniser reads (`recognized`): a price alone (`¥1,280`
    /// is 6).
    static let recognizedGlyphs = 6

    /// Least confidence of a digit in the price model's probe of a region first read as letters
    /// for the region to be read further. Trained on digits, the model reads some into any
    /// text, mostly at 0–0.45 on shelf-jp-dev's product names (some up to 0.86, which are
    /// read further, as before); the prices among those regions it reads at 0.80–0.93. Half
    /// way between keeps every such price with room on both sides.
    static let probeDigitConfidence = 0.5

    /// Least glyph height (px in the image) read with the price model: the smallest its
    /// training lines were shrunk to (scripts/price-model/render_lines.py). On smaller print
    /// (a tag's 4–6 px fine print) it reads digits into noise: tags-jp-dev amount precision
    /// 0.85 → 0.56 without this floor.
    static let priceModelMinGlyph = 9

    /// Least confidence of every word holding a digit in a price-model reading that is used.
    /// Trained on digits, the model reads digits into anything; its confidence tells: on
    /// shelf-jp-dev, its words on tag prices have 0.76–0.93, on packaging art and fine print
    /// 0–0.65.
    static let priceModelMinConfidence = 0.70

    /// Least confidence of every digit word in a price-model reading that may still count when
    /// another of its readings agrees with it (see `reread`): junk reads at 0–0.1 (the whole-
    /// label measurements), so two agreeing readings above this are rarely junk.
    static let priceModelAgreeingConfidence = 0.25

    /// The price model's readings: larger as a word, at the reader's glyph height as a line, and
    /// between as a line (three, so that two can agree without the stock re-reads). The word
    /// first: of the prices first read as letters on shelf-jp-dev, it reads three that the line
    /// reading misses (`-4` for 99); the line reading reads one that it reads unsurely.
    static let priceRereads: [(glyph: Double, psm: Int)] = [(56, 8), (36, 7), (44, 7)]

    /// The reading to keep: a sure stock reading of no price that another repeats; else the
    /// amount two readings agree on (the price model's first), else
    /// the price model's likeliest reading that holds a price, else the stock readings' best
    /// by the judge. On tags-jp-dev (total recall) the stock readings alone give 0.796; all
    /// readings voted as equals 0.837; the model preferred 0.918.
    func chosen(stock: [TextLine], model: [TextLine]) -> TextLine? {
        // Stock readings that agree word for word, surely, on text without a price: no price
        // is there (a time `13:54:46`, which the model reads `13 : 54 : 46`).
        for (i, a) in stock.enumerated() where surelyNoPrice(a) {
            if stock[(i + 1)...].contains(where: { $0.text == a.text }) { return a }
        }
        if let agreed = Self.agreement(model + stock, judge: judge) { return wholeReading(instead: agreed, among: model) }
        if let m = model.max(by: { judge.score($0) < judge.score($1) }), !judge.prices(in: [m]).isEmpty { return m }
        return (model + stock).max { judge.score($0) < judge.score($1) }
    }

    /// `agreed`, or, in a currency printed without decimals (`PriceJudge.printsWholeNumbers`),
    /// the first of the price model's sure readings `model` that reads the same digits as whole
    /// numbers where `agreed` puts a decimal point. A point is one speck; smaller readings of a
    /// curled or blurred crop invent it (menus zh-Hant_1: `230` read `2.30` at 36 and 44 px and
    /// `230` at 56 px, sure), and such a currency's prices seldom have one. The risk is the
    /// rare one that does (a Czech shelf's `12,50 Kč`) read surely as `1250` at 56 px.
    func wholeReading(instead agreed: TextLine, among model: [TextLine]) -> TextLine {
        guard judge.printsWholeNumbers else { return agreed }
        let prices = judge.prices(in: [agreed])
        guard prices.contains(where: { !Self.isWhole($0.amount) }) else { return agreed }
        let digits = prices.map { $0.text.filter(\.isNumber) }
        return model.first { m in
            let other = judge.prices(in: [m])
            return other.allSatisfy { Self.isWhole($0.amount) } && other.map { $0.text.filter(\.isNumber) } == digits
        } ?? agreed
    }

    /// Whether `amount` has no fractional part.
    static func isWhole(_ amount: Decimal) -> Bool {
        var a = amount, whole = Decimal()
        NSDecimalRound(&whole, &a, 0, .down)
        return whole == amount
    }

    /// Whether a stock reading is sure of every word and holds no price (`13:54:46`).
    func surelyNoPrice(_ line: TextLine) -> Bool {
        line.words.allSatisfy { $0.confidence >= Self.weakDigits } && judge.prices(in: [line]).isEmpty
    }

    /// The first of `readings` whose prices another reading repeats exactly; nil when none.
    static func agreement(_ readings: [TextLine], judge: any PriceJudge) -> TextLine? {
        let amounts = readings.map(judge.amounts(in:))
        for i in readings.indices where !amounts[i].isEmpty {
            if amounts[(i + 1)...].contains(amounts[i]) { return readings[i] }
        }
        return nil
    }

    /// The reading of `readings` whose prices most of `readings` and `witnesses` repeat (two at
    /// least; the earliest on a tie); nil when no two agree. A witness votes but is not
    /// returned: the first reading, unsure, that the re-reads exist to overturn. The price
    /// model read a menu's `1,370` as one word right and as a line `1,3 70` twice, and the first
    /// reading was `1.370`: two against two, and the word, read first, is kept.
    static func agreement(_ readings: [TextLine], witnesses: [TextLine], judge: any PriceJudge) -> TextLine? {
        let amounts = (readings + witnesses).map(judge.amounts(in:))
        var best: (index: Int, votes: Int)?
        for i in readings.indices where !amounts[i].isEmpty {
            let votes = amounts.filter { $0 == amounts[i] }.count
            if votes >= 2, votes > (best?.votes ?? 0) { best = (i, votes) }
        }
        return best.map { readings[$0.index] }
    }

    /// Readings on one baseline joined into one line, left to right, so a receipt's label and
    /// its price (found as two regions across the column gap) are parsed together. Two
    /// readings join when their heights differ by at most 1.3×, their centres by at most
    /// 0.3 of the taller height, and the gap between them is at most 12 heights (a receipt's
    /// column gap; tags side by side on a shelf rail join too, which costs nothing: each
    /// number is still parsed on its own).
    static func assembled(_ lines: [TextLine]) -> [TextLine] {
        let order = lines.indices.sorted { (lines[$0].box?.x ?? 0) < (lines[$1].box?.x ?? 0) }
        var rows: [[TextLine]] = []
        for i in order {
            let l = lines[i]
            let hit = rows.firstIndex { row in
                guard let a = row[row.count - 1].box, let b = l.box else { return false }
                let tall = Double(max(a.height, b.height)), short = Double(max(1, min(a.height, b.height)))
                let dy = abs(Double(2 * a.y + a.height) - Double(2 * b.y + b.height)) / 2
                let gap = Double(b.x - (a.x + a.width))
                return tall / short <= 1.3 && dy <= 0.3 * tall && gap <= 12 * tall && gap >= -0.5 * short
            }
            if let hit { rows[hit].append(l) } else { rows.append([l]) }
        }
        return rows.map { row in
            row.count == 1 ? row[0] : TextLine(words: row.flatMap(\.words))
        }
        .sorted { ($0.box?.y ?? 0, $0.box?.x ?? 0) < ($1.box?.y ?? 0, $1.box?.x ?? 0) }
    }

    // MARK: the page at once

    /// The median glyph height of the detector's text lines (boxes of `documentLineGlyphs` or
    /// more glyphs); nil without such lines.
    static func lineGlyph(_ regions: [TextRegion]) -> Int? {
        regions.filter { $0.glyphs >= documentLineGlyphs }.map(\.glyphHeight).median
    }

    /// Most enlargement of a page read whole (`AccuracyOptions.pageGlyph`).
    static let maxPageEnlargement = 3.0

    func readPage(_ prepared: GrayImage, isFrame: Bool, original image: GrayImage, lineGlyph: Int? = nil, text: [Box] = [])
        throws(OCRError)
        -> RecognizedPage
    {
        var page: RecognizedPage
        // The pixels the page reading worked on: the second pass's work budget is a share of them.
        var readPixels = prepared.width * prepared.height
        if options.preprocess, !isFrame, let g = lineGlyph, g > 0, g < options.smallGlyph,
            let big = prepared.scaled(by: min(Self.maxPageEnlargement, Double(options.pageGlyph) / Double(g)))
        {
            OCRLog.write("line glyph \(g) px: page read at \(big.width)x\(big.height)")
            page = try engine().recognize(big).rescaled(
                by: Double(prepared.width) / Double(big.width), width: prepared.width, height: prepared.height)
        } else if let small = options.preprocess && options.downscale
            ? downscaled(prepared, pixels: image.width * image.height, lineGlyph: lineGlyph, text: text) : nil
        {
            readPixels = small.width * small.height
            // Boxes go back to `prepared`'s pixels; the second pass re-reads lines there.
            page = try engine().recognize(small).rescaled(
                by: Double(prepared.width) / Double(small.width), width: prepared.width, height: prepared.height)
        } else {
            page = try engine().recognize(prepared)
        }
        OCRLog.write("page read in \(page.milliseconds) ms")
        for l in page.lines {
            OCRLog.write(
                "line \(l.box.map { "\($0)" } ?? "-") [\(l.words.map { "\($0.text)@\(Int($0.confidence * 100))" }.joined(separator: " "))]")
        }
        guard options.secondPass else { return page }
        var second = try secondPass(for: image, isFrame: isFrame, firstMs: page.milliseconds, workPixels: readPixels)
        let large = image.width * image.height > Preprocess.downscaleMinimumPixels
        // Not on live frames: their budget admits about one re-read, and the psm 11 one costs
        // more than its estimate (bench-live-ocr: +17% OCR p99 with it, +3–6% without).
        // Nor on large images (scans, photos over 1 MP), where it reads whole receipt lines
        // again for nothing: sroie-dev 11% less CPU without it, totals the same, amount F1 -0.003.
        // Nor on pages the reading chose as documents (`reading` auto): it exists for isolated
        // tags (lowcontrast tag_0005), which that reading reads region by region. On documents
        // it changed no fixture amount and no sroie-dev total, at 40–130 ms a try on small scans.
        second.sparseWord = options.sparseWordReread && !second.strictBudget && !large && options.reading == .page
        second.textBoxes = text
        let improved = second.improve(page, image: prepared)
        // Nothing found on a photo: a last, sparse-text reading (not on live frames: it costs
        // about four first passes).
        if options.sparse, !isFrame, judge.prices(in: improved.lines).isEmpty,
            let sparse = try sparseRead(prepared, pixels: image.width * image.height)
        {
            return sparse
        }
        return improved
    }

    /// The second pass over a first reading of `image` (a page reading or rows of boxes) that
    /// took `firstMs` and worked on `workPixels`: on files bounded by work, a share of those
    /// pixels read again (the same re-reads on an idle or a loaded machine); on live frames by
    /// time, a share of the first reading's.
    func secondPass(for image: GrayImage, isFrame: Bool, firstMs: Double, workPixels: Int) throws(OCRError) -> SecondPass {
        var second = SecondPass(engine: try engine(), judge: judge, maxRereads: options.maxRereads)
        second.priceEngine = priceEngine
        second.recognizer = recognizer
        let large = image.width * image.height > Preprocess.downscaleMinimumPixels
        second.enlargeTallText = !large
        if let share = large ? options.largeImageBudget : options.smallImageBudget {
            second.workBudget = Double(workPixels) * share
            second.budgetPerTry = true
        }
        if isFrame || options.forceLiveBudget {
            second.budgetMs = firstMs * options.liveBudget
            second.strictBudget = true
            second.workBudget = nil
        }
        second.wordFirst = options.wordReread
        second.recognizerWords = options.recognizerWords
        return second
    }

    /// `image` shrunk for the first pass when its text is much taller than Tesseract needs (nil: read as is).
    /// The glyph height is the ink's connected components' median; when they are too few to
    /// trust (noise or a dim page breaks the glyphs apart: a dim, noisy 35 MP sroie-dev scan
    /// gave none, and its whole-size page reading ran past Tesseract's 60 s deadline), the
    /// detector's text lines' (`lineGlyph`, measured on their ink) stand in. `pixels`: the
    /// whole picture's, when `image` is the document cut out of it (`documentArea`), so a
    /// picture is shrunk or not as it was before the cut.
    func downscaled(_ image: GrayImage, pixels: Int? = nil, lineGlyph: Int? = nil, text: [Box] = []) -> GrayImage? {
        let pixels = pixels ?? image.width * image.height
        guard pixels > Preprocess.downscaleMinimumPixels else { return nil }
        let m = Preprocess.measure(image, text: text)
        var g = Preprocess.glyphHeight(image, measurements: m)
        if g.count < Preprocess.trustedGlyphs, let line = lineGlyph, line > 0 {
            OCRLog.write("glyph height \(g.height) (\(g.count) components): the detector's lines' \(line) px instead")
            g = (line, Preprocess.trustedGlyphs)
        }
        let factor = Preprocess.downscale(glyphHeight: g.height, count: g.count, pixels: pixels)
        OCRLog.write(
            "glyph height \(g.height) (\(g.count) components, line glyph \(lineGlyph.map(String.init) ?? "none")) -> scale \(factor.map { "\($0)" } ?? "1")"
        )
        guard let factor else { return nil }
        return image.scaled(by: factor)
    }

    /// Enlargement and the least price confidence of the sparse-text pass.
    static let sparseScale = 2.0
    static let sparseMinimumConfidence = 0.6

    /// `image` read 2× enlarged with psm 11 (sparse text: no layout, every blob of text on
    /// its own), when it is at most 1 MP (`pixels`: the whole picture's, as for `downscaled`);
    /// the page when it holds a confident price, else nil.
    /// Small isolated tags on a busy frame (Fixtures/small frame_0002: "$32.50", "$2.00")
    /// give psm 6 no line at all, at any scale; psm 11 at 2× finds them (3× and 2.5× also
    /// found junk on negatives).
    func sparseRead(_ image: GrayImage, pixels: Int? = nil) throws(OCRError) -> RecognizedPage? {
        guard pixels ?? image.width * image.height <= Preprocess.downscaleMinimumPixels,
            let big = image.scaled(by: Self.sparseScale)
        else { return nil }
        let page = try engine().recognize(big, pageSegmentationMode: 11)
            .rescaled(by: Double(image.width) / Double(big.width), width: image.width, height: image.height)
        for l in page.lines { OCRLog.write("sparse \(l.box.map { "\($0)" } ?? "-") [\(l.text)]") }
        let prices = judge.prices(in: page.lines)
        return prices.contains { $0.confidence >= Self.sparseMinimumConfidence } ? page : nil
    }

    static func ms(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }
}
