import Foundation

/// Which accuracy passes run on each image. Every command reads with all of them; `eval
/// --accuracy LIST` and `live --accuracy LIST` switch steps off for measurements
/// (`AccuracyOptions(switches:)`: `no-preprocess`, `no-second-pass`, `regions-only`, …).
public struct AccuracyOptions: Sendable, Hashable {
    public var preprocess: Bool
    public var secondPass: Bool
    /// Individual preprocessing steps (for ablation: `no-stretch`, `no-background-norm`).
    public var stretch = true
    public var backgroundNorm = true
    /// Read images with tall text (300-dpi scans) downscaled in the first pass (`no-downscale`).
    public var downscale = true
    /// Rotate slightly skewed images upright before the first pass (`no-deskew`).
    public var deskew = true
    /// Most lines re-read per image (each costs about 3 ms on a frame): a live frame's regions,
    /// a document's rows and a page's lines (`rereads=N` to measure).
    public var maxRereads: Int
    /// Most regions of a file's scene read again (nil: every region read that needs another
    /// look; `regionLimit` bounds them). A shelf photo's regions that need another look are its
    /// unsure tags and its product text: at 16, the bound before, a tag's `50` read `59` at
    /// 0.43 came 17th and was never read again (shelf-jp-dev rotated 4°). Without a bound,
    /// shelf-jp-dev's copies dim, rotated ±4°, 0.5, 2× and tilt found a price more each
    /// (0.898–0.918 → 0.918–0.939, 2× 0.959 → 0.980), none lost one; the clean set, tags-jp-dev
    /// and every fixture family read the same. The cost, with a region Tesseract read nothing
    /// in probed by the recogniser (`PageReader.reread`): 14–22% more Tesseract reads on the
    /// clean, tilted and rotated shelf sets, 11% fewer on the phone copy
    /// (docs/benchmarks/2026-12-02-scene-rereads.md). A file's time has no live budget; its work
    /// stays bounded by the regions read (`scene-rereads=N` to measure).
    public var sceneRereads: Int? = nil
    /// On live frames the second pass may add at most this share of the first
    /// pass's time (a re-read starts only if it should end within it), so OCR-time
    /// p99 grows by about that much plus preprocessing (scripts/bench-live-ocr.sh:
    /// +3–15% p99 at 640x480; 0.15 with a start-only check gave +25–40%).
    public var liveBudget = 0.10
    /// On images over `Preprocess.downscaleMinimumPixels` (receipt scans: 15–30 digit lines, each
    /// re-read 10–30 ms) the second pass stops after this share of the first pass's time,
    /// checked before each try of a line (a line's 2–3 tries had overrun 0.4 to about 0.8);
    /// the total-line vote runs regardless (`large-budget=X` to measure). sroie-dev: 0.4
    /// checked per line 0.921 totals, F1 0.738, 77 CPU-s; 0.2 per try 0.921, F1 0.740, 67
    /// CPU-s; 0 (total vote only) 0.905. receipts-de 1.000 with either, 23 → 21 CPU-s.
    public var largeImageBudget = 0.2
    /// The same kind of bound on pages of at most that size (small receipt scans, fixture
    /// receipts): the second pass may take 0.6 of the first reading's CPU time, checked before
    /// each try. Their re-reads enlarge 8–12 px text 2–3× (each costs 4–9× a read at 1×), and
    /// unbounded they took up to 2.5× the page read (sroie-dev's sub-MP scans: 43–59 re-reads,
    /// 0.5–0.8 s). sroie-dev, eval CPU on a loaded machine, without the sparse word re-read on
    /// documents: no bound 63 s, 0.921 totals, F1 0.742; 1.0: 58 s, 0.921, 0.743; 0.6: 54 s,
    /// 0.921, 0.747; 0.3: 51 s, but fixture amounts lost (noise 17/18 totals, blur
    /// 0.982 → 0.965). 0.6 kept every fixture amount in a release build, but only just: 0.45
    /// lost shadow's `2.51`, and a debug build (the tests'), whose own image work is slower
    /// against Tesseract's, lost it at 0.6 and kept it at 1.0. So 1.0: the margin is worth
    /// more than the 6% of sroie-dev's CPU it costs (eval, idle machine: 31.9 → 33.7 s,
    /// totals 0.968 either way). Both bounds were first measured in CPU time; they now count
    /// work, the pixels read again as a share of the page's (`SecondPass.workBudget`), so a
    /// loaded machine re-reads the same lines as an idle one (`small-budget=X` to measure).
    /// Counted in pixels, 1.0 lost blur/receipt_0004's `3.77` (the enlarged re-reads of small
    /// print count scale² each); 1.5 keeps every fixture amount the CPU bound kept.
    public var smallImageBudget: Double? = 1.5
    /// A document's boxes read alone are read again also when their digits were read surely
    /// and hold no price (`PageReader.rowNeedsAnotherLook`; `reread-sure-rows`, to measure).
    public var rereadSureRows = false
    /// The second pass re-reads a document's rows whose digits were read surely but small in
    /// the image (`SecondPass.smallDigits`). Off: read by their boxes, the rows were read at the
    /// recogniser's glyph height already (`RegionReader.targetGlyph`), and the enlarged
    /// re-read reads the same pixels at that height again (`reread-small-rows`, to measure).
    public var rereadSmallRows = false
    /// A document's short boxes read alone that Tesseract's re-reads leave unsure are read by
    /// the line recogniser too, as a scene's are (`PageReader.reread`; `no-row-recognizer`,
    /// to measure).
    public var rowRecognizer = true
    /// A scene's short region read as letters at almost no confidence, whose price-model probe
    /// saw no digit, is read by the line recogniser before it is called text, as a document's
    /// short box is (`PageReader.unsureShortLetters`; `no-scene-short-letters`, to measure).
    public var sceneShortLetters = true
    /// A file whose text lines the detector finds running up or down the picture (a photo taken
    /// sideways, its orientation not in the file) is turned a quarter turn the way its longest
    /// lines read best, and read so (`PageReader.sidewaysTurn`; `no-sideways`, to measure).
    public var sideways = true
    /// A file whose level text lines the direction classifier finds standing upside down (a
    /// photo taken from the far side of a table, its orientation not in the file) is turned a
    /// half turn and read so (`PageReader.upsideDown`; `no-upside-down`, to measure).
    public var upsideDown = true
    /// A document's one-glyph boxes as tall as the text around them are read when its boxes
    /// are read alone (`RegionLayout.worthReading`; `no-row-glyphs`, to measure).
    public var rowSingleGlyphs = true
    /// A region's crop whose paper is uneven (a shadow's edge, a second paper tone) is
    /// background-normalised before Tesseract reads it (`RegionReader.flattenShadows`;
    /// `no-crop-shadows`, to measure).
    public var cropShadows = true
    /// A region's crop whose edges spread over this share of its glyph height is unsharp
    /// masked before Tesseract reads it (`RegionReader.blurredEdgeShare`; `crop-blur=SHARE`,
    /// `crop-blur=0` off).
    public var cropBlurredEdgeShare = 0.2
    /// The line recogniser's unsure reading of a box is kept when it holds the digits
    /// Tesseract read there (`PageReader.sameDigits`; `no-readers-agree`, to measure).
    public var readersAgree = true
    /// Second pass: a line's weakest word holding digits is read by the line recogniser before
    /// Tesseract reads it again (`SecondPass.recognizerWord`; `no-recognizer-words`, to measure).
    public var recognizerWords = true
    /// Second pass: re-read a line's weakest word alone before the whole line (`no-word-reread`).
    public var wordReread = true
    /// Second pass: as a last try, the weakest word read as sparse text, psm 11 (`no-sparse-word`).
    public var sparseWordReread = true
    /// A sparse-text pass (psm 11, 2×) on photos up to 1 MP where nothing else found a price (`no-sparse`).
    public var sparse = true
    /// Apply the live budget to files too (for measuring it on fixtures: `live-budget`).
    public var forceLiveBudget = false
    /// How an image is read: by Tesseract's own page layout (`page`), region by region
    /// (`regions`), or chosen per image from what the region stage finds (`auto`).
    public var reading = ReadingMode.auto
    /// How a page the reading chose as a document is read: its detector boxes one by one,
    /// grouped into rows, then the second pass (`rows`), or Tesseract's own page layout
    /// (`page`) (`documents=page|rows` to measure).
    public var documentReading = ReadingMode.rows
    /// A level document is read by its boxes in rows too, as a page in perspective is (a
    /// blurred one, its edges spread as `TextDetector.inputBlurred` measures, is detected with
    /// its input sharpened and read by its rows with both readers: `blurredRows`). Such a file is
    /// detected once, at the full working size: the coarser first pass only chose between the
    /// page reading and the rows (`no-level-rows`: the page reading and the coarser pass, to
    /// measure). Read by its rows, each box is binarised on its own and read by the rules that
    /// read pages in perspective, the peers' design: sroie-dev amount recall 0.859 → 0.925
    /// (totals 0.968 both ways), the fixture menus 0.971 → 0.983, and the copies of the
    /// document sets hold better: 25 of 33 within 0.03 of clean, 21 before
    /// (docs/benchmarks/2026-12-05-level-rows-default.md; 2026-12-04-level-rows.md measured
    /// it with the coarser pass first, 10–37% more time than the page reading).
    public var levelRows = true
    /// A document read by its boxes reads a row's boxes that stand within `TextRows.pieceGap`
    /// of each other as one (`TextRows.joiningPieces`; `no-join-pieces`, to measure): the
    /// network breaks letter-spaced print apart (receipts-de's `SUMME EUR 27,42` into `27` and
    /// `,42`). On the tilted fixture menus it joined `소 7,500원` to `대 6,000` beside it, whose
    /// re-read lost the 7 500 (docs/benchmarks/2026-12-04-level-rows.md).
    public var joinPieces = true
    /// A blurred portrait page (`PageReader.blurredPortrait`: its edges spread at 960 px) is
    /// detected with its input sharpened, at every scale it is detected at, and read by its
    /// rows, each box by Tesseract and by the line recogniser, the surer reading standing
    /// (`PageReader.withRecognizerReadings`); `no-blurred-rows`: detected coarser first and
    /// read whole by Tesseract's page layout, to measure (docs/benchmarks/2026-12-07-blurred-rows.md).
    public var blurredRows = true
    /// A document read by its rows whose print is blurred as its lines are read
    /// (`PageReader.blurredPrint`), though the page at 960 px is not, has both readers read
    /// its boxes as a blurred page's (`blurredRows`); `no-blurred-print` off, to measure.
    public var blurredPrint = true
    /// A portrait file's page whose lines' print measures blurred (`blurredPrint`'s measure),
    /// though its input's edges did not, is detected again with its input sharpened by the
    /// spread its lines measure, and read as a blurred page (`PageReader.printBlurredRegions`);
    /// `no-print-blurred-detection` off, to measure.
    public var printBlurredDetection = true
    /// Tesseract reads every line it was unsure of again inverted (its own default,
    /// `OCRConfiguration.invertsUnsureLines`); off, pricecam setting each crop's polarity
    /// itself, but for regions judged light on dark (`tesseract-invert`: on everywhere, to
    /// measure).
    public var tesseractInverts = false
    /// Region readings grouped into rows by the detector's boxes (`TextRows`), not by the
    /// boxes of the words read in them (`word-rows` to measure).
    public var rowGrouping = true
    /// A page read whole whose detector lines' median glyph (capital and digit height) is under
    /// `smallGlyph` px is read enlarged until it is `pageGlyph` px, at most 3×
    /// (`page-glyph=MIN/TARGET` to measure, `page-glyph=0/0` off). Tesseract reads worst
    /// below an x-height of about 10 px and best at 20–30 (capitals about 1.4× that): 12 px
    /// capitals are 8–9 px of x-height, 30 px capitals about 21. Measured on sroie-dev and
    /// receipts-de and their copies at 0.5 and 0.35 (T, M; docs/benchmarks/2026-11-25-page-glyph.md):
    /// 12/30 changes no clean figure, sroie-dev 0.5 0.873/0.762 → 0.921/0.873, 0.35
    /// 0.683/0.444 → 0.857/0.698; 14/30 and 14/24 lost a receipts-de 0.5 total, 12/24 a marked one.
    public var smallGlyph = 12
    public var pageGlyph = 26
    /// A page read whole whose edges spread over more than `blurredEdge` px
    /// (`GrayImage.edgeWidth`) is unsharp masked before it is read (`blurred-edge=PX` to
    /// measure, `blurred-edge=0` off). Enlarging and sharpening are preprocessing:
    /// `no-preprocess` switches them off too.
    public var blurredEdge = 4.0
    /// A portrait file (not a live frame) larger than this on its working side is first
    /// detected at this longest side; a level document found there keeps those boxes and is
    /// read as a page, anything else is detected again at the full working size
    /// (`document-side=PX` to measure, `document-side=0` off). 960 is the side PaddleOCR
    /// detects documents at (`det_limit_side_len`); measured (docs/benchmarks/2026-11-26-document-side.md):
    /// sroie-dev 548 → 492 ms an image, receipts-de 466 → 382, totals and marked totals the
    /// same, sroie-dev amount recall 0.823 → 0.817 (800: 0.811, 640: 0.808); every fixture
    /// family the same. Smaller is not faster: at 800 the coarser boxes' directions are less
    /// sure and 19 of sroie-dev's 63 pages (10 at 960) failed the level test and were detected
    /// again, so detection cost 357 ms an image against 325
    /// (docs/benchmarks/2026-11-26-column-and-vote.md).
    public var documentSide = 960
    /// The detector's longest working side (`detector-side=PX` to measure; nil:
    /// `TextDetector.maxSide`). Measured on receipts-de's blurred copy: at 3500 (each receipt
    /// at its own size, as RapidOCR detects it) totals 0.692 -> 0.769, marked 0.423 -> 0.462,
    /// at 1.6 times the time (docs/benchmarks/2026-11-27-peers-copies-timed.md).
    public var detectorSide: Int?
    /// A portrait file's page is detected at the scale where its small print stands
    /// `coarsePageGlyph` px tall, when that is coarser than the full working size by
    /// `PageReader.fullDetectionGain` or more; never coarser than its longest side at
    /// `coarsePageSide`, where a band across its middle is detected first to measure its print
    /// (`PageReader.coarsePageRegions`; `coarse-page=SIDE/GLYPH` to measure, `coarse-page=0/0`
    /// off). 12 px: at a fixed 800 px side the fixture menus, whose small print stood 12–17 px
    /// there, read as at their own size in 18% less CPU, while sroie-dev's receipts, 54 of 63
    /// of them under 12 px there (4.6–11.7), lost two totals. 800: the side at which a menu's
    /// detection costs half of its own size's (the network's time goes by pixels). With the
    /// rule: menus R 0.983 → 0.988, sroie-dev totals 0.968 → 0.984, every set faster
    /// (docs/benchmarks/2026-12-05-coarse-page.md).
    public var coarsePageSide = 800
    public var coarsePageGlyph = 12.0
    /// A file's scene whose detected text is smaller than this (px, the boxes' median glyph at
    /// the detector's working size) is detected again enlarged until it is this tall, up to
    /// `TextDetector.largestScale` (`PageReader.smallTextRegions`; `small-text=PX` to
    /// measure, `small-text=0` off). 18 px is shelf-jp-dev's median glyph at its 1 600 px
    /// working size, where the network found its tags (at 1 280 px, 15 px, amount recall fell
    /// from 0.980 to 0.898: `TextDetector.maxSide`).
    public var smallTextGlyph = 18
    /// A file's box whose glyphs are at most this tall (px, measured on its ink) is read by the
    /// line recogniser too, and its reading replaces Tesseract's when its words are surer on
    /// average (`PageReader.tinyReading`; `tiny-glyph=PX` to measure, `tiny-glyph=0` off). At
    /// 7 px a digit's strokes are a pixel or two wide, and Tesseract, however the crop is
    /// enlarged, reads a scan's print as junk (sroie-dev scaled to 460 px wide: `Vets@17
    /// Amourt@5 98.70@47` for `Total Amount: $8.70`), while the recogniser, trained on
    /// photographed print of every size, reads `Total Amount 8.70`; on clean rendered print
    /// Tesseract stays surer and is kept. Measured at 6, 7 and 8 px (the recogniser alone,
    /// then the surer of the two, docs/benchmarks/2026-12-06-tiny-print.md): 7 marked the
    /// most totals on sroie-dev at 460 px wide and at 0.35; 8 read fewer of the small menus'
    /// amounts and took longer; 6 left half the gain.
    public var tinyGlyph = 7
    /// A scene's small text that takes a part of a large picture is detected again on that
    /// part alone, where the working size lets the network see it larger
    /// (`PageReader.textAreaRegions`; `no-text-area` off, to measure).
    public var textArea = true
    /// A file's scene the detector saw unsurely at a working size under its own is detected
    /// again at its own size, up to this longest side (`PageReader.unsureSceneScale`;
    /// `unsure-side=PX` to measure, `unsure-side=0` off; nil: `TextDetector.maxSide` times
    /// `PageReader.fullDetectionGain`, 2 000 px, at most 1.56 times the first pass's pixels).
    public var unsureSceneSide: Int?
    /// A document's detector input sharpened when blurred (`TextDetector.documentSharpening`;
    /// `detector-sharpen=PX/AMOUNT` to measure, `detector-sharpen=0/0` off; nil: the detector's own).
    public var detectorSharpening: InputSharpening?
    /// Most text regions read on one image, likeliest prices first (`RegionLayout.worthReading`):
    /// the cost of a scene photo is bounded by it, not by its pixels. The detector finds 19–26
    /// boxes on a 1920×1080 shelf photo (the Leptonica finder 76–151 candidates).
    public var regionLimit = 60
    /// Read weak region readings again with the price-text model, when one is installed
    /// (`models/price.traineddata`; `no-price-model` switches it off).
    public var priceModel = true
    /// Read unconfirmed total lines with the line recogniser too, when it is installed
    /// (`no-recognizer` switches it off, to measure).
    public var recognizer = true

