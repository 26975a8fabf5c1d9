import Foundation
import OCR
import PriceParsing

/// Which accuracy passes run on each image. `PRICECAM_ACCURACY` (comma list of
/// `no-preprocess`, `no-second-pass`) switches them off for measurements.
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
    /// Most lines re-read per image (each costs about 3 ms on a frame).
    public var maxRereads: Int
    /// On live frames the second pass may add at most this share of the first
    /// pass's time (a re-read starts only if it should end within it), so OCR-time
    /// p99 grows by about that much plus preprocessing (scripts/bench-live-ocr.sh:
    /// +3–15% p99 at 640x480; 0.15 with a start-only check gave +25–40%).
    public var liveBudget = 0.10
    /// On images over `Preprocess.downscaleMinimumPixels` (receipt scans: 15–30 digit lines, each
    /// re-read 10–30 ms) the second pass stops after this share of the first pass's time;
    /// the total-line vote runs regardless.
    public var largeImageBudget = 0.4
    /// Second pass: re-read a line's weakest word alone before the whole line (`no-word-reread`).
    public var wordReread = true
    /// Second pass: as a last try, the weakest word read as sparse text, psm 11 (`no-sparse-word`).
    public var sparseWordReread = true
    /// A sparse-text pass (psm 11, 2×) on photos up to 1 MP where nothing else found a price (`no-sparse`).
    public var sparse = true
    /// Apply the live budget to files too (for measuring it on fixtures: `live-budget`).
    public var forceLiveBudget = false

    public init(preprocess: Bool = true, secondPass: Bool = true, maxRereads: Int = 16) {
        self.preprocess = preprocess
        self.secondPass = secondPass
        self.maxRereads = maxRereads
    }

    public static var fromEnvironment: AccuracyOptions {
        var o = AccuracyOptions()
        let flags = (ProcessInfo.processInfo.environment["PRICECAM_ACCURACY"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if flags.contains("no-preprocess") { o.preprocess = false }
        if flags.contains("no-second-pass") { o.secondPass = false }
        if flags.contains("no-stretch") { o.stretch = false }
        if flags.contains("live-budget") { o.forceLiveBudget = true }
        if flags.contains("no-background-norm") { o.backgroundNorm = false }
        if flags.contains("no-downscale") { o.downscale = false }
        if flags.contains("no-deskew") { o.deskew = false }
        if flags.contains("no-word-reread") { o.wordReread = false }
        if flags.contains("no-sparse") { o.sparse = false }
        if flags.contains("no-sparse-word") { o.sparseWordReread = false }
        return o
    }
}

/// Re-reads lines that look like prices but read badly as single lines
/// (`SetRectangle` + psm 7), enlarged when their text is small, and keeps the
/// better reading by parser validity and confidence.
struct SecondPass {
    let engine: OCREngine
    let parser: PriceParser
    let maxRereads: Int
    /// Milliseconds the pass may spend (nil: no limit).
    var budgetMs: Double? = nil
    /// Live frames: a re-read (the total vote's too) starts only when it is
    /// expected to end within the budget, so the budget bounds the added time
    /// rather than the time before the last re-read starts.
    var strictBudget = false
    /// When `improve` started, and the slowest re-read so far per unit of
    /// scale² (starts at the ~3 ms a SetRectangle + psm 7 read takes on a frame).
    private var started: UInt64 = 0
    private var costPerRead = 3.0

    /// `PRICECAM_DEBUG` set: each re-read and its scores go to stderr.
    static let debug = ProcessInfo.processInfo.environment["PRICECAM_DEBUG"] != nil

    /// Word confidence under which a line holding digits is re-read.
    static let lowConfidence = 0.80
    /// Word confidence under which a line without digits is re-read too.
    static let garbledConfidence = 0.50
    /// Text height (px) under which a re-read enlarges the line; re-reads aim for this height.
    static let smallText = 20
    static let targetHeight = 34.0
    /// On large images (`enlargeTallText` false) text at least this tall (px) is re-read at 1× only,
    /// and its total line voted on at 1× and 2×: enlarging it takes it past the 20–35 px Tesseract's
    /// LSTM reads best and costs 20–55 ms a line (receipts-de: 246 such 2× fallbacks, 33 kept, none
    /// changed a total; 1055 → 830 ms/img). Frames keep the fallback: their few big-text tags gain
    /// from it (perspective tag_0001 "188", symbols frame_0004 "22,900").
    static let noEnlargeHeight = 30
    var enlargeTallText = true
    /// Whether a line's weakest word is re-read alone before the whole line.
    var wordFirst = true
    /// Whether the weakest word is read as sparse text when nothing else read better.
    var sparseWord = true

    /// How many lines the last `improve` re-read, and how many it replaced.
    private(set) var reread = 0
    private(set) var replaced = 0

    init(engine: OCREngine, parser: PriceParser, maxRereads: Int) {
        self.engine = engine
        self.parser = parser
        self.maxRereads = maxRereads
    }

    static func looksNumeric(_ s: String) -> Bool {
        s.unicodeScalars.contains { CharacterSet.decimalDigits.contains($0) }
    }

    /// Whether a price text has a separator followed by exactly two digits ("1,72", "€57.75").
    static func hasCents(_ text: String) -> Bool {
        let c = Array(text)
        for i in c.indices where (c[i] == "." || c[i] == ",") && i > 0 && c[i - 1].isNumber {
            var j = i + 1, n = 0
            while j < c.count && c[j].isNumber { j += 1; n += 1 }
            if n == 2 { return true }
        }
        return false
    }

    static func digitCount(_ s: String) -> Int { s.filter(\.isNumber).count }

    static func medianHeight(_ line: RecognizedLine) -> Int {
        let hs = line.words.map(\.rect.height).sorted()
        return hs.isEmpty ? 0 : hs[hs.count / 2]
    }

    /// Scale for a re-read of text `height` px tall: 1, 2 or 3.
    static func scale(forHeight height: Int) -> Int {
        guard height > 0, height < smallText else { return 1 }
        return min(3, max(2, Int((targetHeight / Double(height)).rounded())))
    }

    /// Parser validity first (each price counts 1, a "range" — often a misread dash — −0.5), then the
    /// prices' own confidence (the words they were read from), or the line's when it holds none.
    func score(_ line: RecognizedLine) -> Double {
        let matches = parser.parse(lines: PageText.lines([line]))
        let conf = line.words.isEmpty ? 0 : line.words.map(\.confidence).reduce(0, +) / Double(line.words.count)
        return matches.map { m in
            if m.flags.contains(.range) { return -0.5 }
            // A kept decimal separator ("57.75", not "5775") is the commonest thing a re-read loses.
            return Self.hasCents(m.text) ? 1.3 : 1.0
        }.reduce(0, +) + (matches.isEmpty ? conf : matches.map(\.confidence).reduce(0, +) / Double(matches.count))
    }

    /// Whether `candidate` is a better reading of `line`. A line that already held
    /// prices gains more only when every price of the new reading is confident.
    func better(_ candidate: RecognizedLine, than line: RecognizedLine) -> Bool {
        guard score(candidate) > score(line) + 0.02 else { return false }
        let old = parser.parse(lines: PageText.lines([line]))
        let new = parser.parse(lines: PageText.lines([candidate]))
        // A digit that appears in front of an amount read before is most often
        // an unknown currency glyph ("円220.90" → "7220.90"), never trust it.
        let oldDigits = old.map { $0.text.filter(\.isNumber) }
        for m in new {
            let d = m.text.filter(\.isNumber)
            if oldDigits.contains(where: { !$0.isEmpty && d.count > $0.count && d.hasSuffix($0) }) { return false }
        }
        if hasUnknownGlyph(line) && Self.digitCount(candidate.text) > Self.digitCount(line.text) { return false }
        if !old.isEmpty && new.count > old.count && new.contains(where: { $0.confidence < 0.6 || $0.flags.contains(.range) }) { return false }
        return true
    }

    /// A word whose digits follow a letter the parser does not take as a
    /// currency ("W46,700" for ₩, "F9" for 円): an unknown glyph beside a number.
    /// A re-read of such a line may turn the glyph into a digit ("722,900"), so it may not add digits.
    func hasUnknownGlyph(_ line: RecognizedLine) -> Bool {
        line.words.contains { w in
            let c = Array(w.text)
            guard let i = c.firstIndex(where: \.isNumber), i > 0, c[i - 1].isLetter else { return false }
            return parser.parse(lines: PageText.lines([RecognizedLine(words: [w], rect: w.rect, confidence: w.confidence)])).isEmpty
        }
    }

    /// Lines worth a second reading: digits, and low confidence, no parsed price, or small text.
    func candidates(_ page: RecognizedPage) -> [Int] {
        var out: [(Int, Double)] = []
        for (i, line) in page.lines.enumerated() {
            guard Self.looksNumeric(line.text) else {
                // A price misread as letters ("1,77" → "Ti,"): a word read very unsurely.
                let weakest = line.words.map(\.confidence).min() ?? 1
                if weakest < Self.garbledConfidence { out.append((i, weakest)) }
                continue
            }
            let minConf = line.words.filter { Self.looksNumeric($0.text) }.map(\.confidence).min() ?? 1
            let parsed = parser.parse(lines: PageText.lines([line]))
            let small = Self.medianHeight(line) < Self.smallText
            if minConf < Self.lowConfidence || parsed.isEmpty || small {
                out.append((i, minConf))
            }
        }
        // Worst first: the line limit and a time budget cut the most confident lines.
        return out.sorted { $0.1 < $1.1 }.prefix(maxRereads).map(\.0)
    }

    /// One way to re-read a line.
    enum Try: Equatable {
        /// The weakest word alone, between its neighbours (psm 7 on a whole receipt line,
        /// label, gap and price, often reads the price no better).
        case word(scale: Int)
        /// The whole line.
        case line(scale: Int)
        /// Last, the weakest word's region read as sparse text (psm 11): the padded region
        /// often catches a neighbouring line, which psm 7 (one line) then reads as junk
        /// or nothing (lowcontrast/tag_0005: "56,49" at 63%; psm 11 reads "26,49").
        case sparseWord(scale: Int)
    }

    /// The tries for a line of text `h` px tall, cheapest and likeliest first.
    func tries(height h: Int) -> [Try] {
        let first = Self.scale(forHeight: h)
        // At the scale the text height asks for; when that reads no better, once more a scale up.
        let scales = (!enlargeTallText && h >= Self.noEnlargeHeight ? [first] : [first, first + 1]).filter { $0 <= 3 }
        let out: [Try] = wordFirst ? [.word(scale: first)] : []
        return out + scales.map { .line(scale: $0) } + (sparseWord ? [.sparseWord(scale: first)] : [])
    }

    /// Re-reads the weakest lines of `page`, read from `image`.
    mutating func improve(_ page: RecognizedPage, image: GrayImage) -> RecognizedPage {
        var page = page
        reread = 0
        replaced = 0
        let start = DispatchTime.now().uptimeNanoseconds
        started = start
        for i in candidates(page) {
            if let budget = budgetMs, Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000 >= budget { break }
            let line = page.lines[i]
            let h = max(Self.medianHeight(line), 1)
            // A "line" taller than half the image is a layout misfire, not text psm 7 can read.
            guard h * 2 <= image.height, let region = Self.region(around: line, height: h, in: image) else { continue }
            let others = page.lines.indices.filter { $0 != i }.flatMap { page.lines[$0].words.map(\.rect) }
            // The best reading so far; the tries stop once it holds a price.
            var best = line
            for t in tries(height: h) {
                let candidate: RecognizedLine?
                switch t {
                case .word(let s), .sparseWord(let s):
                    guard let (j, wordRegion) = Self.weakestWord(in: line, height: h, image: image),
                          let whole = reread(wordRegion, scale: s, image: image, psm: t == .word(scale: s) ? 7 : 11),
                          let read = Self.within(line, whole, others: others) else { continue }
                    var words = line.words
                    words.replaceSubrange(j...j, with: read.words)
                    candidate = RecognizedLine(words: words, rect: line.rect.union(read.rect), confidence: words.map(\.confidence).reduce(0, +) / Double(words.count))
                case .line(let s):
                    candidate = reread(region, scale: s, image: image)
                }
                guard let read = candidate, let candidate = Self.within(line, read, others: others),
                      !repeatsNeighbour(candidate, of: line, region: region, page: page, index: i) else { continue }
                let keep = better(candidate, than: best)
                if Self.debug {
                    FileHandle.standardError.write("reread \(t) h\(h) \(keep ? "KEEP" : "drop") [\(best.text)] \(score(best)) -> [\(candidate.text)] \(score(candidate)) \(candidate.words.map(\.rect))\n".data(using: .utf8)!)
                }
                if keep {
                    best = candidate
                    if !parser.parse(lines: PageText.lines([best])).isEmpty { break }
                }
            }
            if best != line {
                page.lines[i] = best
                replaced += 1
            }
        }
        voteOnTotals(&page, image: image)
        return page
    }

    /// The total line decides most: read it at 1×, 2× and 3× and keep the amount
    /// at least two re-reads agree on, when the current reading has fewer votes.
    private mutating func voteOnTotals(_ page: inout RecognizedPage, image: GrayImage) {
        for (i, line) in page.lines.enumerated() {
            guard let current = parser.parse(lines: PageText.lines([line])).first(where: { $0.role == .total }) else { continue }
            let h = max(Self.medianHeight(line), 1)
            guard let region = Self.region(around: line, height: h, in: image) else { continue }
            var readings: [(Decimal, RecognizedLine)] = []
            for s in (!enlargeTallText && h >= Self.noEnlargeHeight ? [1, 2] : [1, 2, 3]) {
                guard let r = reread(region, scale: s, image: image),
                      let t = parser.parse(lines: PageText.lines([r])).first(where: { $0.role == .total }) else { continue }
                readings.append((t.amount, r))
            }
            var votes: [Decimal: Int] = [:]
            for (a, _) in readings { votes[a, default: 0] += 1 }
            guard let (winner, n) = votes.max(by: { $0.value < $1.value }), n >= 2, winner != current.amount,
                  n > (votes[current.amount] ?? 0) + 1,
                  let pick = readings.first(where: { $0.0 == winner })?.1 else { continue }
            if Self.debug {
                FileHandle.standardError.write("total vote [\(line.text)] -> [\(pick.text)] \(votes)\n".data(using: .utf8)!)
            }
            page.lines[i] = pick
            replaced += 1
        }
    }

    /// The line's box padded for a re-read (⅔ of the text height above and below:
    /// ⅓ read "Water i, 7/2" again, ⅔ reads "Water 1,72"), clipped to the image;
    /// nil when too thin to read.
    static func region(around line: RecognizedLine, height h: Int, in image: GrayImage) -> PixelRect? {
        let padY = max(4, h * 2 / 3), padX = max(6, h)
        let x0 = max(0, line.rect.x - padX), y0 = max(0, line.rect.y - padY)
        let x1 = min(image.width, line.rect.x + line.rect.width + padX)
        let y1 = min(image.height, line.rect.y + line.rect.height + padY)
        guard x1 > x0 + 2, y1 > y0 + 2 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether `candidate` holds an amount that `line` did not and that a line overlapping
    /// `region` holds: psm 7 boxes are loose (a 13 px line's words came back 40 px tall),
    /// so a neighbour read through the padding is caught by its amount, not its place.
    func repeatsNeighbour(_ candidate: RecognizedLine, of line: RecognizedLine, region: PixelRect, page: RecognizedPage, index: Int) -> Bool {
        let before = Set(parser.parse(lines: PageText.lines([line])).map(\.amount))
        let new = Set(parser.parse(lines: PageText.lines([candidate])).map(\.amount)).subtracting(before)
        guard !new.isEmpty else { return false }
        let near = page.lines.indices.filter { $0 != index && page.lines[$0].rect.intersectionArea(region) > 0 }
        let nearAmounts = Set(parser.parse(lines: PageText.lines(near.map { page.lines[$0] })).map(\.amount))
        return !new.isDisjoint(with: nearAmounts)
    }

    /// `read` without the words whose vertical centre lies outside `line`'s box: the
    /// padded region reaches into the lines above and below, whose prices are read already
    /// (a tag's name line re-read as its price line gave every price twice), nor lying
    /// mostly on a word of another line (`others`). Nil when none is left.
    static func within(_ line: RecognizedLine, _ read: RecognizedLine, others: [PixelRect] = []) -> RecognizedLine? {
        let words = read.words.filter { w in
            let cy = w.rect.y + w.rect.height / 2
            return cy >= line.rect.y && cy <= line.rect.y + line.rect.height
                && !others.contains { 2 * w.rect.intersectionArea($0) > w.rect.width * w.rect.height }
        }
        guard !words.isEmpty else { return nil }
        if words.count == read.words.count { return read }
        var rect = words[0].rect
        for w in words.dropFirst() { rect = rect.union(w.rect) }
        return RecognizedLine(words: words, rect: rect, confidence: words.map(\.confidence).reduce(0, +) / Double(words.count))
    }

    /// The least confident word that holds digits or reads unsurely, and the span from its
    /// left neighbour's right edge to its right neighbour's left edge (a misread word's box
    /// often covers only part of the price), padded like a line; nil when every word is sure.
    static func weakestWord(in line: RecognizedLine, height h: Int, image: GrayImage) -> (Int, PixelRect)? {
        let ws = line.words
        guard let j = ws.indices.filter({ looksNumeric(ws[$0].text) || ws[$0].confidence < garbledConfidence })
            .min(by: { ws[$0].confidence < ws[$1].confidence }), ws[j].confidence < lowConfidence else { return nil }
        let padY = max(4, h * 2 / 3), padX = max(6, h)
        let x0 = j > 0 ? ws[j - 1].rect.x + ws[j - 1].rect.width + 2 : max(0, ws[j].rect.x - padX)
        let x1 = j + 1 < ws.count ? ws[j + 1].rect.x - 2 : min(image.width, ws[j].rect.x + ws[j].rect.width + padX)
        let y0 = max(0, line.rect.y - padY), y1 = min(image.height, line.rect.y + line.rect.height + padY)
        guard x1 > x0 + 2, y1 > y0 + 2 else { return nil }
        return (j, PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
    }

    private mutating func reread(_ line: PixelRect, scale s: Int, image: GrayImage, psm: Int = 7) -> RecognizedLine? {
        let x0 = line.x, y0 = line.y
        let cost = costPerRead * Double(s * s)
        if strictBudget, let budget = budgetMs,
           Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000 + cost > budget {
            return nil
        }
        let again: RecognizedPage
        var dx = 0, dy = 0
        if s == 1 {
            // Same pixels, one line: SetRectangle + psm 7 (about 3 ms on a frame; 10–30 ms on a
            // receipt line, as much as cropping first: the LSTM, not the image size, is the cost).
            guard let page = try? engine.recognize(image, region: line, pageSegmentationMode: psm) else { return nil }
            again = page
        } else {
            // Enlarge only the line, never the whole image (a receipt photo is megapixels).
            guard let crop = image.cropped(line), let big = crop.scaled(by: Double(s)),
                  let page = try? engine.recognize(big, pageSegmentationMode: psm) else { return nil }
            again = page
            dx = x0
            dy = y0
        }
        reread += 1
        costPerRead = max(costPerRead, again.milliseconds / Double(s * s))
        if Self.debug { FileHandle.standardError.write("  reread ms \(again.milliseconds) \(line.width)x\(line.height) s\(s)\n".data(using: .utf8)!) }
        let words = again.lines.flatMap(\.words).map { w in
            RecognizedWord(text: w.text, rect: PixelRect(x: dx + w.rect.x / s, y: dy + w.rect.y / s, width: w.rect.width / s, height: w.rect.height / s), confidence: w.confidence)
        }
        guard !words.isEmpty else { return nil }
        var rect = words[0].rect
        for w in words.dropFirst() { rect = rect.union(w.rect) }
        return RecognizedLine(words: words, rect: rect, confidence: words.map(\.confidence).reduce(0, +) / Double(words.count))
    }
}