    public init(preprocess: Bool = true, secondPass: Bool = true, maxRereads: Int = 16) {
        self.preprocess = preprocess
        self.secondPass = secondPass
        self.maxRereads = maxRereads
    }

    /// The switches `--accuracy` takes, each turning a step off or setting a budget.
    public static let switches = [
        "no-preprocess", "no-second-pass", "no-stretch", "live-budget", "no-background-norm", "no-downscale", "no-deskew",
        "no-word-reread", "no-sparse", "no-sparse-word", "page-only", "regions-only", "rows-only", "no-price-model", "large-budget=SECONDS",
        "small-budget=SECONDS", "region-limit=N", "rereads=N", "scene-rereads=N",
        "documents=page|rows", "word-rows",
        "page-glyph=MIN/TARGET", "blurred-edge=PX", "document-side=PX", "detector-side=PX", "coarse-page=SIDE/GLYPH",
        "detector-sharpen=PX/AMOUNT",
        "small-text=PX", "unsure-side=PX", "tiny-glyph=PX",
        "no-recognizer", "no-text-area", "reread-sure-rows", "reread-small-rows", "no-row-recognizer", "no-row-glyphs",
        "no-crop-shadows", "crop-blur=SHARE", "no-readers-agree", "no-recognizer-words", "no-level-rows", "no-join-pieces",
        "no-blurred-rows", "no-blurred-print", "no-print-blurred-detection", "no-scene-short-letters", "no-sideways", "no-upside-down",
        "tesseract-invert",
    ]

    /// The options with `list` (comma-separated `switches`; empty: every step on) applied.
    public init(switches list: String) throws(AccuracySwitchError) {
        self.init()
        for flag in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !flag.isEmpty {
            let (name, value) =
                flag.contains("=") ? (String(flag.prefix { $0 != "=" }), String(flag.drop { $0 != "=" }.dropFirst())) : (flag, "")
            /// The switch's whole number, at least `least`.
            func count(least: Int = 0) throws(AccuracySwitchError) -> Int {
                guard let n = Int(value), n >= least else { throw AccuracySwitchError(flag: flag) }
                return n
            }
            switch name {
            case "no-preprocess": preprocess = false
            case "no-second-pass": secondPass = false
            case "no-stretch": stretch = false
            case "live-budget": forceLiveBudget = true
            case "no-background-norm": backgroundNorm = false
            case "no-downscale": downscale = false
            case "no-deskew": deskew = false
            case "no-word-reread": wordReread = false
            case "no-sparse": sparse = false
            case "no-sparse-word": sparseWordReread = false
            case "page-only": reading = .page
            case "regions-only": reading = .regions
            case "rows-only": reading = .rows
            case "no-price-model": priceModel = false
            case "no-recognizer": recognizer = false
            case "no-text-area": textArea = false
            case "reread-sure-rows": rereadSureRows = true
            case "reread-small-rows": rereadSmallRows = true
            case "no-row-recognizer": rowRecognizer = false
            case "no-scene-short-letters": sceneShortLetters = false
            case "no-sideways": sideways = false
            case "no-upside-down": upsideDown = false
            case "no-row-glyphs": rowSingleGlyphs = false
            case "no-crop-shadows": cropShadows = false
            case "no-readers-agree": readersAgree = false
            case "no-recognizer-words": recognizerWords = false
            case "no-level-rows": levelRows = false
            case "no-join-pieces": joinPieces = false
            case "no-blurred-rows": blurredRows = false
            case "no-blurred-print": blurredPrint = false
            case "no-print-blurred-detection": printBlurredDetection = false
            case "tesseract-invert": tesseractInverts = true
            case "large-budget", "small-budget":
                guard let n = Double(value), n >= 0 else { throw AccuracySwitchError(flag: flag) }
                if name == "large-budget" { largeImageBudget = n } else { smallImageBudget = n }
            case "word-rows": rowGrouping = false
            case "blurred-edge":
                guard let n = Double(value), n >= 0 else { throw AccuracySwitchError(flag: flag) }
                blurredEdge = n
            case "crop-blur":
                guard let n = Double(value), n >= 0 else { throw AccuracySwitchError(flag: flag) }
                cropBlurredEdgeShare = n
            case "document-side":
                documentSide = try count()
            case "coarse-page":
                let parts = value.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 2, let side = Int(parts[0]), side >= 0, let glyph = Double(parts[1]), glyph >= 0 else {
                    throw AccuracySwitchError(flag: flag)
                }
                (coarsePageSide, coarsePageGlyph) = (side, glyph)
            case "detector-side":
                detectorSide = try count(least: 1)
            case "small-text":
                smallTextGlyph = try count()
            case "tiny-glyph":
                tinyGlyph = try count()
            case "unsure-side":
                unsureSceneSide = try count()
            case "detector-sharpen":
                let parts = value.split(separator: "/").compactMap { Double($0) }
                guard parts.count == 2, parts[0] >= 0, parts[1] >= 0 else { throw AccuracySwitchError(flag: flag) }
                detectorSharpening = InputSharpening(blurredEdge: parts[0], amount: parts[1])
            case "page-glyph":
                let parts = value.split(separator: "/").compactMap { Int($0) }
                guard parts.count == 2, parts[0] >= 0, parts[1] >= 0 else { throw AccuracySwitchError(flag: flag) }
                (smallGlyph, pageGlyph) = (parts[0], parts[1])
            case "documents":
                guard let mode = ReadingMode(rawValue: value), mode == .page || mode == .rows else {
                    throw AccuracySwitchError(flag: flag)
                }
                documentReading = mode
            case "region-limit":
                regionLimit = try count(least: 1)
            case "rereads":
                maxRereads = try count()
            case "scene-rereads":
                sceneRereads = try count()
            default: throw AccuracySwitchError(flag: flag)
            }
        }
    }
}

/// An `--accuracy` switch that does not exist or has a bad value.
public struct AccuracySwitchError: Error, CustomStringConvertible {
    public let flag: String
    public var description: String {
        let name = flag.prefix { $0 != "=" }
        if let form = AccuracyOptions.switches.first(where: { $0.hasPrefix(name + "=") }) {
            return "bad value in accuracy switch '\(flag)': it takes \(form)"
        }
        return "unknown accuracy switch '\(flag)'; the switches are \(AccuracyOptions.switches.joined(separator: ", "))"
    }
}

/// How an image is read (see `AccuracyOptions.reading`).
public enum ReadingMode: String, Sendable, Hashable {
    case auto, page, regions
    /// A document's detector boxes read one by one and grouped into rows (`TextRows`).
    case rows
}
