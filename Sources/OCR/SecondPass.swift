import Foundation
import Geometry

/// Re-reads lines that look like prices but read badly as single lines
/// (`SetRectangle` + psm 7), enlarged when their text is small, and keeps the
/// better reading by parser validity and confidence.
struct SecondPass {
    let engine: OCREngine
    /// The price-text model, when installed: it reads each total line too, as a second opinion.
    var priceEngine: OCREngine? = nil
    /// The line recogniser (PP-OCRv4's), when installed: it reads each unconfirmed total line too.
    var recognizer: TextRecognizerNet? = nil
    /// The detector's text boxes on the image the pass reads (empty: not known): the recogniser
    /// reads a total line box by box, as it was trained to (a line box from Tesseract's layout
    /// spans the rules and leaders around the text, which the recogniser reads as letters).
    var textBoxes: [Box] = []
    let judge: any PriceJudge
    let maxRereads: Int
    /// Milliseconds the pass may spend (nil: no limit).
    var budgetMs: Double? = nil
    /// Live frames: a re-read (the total vote's too) starts only when it is
    /// expected to end within the budget, so the budget bounds the added time
    /// rather than the time before the last re-read starts.
    var strictBudget = false
    /// The budget is checked before each try of a line, not only before each line.
    var budgetPerTry = false
    /// On files the pass is bounded by work, never time: at most this many pixels read again
    /// (each try counts the pixels it hands Tesseract, its crop × scale²), so the same image
    /// gets the same re-reads on an idle or a loaded machine, in a debug or a release build.
    /// A line re-read costs about what the page read costs per pixel (0.2–0.5 µs a pixel on
    /// this machine kind for both), so a share of the page's pixels bounds about that share
    /// of its reading time. Live frames (`budgetMs`, `strictBudget`) bound latency by time.
    var workBudget: Double? = nil
    private var workSpent = 0.0
    /// When `improve` started (on the budget's clock), and the slowest re-read so far per unit of
    /// scale² (starts at the ~3 ms a SetRectangle + psm 7 read takes on a frame).
    private var started: UInt64 = 0
    private var costPerRead = 3.0

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
    /// Whether a line holding digits is re-read when its text is small (under `smallText` px)
    /// though every digit was read surely (`candidates`). Not for lines read from crops scaled
    /// to the recogniser's glyph height (a document's rows, `PageReader.readRows`): their
    /// small print was read enlarged already.
    var smallDigits = true
    /// Whether a line's weakest word holding digits is read by the line recogniser before
    /// Tesseract's re-reads (`recognizerWord`; `AccuracyOptions.recognizerWords`).
    var recognizerWords = true

    /// How many lines the last `improve` re-read, and how many it replaced.
    private(set) var reread = 0
    private(set) var replaced = 0
    /// How many of those re-reads the total vote made (the price model's included).
    private(set) var voteRereads = 0

    init(engine: OCREngine, judge: any PriceJudge, maxRereads: Int) {
        self.engine = engine
        self.judge = judge
        self.maxRereads = maxRereads
    }

    static func looksNumeric(_ s: String) -> Bool {
        s.unicodeScalars.contains { CharacterSet.decimalDigits.contains($0) }
    }

    static func hasCents(_ text: String) -> Bool { PriceReading.hasCents(text) }

    static func digitCount(_ s: String) -> Int { s.filter(\.isNumber).count }

    static func medianHeight(_ line: TextLine) -> Int {
        line.words.compactMap(\.box?.height).median ?? 0
    }

    /// Scale for a re-read of text `height` px tall: 1, 2 or 3.
    static func scale(forHeight height: Int) -> Int {
        guard height > 0, height < smallText else { return 1 }
        return min(3, max(2, Int((targetHeight / Double(height)).rounded())))
    }

    func score(_ line: TextLine) -> Double { judge.score(line) }

    /// How much higher a re-read must score to replace a reading, so that a tie in all but the
    /// confidences' noise keeps the first reading (set with the first second pass on the
    /// fixtures; not measured apart since).
    static let betterMargin = 0.02
    /// Least confidence of each price a re-read adds to a line that held prices already: more
    /// prices on a priced line are believed only when sure (set with the first second pass on
    /// the fixtures; not measured apart since).
    static let addedPriceConfidence = 0.6

    /// Whether `candidate` is a better reading of `line`. A line that already held
    /// prices gains more only when every price of the new reading is confident; a line naming
    /// the total keeps that word.
    func better(_ candidate: TextLine, than line: TextLine) -> Bool {
        guard score(candidate) > score(line) + Self.betterMargin else { return false }
        // The word naming the total is what makes a line's amount the total: a re-read that
        // loses it loses the total, whatever it adds (sroie-dev 043: `Total (Inclusive of
        // GST): e000` over a big `TOTAL: 190.00`, read again as `wa ¢ 01`).
        if judge.namesTotal(line) && !judge.namesTotal(candidate) { return false }
        let old = judge.prices(in: [line])
        let new = judge.prices(in: [candidate])
        // A digit that appears in front of an amount read before is most often
        // an unknown currency glyph ("円220.90" → "7220.90"), never trust it.
        let oldDigits = old.map { $0.text.filter(\.isNumber) }
        for m in new {
            let d = m.text.filter(\.isNumber)
            if oldDigits.contains(where: { !$0.isEmpty && d.count > $0.count && d.hasSuffix($0) }) { return false }
        }
        if hasUnknownGlyph(line) && Self.digitCount(candidate.text) > Self.digitCount(line.text) { return false }
        if !old.isEmpty && new.count > old.count && new.contains(where: { $0.confidence < Self.addedPriceConfidence || $0.isRange }) {
            return false
        }
        return true
    }

    /// A word whose digits follow a letter the parser does not take as a
    /// currency ("W46,700" for ₩, "F9" for 円): an unknown glyph beside a number.
    /// A re-read of such a line may turn the glyph into a digit ("722,900"), so it may not add digits.
    func hasUnknownGlyph(_ line: TextLine) -> Bool {
        line.words.contains { w in
            let c = Array(w.text)
            guard let i = c.firstIndex(where: \.isNumber), i > 0, c[i - 1].isLetter else { return false }
            return judge.prices(in: [TextLine(words: [w])]).isEmpty
        }
    }

    /// Lines worth a second reading: digits read unsurely or small, or a word read very unsurely.
    ///
    /// Digits read surely (every word holding one at least `lowConfidence`) at a comfortable
    /// height are left as read even when they parse to no price: they are a phone number, a
    /// date, an address, opening hours (a menu's `电话 010-6543-2100` at 0.93, `营业时间
    /// 10:30-22:00` at 0.92), and read again they read the same. Re-reading them too cost the
    /// fixture menus a fifth of their re-reads (268 → 215 for 22 menus); leaving them changed
    /// no figure of the four dev sets, the other fixture families or any of their perturbed
    /// copies, and moved the menus' amounts by a price or two either way (clean: P 0.947 →
    /// 0.954, R 0.950 both; docs/benchmarks/2026-11-29-sure-digits.md). A price misread surely
    /// as no price (a menu's `14,00` as `L4,00` at 0.89) is read again from its detector box
    /// (`PageReader.withPriceColumn`).
    func candidates(_ page: RecognizedPage) -> [Int] {
        var out: [(Int, Double)] = []
        for (i, line) in page.lines.enumerated() {
            let (weakest, unsure) = Self.weakest(line)
            if unsure || (smallDigits && Self.looksNumeric(line.text) && Self.medianHeight(line) < Self.smallText) {
                out.append((i, weakest))
            }
        }
        // Worst first: the line limit and a time budget cut the most confident lines.
        return out.sorted { $0.1 < $1.1 }.prefix(maxRereads).map(\.0)
    }

    /// The confidence of `line`'s weakest word that counts (its words with digits; every word of
    /// a line without), and whether that is unsure: digits under `lowConfidence`, or, on a line
    /// without digits, a word under `garbledConfidence` (a price misread as letters, "1,77" →
    /// "Ti,").
    static func weakest(_ line: TextLine) -> (confidence: Double, unsure: Bool) {
        guard looksNumeric(line.text) else {
            let weakest = line.words.map(\.confidence).min() ?? 1
            return (weakest, weakest < garbledConfidence)
        }
        let weakest = line.words.filter { looksNumeric($0.text) }.map(\.confidence).min() ?? 1
        return (weakest, weakest < lowConfidence)
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

    /// Now on the live budget's clock (nanoseconds).
    private var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Milliseconds since `improve` started, on the budget's clock.
    private var elapsedMs: Double { Double(now - started) / 1_000_000 }

    /// Whether the pass has used up its budget (never without one).
    private var budgetSpent: Bool { (budgetMs.map { elapsedMs >= $0 } ?? false) || (workBudget.map { workSpent >= $0 } ?? false) }

    /// Re-reads the weakest lines of `page`, read from `image`.
    mutating func improve(_ page: RecognizedPage, image: GrayImage) -> RecognizedPage {
        var page = page
        reread = 0
        replaced = 0
        workSpent = 0
        let start = DispatchTime.now().uptimeNanoseconds
        started = now
        let centsPage = Self.mostlyCents(judge.prices(in: page.lines))
        // The recogniser reads every candidate's weakest amount (at most `maxRereads`, one net
        // run each), when the work budget has stopped Tesseract's re-reads too: it bounds the
        // pixels Tesseract reads again, and a sure amount the recogniser reads costs it nothing.
        let wordsPastBudget = recognizerWords && recognizer != nil && !strictBudget
        for i in candidates(page) {
            let spent = budgetSpent
            if spent && !wordsPastBudget { break }
            let line = page.lines[i]
            let h = max(Self.medianHeight(line), 1)
            // A "line" taller than half the image is a layout misfire, not text psm 7 can read.
            guard h * 2 <= image.height, let region = Self.region(around: line, height: h, in: image) else { continue }
            // The other lines' word boxes, gathered on the first Tesseract try (the recogniser's
            // step and a spent budget need none).
            lazy var others = page.lines.indices.filter { $0 != i }.flatMap { page.lines[$0].words.compactMap(\.box) }
            // The best reading so far; the tries stop once it holds a price or reads surely.
            var best = line
            // The region with the line's leaders painted over, made on the first whole-line try
            // (a line whose word tries end it, or the budget, never pays for it).
            lazy var leaderless = Self.withoutLeaders(line, in: region, image: image)
            if recognizerWords, let read = recognizerWord(line, height: h, image: image, centsPage: centsPage), better(read, than: best) {
                OCRLog.write("reread recogniser h\(h) KEEP [\(best.text)] \(score(best)) -> [\(read.text)] \(score(read))")
                page.lines[i] = read
                replaced += 1
                continue
            }
            if spent { continue }
            for t in tries(height: h) {
                if budgetPerTry && budgetSpent { break }
                let candidate: TextLine?
                switch t {
                case .word(let s), .sparseWord(let s):
                    guard let (j, wordRegion) = Self.weakestWord(in: line, height: h, image: image),
                        let whole = reread(wordRegion, scale: s, image: image, psm: t == .word(scale: s) ? 7 : 11),
                        let read = Self.within(line, whole, others: others)
                    else { continue }
                    var words = line.words
                    words.replaceSubrange(j...j, with: read.words)
                    candidate = TextLine(words: words)
                case .line(let s):
                    candidate = reread(region, scale: s, image: image, crop: leaderless)
                }
                guard let read = candidate, let candidate = Self.within(line, read, others: others),
                    !repeatsNeighbour(candidate, of: line, region: region, page: page, index: i)
                else { continue }
                let keep = better(candidate, than: best)
                OCRLog.write(
                    "reread \(t) h\(h) \(keep ? "KEEP" : "drop") [\(best.text)] \(score(best)) -> [\(candidate.text)] \(score(candidate)) \(candidate.words.compactMap(\.box))"
                )
                if keep {
                    best = candidate
                    // Done once it holds a price, or once it reads surely: a line that read so
                    // the first time was not re-read for its confidence (`candidates`), and it
                    // has now been read at the scale its text height asks for. Read again, a
                    // menu's sure bare number (`Fish and chips 36` at 0.96) reads the same.
                    if !judge.prices(in: [best]).isEmpty || !Self.weakest(best).unsure { break }
                }
            }
            if best != line {
                page.lines[i] = best
                replaced += 1
            }
        }
        let voteStart = DispatchTime.now().uptimeNanoseconds
        let lineRereads = reread
        voteOnTotals(&page, image: image)
        voteRereads = reread - lineRereads
        let end = DispatchTime.now().uptimeNanoseconds
        OCRLog.write(
            "second pass: \(lineRereads) line re-reads in \(Double(voteStart - start) / 1e6) ms, total vote \(voteRereads) in \(Double(end - voteStart) / 1e6) ms"
        )
        return page
    }

    /// The total line decides most: read it again at 1×, 2× and 3× and keep the amount at
    /// least two re-reads agree on, when the current reading has fewer votes; or the amount a
    /// re-read and the price model agree on, when the model does not read the current one.
    private mutating func voteOnTotals(_ page: inout RecognizedPage, image: GrayImage) {
        let pagePrices = recognizer != nil ? judge.prices(in: page.lines) : []
        let centsPage = Self.mostlyCents(pagePrices)
        for (i, line) in page.lines.enumerated() {
            // Not a line whose words name another amount (`Sub Total`, `Total GST`, `Total Qty`):
            // the page's total choice takes its amount only when amounts above add up to it. On
            // sroie-dev, receipts-de and 18 perturbed copies of them no total or marked total
            // changed without those votes, and the vote cost 65 ms an image instead of 85
            // (docs/benchmarks/2026-11-26-fixed-input.md).
            guard !judge.namesAnotherAmount(line) else { continue }
            let h = max(Self.medianHeight(line), 1)
            guard let current = judge.prices(in: [line]).first(where: { $0.isTotal }) else {
                // A line naming the total whose amount Tesseract did not read as one: the
                // recogniser's reading, when sure.
                if judge.namesTotal(line), let (t, read) = recognizerTotal(line, height: h, image: image),
                    standsAlone(read, total: t, line: line, current: nil, centsPage: centsPage)
                        || (line.words.contains { Self.strayDigit(in: $0.text, against: t.text) } && !addsAmounts(read, to: line)
                            && centsElsewhere(pagePrices, besides: line))
                {
                    OCRLog.write("total by recogniser [\(line.text)] -> [\(read.text)] \(t.amount)")
                    page.lines[i] = read
                    replaced += 1
                }
                continue
            }
            // An amount the rest of the page confirms (printed again, paid, the sum of the lines
            // above) is not misread: re-reads of the one line could only outvote two readings
            // that agree (sroie-dev 087 at half size: `Total Rounded 538.00` under `Total RM
            // Including GST 538.00`, its box taking in the line above, re-read `898,00` three
            // times).
            if judge.confirmsTotal(current.amount, line: i, of: page.lines) {
                OCRLog.write("total vote: [\(line.text)] confirmed by the page")
                continue
            }
            guard let region = Self.region(around: line, height: h, in: image) else { continue }
            let second = recognizerTotal(line, height: h, image: image)
            if let (t, read) = second {
                if t.amount == current.amount {
                    OCRLog.write("total vote: [\(line.text)] confirmed by the recogniser")
                    continue
                }
                if standsAlone(read, total: t, line: line, current: current, centsPage: centsPage) {
                    OCRLog.write("total vote: [\(line.text)] -> [\(read.text)] by the recogniser")
                    page.lines[i] = read
                    replaced += 1
                    continue
                }
                if Self.strayDigit(in: current.text, against: t.text), !addsAmounts(read, to: line),
                    centsElsewhere(pagePrices, besides: line)
                {
                    OCRLog.write("total vote: [\(line.text)] -> [\(read.text)] by the recogniser (a stray digit)")
                    page.lines[i] = read
                    replaced += 1
                    continue
                }
                // Two witnesses against one unsure reading: the recogniser, trained apart from
                // Tesseract, reads an amount that the rest of the page confirms (printed again,
                // paid, the sum of the lines above), where Tesseract's is confirmed by nothing
                // (checked above). A receipt's total is what was paid.
                if !addsAmounts(read, to: line), judge.confirmsTotal(t.amount, line: i, of: page.lines) {
                    OCRLog.write("total vote: [\(line.text)] -> [\(read.text)] by the recogniser, confirmed by the page")
                    page.lines[i] = read
                    replaced += 1
                    continue
                }
            }
            var readings: [(PriceReading, TextLine)] = []
            for s in (!enlargeTallText && h >= Self.noEnlargeHeight ? [1, 2] : [1, 2, 3]) {
                guard let r = reread(region, scale: s, image: image),
                    let t = judge.prices(in: [r]).first(where: { $0.isTotal })
                else { continue }
                readings.append((t, r))
                // Read alike three times (the page, 1×, 2×): a third re-read can no longer outvote
                // it, and the model is asked only when a re-read differs.
                if readings.count == 2, readings.allSatisfy({ $0.0.amount == current.amount }) { break }
            }
            // The recogniser's reading, unsure, counts as one more vote.
            if let second { readings.append(second) }
            var votes: [Decimal: Int] = [:]
            for (t, _) in readings { votes[t.amount, default: 0] += 1 }
            var pick: (PriceReading, TextLine)?
            if let (winner, n) = votes.max(by: { $0.value < $1.value }), n >= 2, winner != current.amount,
                n > (votes[current.amount] ?? 0) + 1
            {
                pick = readings.first { $0.0.amount == winner }
            } else if readings.contains(where: { $0.0.amount != current.amount }),
                let model = modelTotals(region, height: h, image: image), !model.contains(current.amount)
            {
                // Two recognisers trained apart rarely make the same mistake: sroie-dev
                // "Total Rounded 23,30" → stock 2× and model "29.30". The model alone is no
                // better than stock on receipt print (it read 79.36 for 79.35), so it only
                // confirms a stock re-read, never stands alone.
                pick = readings.first { $0.0.amount != current.amount && model.contains($0.0.amount) }
            }
            guard let (picked, read) = pick else { continue }
            // Re-reads of a total line at other scales often split its amount ("RM 68.10" →
            // "RM i 68 . 10", parsed as 10, twice): a vote never replaces a reading with fewer
            // digits, nor one that has a decimal part with one that lost it. (A vote between
            // readings of the same shape stays: receipts-de "SUMME EUR 26,61" → "28,81".)
            let digits = { (t: String) in t.filter(\.isNumber).count }
            // A reading with cents does replace one without that has a digit more (`19,416`, parsed
            // as thousands, → `19,46`): the lost digit was a stray.
            let cents = (current: PriceReading.hasCents(current.text), picked: PriceReading.hasCents(picked.text))
            if (digits(picked.text) < digits(current.text) && !(cents.picked && !cents.current)) || (cents.current && !cents.picked) {
                OCRLog.write("total vote kept [\(line.text)] over [\(read.text)] \(votes)")
                continue
            }
            OCRLog.write("total vote [\(line.text)] -> [\(read.text)] \(votes)")
            page.lines[i] = read
            replaced += 1
        }
    }

    /// Whether the recogniser's reading `read` of `line`, whose total is `total`, replaces
    /// Tesseract's (`current`, nil when the line has no total read) alone: every character of
    /// its amounts sure, no amount more than the line held, and, on a page whose amounts mostly
    /// have cents (`centsPage`), cents on its total unless the current reading has none either.
    /// The recogniser drops a small decimal comma now and then (receipts-de at JPEG quality 30:
    /// `Total 1,95` read `Total 195` at 0.98) and reads one as a space (`SUMME EUR 27 42` for
    /// Tesseract's `21,42`); a current `25. 92` (sroie-dev 318, parsed 92) is no better.
    func standsAlone(_ read: TextLine, total: PriceReading, line: TextLine, current: PriceReading?, centsPage: Bool) -> Bool {
        let centsKept = !centsPage || PriceReading.hasCents(total.text) || current.map { !PriceReading.hasCents($0.text) } ?? false
        return Self.isSure(read) && !addsAmounts(read, to: line) && centsKept
    }

    /// Whether Tesseract's total `current` reads as the recogniser's `recognized` with one digit
    /// more, which took its cents away: `5,417` (parsed as thousands) for the recogniser's `5.47`.
    /// On a page whose amounts have cents, a total printed without them is not the likelier
    /// reading; two readers trained apart agreeing on every other digit, in order, is the
    /// evidence, however unsure the recogniser is of its characters (receipts-de at JPEG
    /// quality 30: a stray tick after the comma of `SUMME EUR 5,47`, read `5,417` by Tesseract
    /// at 0.54 and `5.47` by the recogniser at 0.70, the price model `6.-17`).
    static func strayDigit(in current: String, against recognized: String) -> Bool {
        guard !PriceReading.hasCents(current), PriceReading.hasCents(recognized) else { return false }
        let more = current.filter(\.isNumber), fewer = recognized.filter(\.isNumber)
        guard more.count == fewer.count + 1 else { return false }
        return more.indices.contains { i in
            var less = more
            less.remove(at: i)
            return less == fewer
        }
    }

    /// Whether the page's amounts (`pagePrices`) other than those read on `line` mostly have
    /// cents: the page's own convention, which a misread total on `line` must not decide.
    func centsElsewhere(_ pagePrices: [PriceReading], besides line: TextLine) -> Bool {
        let own = judge.prices(in: [line]).map(\.text)
        return Self.mostlyCents(pagePrices.filter { !own.contains($0.text) })
    }

    /// Whether more than half of `prices` have cents (a page in euros, ringgit or dollars, not yen).
    static func mostlyCents(_ prices: [PriceReading]) -> Bool {
        prices.filter { PriceReading.hasCents($0.text) }.count * 2 > prices.count
    }

    /// Whether the recogniser's reading `read` of `line` holds more amounts than the line held
    /// (at least one): its boxes then took in a neighbour's (a tilted row's `29.28` read with the
    /// `0.02` of the line below), and it does not stand alone.
    func addsAmounts(_ read: TextLine, to line: TextLine) -> Bool {
        judge.prices(in: [read]).count > max(1, judge.prices(in: [line]).count)
    }

    /// The detector's boxes a line was read from: each box that holds the centre of one of its
    /// words; on a level row (those boxes' span at most `levelRowSpan` box heights tall) also the
    /// boxes beside them on the row (at least `rowOverlap` of a box's height within that span, at
    /// most as tall as `levelRowSpan` of theirs), where an amount the reading lost is. A tilted
    /// page's rows run into each other (sroie-dev tilted 244: the row above's `50.00` was taken
    /// into `Total Rounded`), so its lines get their own boxes only. Left to right.
    static func rowBoxes(of line: TextLine, among boxes: [Box]) -> [Box] {
        let centres = line.words.compactMap(\.box).map { (x: $0.x + $0.width / 2, y: $0.y + $0.height / 2) }
        let core = boxes.filter { b in centres.contains { b.x <= $0.x && $0.x < b.x + b.width && b.y <= $0.y && $0.y < b.y + b.height } }
        guard let first = core.first else { return [] }
        let span = core.dropFirst().reduce(first) { $0.union($1) }
        let typical = Double(core.map(\.height).median ?? first.height)
        var out = core
        if Double(span.height) <= levelRowSpan * typical {
            out += boxes.filter { b in
                guard !core.contains(b), Double(b.height) <= levelRowSpan * typical else { return false }
                let overlap = min(b.y + b.height, span.y + span.height) - max(b.y, span.y)
                return Double(overlap) >= rowOverlap * Double(b.height)
            }
        }
        return out.sorted { $0.x < $1.x }
    }

    /// A row whose boxes span at most this many box heights is level: a receipt's row of
    /// keyword and amount, boxed apart, is about one tall; rows in perspective or tilted
    /// pages' lines span more.
    static let levelRowSpan = 1.5
    /// Share of a box's height that must lie within a level row's span for it to be on the row
    /// (the line above or below overlaps by its margins only: a detector box carries about a
    /// third of its text's height around it).
    static let rowOverlap = 0.7

    /// Least probability of every character of a recogniser's reading's words that hold digits
    /// for it to stand alone against Tesseract's.
    static let recognizerSure = 0.9

    /// Whether the recogniser read `line`'s amounts surely (`recognizerSure`).
    static func isSure(_ line: TextLine) -> Bool {
        let numbers = line.words.filter { looksNumeric($0.text) }
        return !numbers.isEmpty && numbers.allSatisfy { $0.confidence >= recognizerSure }
    }

    /// The line recogniser's reading of `line` and the total it parses to; nil without the
    /// recogniser, a reading or a total. The line is read as the detector's boxes it was read
    /// from (`rowBoxes`), left to right; when the detector boxed none of it, as the line's box
    /// with a third of the text height around.
    private mutating func recognizerTotal(_ line: TextLine, height h: Int, image: GrayImage) -> (PriceReading, TextLine)? {
        guard let recognizer, !strictBudget, let l = line.box else { return nil }
        let start = DispatchTime.now().uptimeNanoseconds
        var parts = Self.rowBoxes(of: line, among: textBoxes)
        if parts.isEmpty {
            let padded = RegionReader.crop(l, padded: max(2, h / 3), in: image)
            guard padded.width > 2, padded.height > 2 else { return nil }
            parts = [padded]
        }
        var words: [TextWord] = []
        for b in parts {
            let clipped = Box(
                x: max(0, b.x), y: max(0, b.y), width: min(image.width, b.x + b.width) - max(0, b.x),
                height: min(image.height, b.y + b.height) - max(0, b.y))
            guard clipped.width > 2, clipped.height > 2, let read = try? recognizer.read(image, box: clipped) else { continue }
            reread += 1
            words += Self.onLine(read.words, l)
        }
        guard !words.isEmpty else { return nil }
        var read = TextLine(words: words)
        var total = judge.prices(in: [read]).first(where: { $0.isTotal })
        if total == nil {
            // The recogniser often reads a narrow gap without its space (sroie-dev 347
            // `TotalPayable -1.73`), and the parser takes no keyword inside a word: its words
            // with digits, with Tesseract's other words of the line around them.
            let numbers = read.words.filter { Self.looksNumeric($0.text) }
            let others = line.words.filter { w in
                guard !Self.looksNumeric(w.text), let b = w.box else { return false }
                return !numbers.contains { n in n.box.map { b.intersectionArea($0) > 0 } ?? false }
            }
            let merged = TextLine(words: (others + numbers).sorted { ($0.box?.x ?? 0) < ($1.box?.x ?? 0) })
            if !numbers.isEmpty, let t = judge.prices(in: [merged]).first(where: { $0.isTotal }) { (read, total) = (merged, t) }
        }
        OCRLog.write(
            "  total by recogniser (\(parts.count) boxes) [\(read.text)] \(read.words.map { Int($0.confidence * 100) }) -> \(total.map { "\($0.amount) @\($0.confidence)" } ?? "none") in \(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) ms"
        )
        return total.map { ($0, read) }
    }

    /// `line` with its weakest word holding digits read again by the line recogniser, nil when
    /// that reading does not stand (or there is no recogniser, or the pass runs on a live frame's
    /// time budget). Only a word Tesseract read as a price is asked about: a receipt's unsure
    /// digits are as often a phone number, an invoice number or an address, which the
    /// recogniser reads in full 1280-column lines for nothing (asked about every unsure word,
    /// sroie-dev cost 24% more CPU for the same figures).
    ///
    /// The recogniser reads the detector's box that holds the word's centre (the word's box with
    /// a third of the line's height around it when the detector boxed none), as it was trained
    /// to; its words holding digits whose centres lie between the word's neighbours take the
    /// word's place. They stand when every character of them is sure
    /// (`recognizerSure`), they hold a price, and they keep the page's cents: on a page whose
    /// amounts mostly have cents (`centsPage`), an amount without them, or one that lost the
    /// word's decimal separator, is the recogniser's known slip (a small comma dropped, `1,95`
    /// read `195` at 0.98), not a better reading.
    ///
    /// Tesseract reads blurred and faded digits wrong where the recogniser, trained on
    /// photographed print, reads them surely: sroie-dev 244 blurred, `Total Rounded 29.30` read
    /// `Tota) Rounded 23.0` at 0.62, the recogniser `29.30` at 0.998. A sure reading ends the
    /// line's re-reads (one net run of about 20 ms instead of up to four Tesseract reads).
    private mutating func recognizerWord(_ line: TextLine, height h: Int, image: GrayImage, centsPage: Bool) -> TextLine? {
        guard let recognizer, !strictBudget, let l = line.box else { return nil }
        let ws = line.words
        guard
            let j = ws.indices.filter({ Self.looksNumeric(ws[$0].text) }).min(by: { ws[$0].confidence < ws[$1].confidence }),
            ws[j].confidence < Self.lowConfidence, let word = ws[j].box,
            judge.prices(in: [TextLine(words: [ws[j]])]).contains(where: { !$0.isRange })
        else { return nil }
        let cx = word.x + word.width / 2, cy = word.y + word.height / 2
        let holding = textBoxes.filter { $0.x <= cx && cx < $0.x + $0.width && $0.y <= cy && cy < $0.y + $0.height }
        let pad = max(2, h / 3)
        let chosen =
            holding.min { $0.width * $0.height < $1.width * $1.height }
            ?? Box(x: word.x - pad, y: l.y - pad, width: word.width + 2 * pad, height: l.height + 2 * pad)
        let x0 = max(0, chosen.x), y0 = max(0, chosen.y)
        let x1 = min(image.width, chosen.x + chosen.width), y1 = min(image.height, chosen.y + chosen.height)
        guard x1 - x0 > 2, y1 - y0 > 2, let read = try? recognizer.read(image, box: Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        else { return nil }
        reread += 1
        // Between the word's neighbours: the detector's box may hold the whole row.
        let left = j > 0 ? ws[j - 1].box.map { $0.x + $0.width } ?? Int.min : Int.min
        let right = j + 1 < ws.count ? ws[j + 1].box.map(\.x) ?? Int.max : Int.max
        let numbers = read.words.filter { w in
            guard Self.looksNumeric(w.text), let b = w.box else { return false }
            return left <= b.x + b.width / 2 && b.x + b.width / 2 < right
        }
        OCRLog.write(
            "  recogniser word [\(ws[j].text)] -> [\(numbers.map { "\($0.text)@\(Int($0.confidence * 100))" }.joined(separator: " "))]")
        guard !numbers.isEmpty, numbers.allSatisfy({ $0.confidence >= Self.recognizerSure }) else { return nil }
        let amount = TextLine(words: numbers)
        guard let price = judge.prices(in: [amount]).first, !Self.separated(ws[j].text) || Self.separated(amount.text),
            !centsPage || PriceReading.hasCents(price.text)
        else { return nil }
        var words = ws
        words.replaceSubrange(j...j, with: Self.onLine(numbers, l))
        return TextLine(words: words)
    }

    /// The recogniser's `words` as tall as the Tesseract line `line` they read again. The
    /// detector's boxes carry a margin above and below the ink (DB's unclip); the words take
    /// the height Tesseract measured of the line's ink, so that a line read by the recogniser
    /// is not taken for one printed taller (`TotalChoice.tallerRatio`; sroie-dev 307: `Total
    /// Sales Incl GST 46.54` read again 147 px tall kept the total from `Total After Adj
    /// 46.55`, 87 px).
    static func onLine(_ words: [TextWord], _ line: Box) -> [TextWord] {
        words.map { w in
            var w = w
            if let b = w.box { w.box = Box(x: b.x, y: line.y, width: b.width, height: line.height) }
            return w
        }
    }

    /// Whether `text` has a decimal or grouping mark between two digits (`23.0`, `1,95`).
    static func separated(_ text: String) -> Bool {
        let c = Array(text)
        return c.indices.dropFirst().dropLast().contains { (c[$0] == "." || c[$0] == ",") && c[$0 - 1].isNumber && c[$0 + 1].isNumber }
    }

    /// The total amounts the price model reads in `region` (enlarged like a stock re-read
    /// when its text is small); nil without the model or a reading.
    private mutating func modelTotals(_ region: Box, height h: Int, image: GrayImage) -> Set<Decimal>? {
        // Not on live frames: their budget is spent by the stock re-reads.
        guard let priceEngine, !strictBudget, let crop = image.cropped(region) else { return nil }
        let s = Self.scale(forHeight: h)
        guard let piece = s == 1 ? crop : crop.scaled(by: Double(s)),
            let read = try? priceEngine.recognize(piece, pageSegmentationMode: 7)
        else { return nil }
        reread += 1
        let words = read.lines.flatMap(\.words)
        guard !words.isEmpty else { return nil }
        let line = TextLine(words: words)
        OCRLog.write("  total by price model s\(s) [\(line.text)]")
        return Set(judge.prices(in: [line]).filter(\.isTotal).map(\.amount))
    }

    /// The line's box padded for a re-read (⅔ of the text height above and below:
    /// ⅓ read "Water i, 7/2" again, ⅔ reads "Water 1,72"), clipped to the image;
    /// nil when too thin to read.
    static func region(around line: TextLine, height h: Int, in image: GrayImage) -> Box? {
        guard let b = line.box else { return nil }
        let padY = max(4, h * 2 / 3), padX = max(6, h)
        let x0 = max(0, b.x - padX), y0 = max(0, b.y - padY)
        let x1 = min(image.width, b.x + b.width + padX)
        let y1 = min(image.height, b.y + b.height + padY)
        guard x1 > x0 + 2, y1 > y0 + 2 else { return nil }
        return Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether `candidate` holds an amount that `line` did not and that a line overlapping
    /// `region` holds: psm 7 boxes are loose (a 13 px line's words came back 40 px tall),
    /// so a neighbour read through the padding is caught by its amount, not its place.
    func repeatsNeighbour(_ candidate: TextLine, of line: TextLine, region: Box, page: RecognizedPage, index: Int) -> Bool {
        let before = judge.amounts(in: line)
        let new = judge.amounts(in: candidate).subtracting(before)
        guard !new.isEmpty else { return false }
        let near = page.lines.indices.filter { $0 != index && (page.lines[$0].box?.intersectionArea(region) ?? 0) > 0 }
        let nearAmounts = Set(judge.prices(in: near.map { page.lines[$0] }).map(\.amount))
        return !new.isDisjoint(with: nearAmounts)
    }

    /// `read` without the words whose vertical centre lies outside `line`'s box: the
    /// padded region reaches into the lines above and below, whose prices are read already
    /// (a tag's name line re-read as its price line gave every price twice), nor lying
    /// mostly on a word of another line (`others`). Nil when none is left.
    static func within(_ line: TextLine, _ read: TextLine, others: [Box] = []) -> TextLine? {
        guard let l = line.box else { return nil }
        let words = read.words.filter { w in
            guard let b = w.box else { return false }
            let cy = b.y + b.height / 2
            return cy >= l.y && cy <= l.y + l.height && !others.contains { 2 * b.intersectionArea($0) > b.width * b.height }
        }
        guard !words.isEmpty else { return nil }
        return words.count == read.words.count ? read : TextLine(words: words)
    }

    /// The least confident word that holds digits or reads unsurely, and the span from its
    /// left neighbour's right edge to its right neighbour's left edge (a misread word's box
    /// often covers only part of the price), padded like a line; nil when every word is sure.
    static func weakestWord(in line: TextLine, height h: Int, image: GrayImage) -> (Int, Box)? {
        let ws = line.words
        guard
            let j = ws.indices.filter({ looksNumeric(ws[$0].text) || ws[$0].confidence < garbledConfidence })
                .min(by: { ws[$0].confidence < ws[$1].confidence }), ws[j].confidence < lowConfidence,
            let word = ws[j].box, let l = line.box
        else { return nil }
        let left = j > 0 ? ws[j - 1].box : nil, right = j + 1 < ws.count ? ws[j + 1].box : nil
        let padY = max(4, h * 2 / 3), padX = max(6, h)
        let x0 = left.map { $0.x + $0.width + 2 } ?? max(0, word.x - padX)
        let x1 = right.map { $0.x - 2 } ?? min(image.width, word.x + word.width + padX)
        let y0 = max(0, l.y - padY), y1 = min(image.height, l.y + l.height + padY)
        guard x1 > x0 + 2, y1 > y0 + 2 else { return nil }
        return (j, Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
    }

    /// `region` of `image` with the words of `line` that are a leader or a rule painted over
    /// with the ground (nil when `line` has none): a menu's dot leader (`......` between a dish
    /// and its price), a receipt's dashes. Tesseract reads a leader as a long word of junk
    /// (`..........cceeeeeeeeeereetteetee` at 0.00), slowly (a 771 px fixture menu line
    /// re-read in 23–58 ms with its leader, 10–23 ms without, on one idle core), and the junk
    /// beside the price is what keeps the price unsure: without it `Grilled salmon (480 kcal)
    /// ...... OF` re-reads as `Grilled salmon (480 kcal) 37` at 0.97. Such a word is, at once:
    /// - flat: under Geometry's `flatShare` (a third) as tall as the line's median word, the
    ///   share the parser takes digits read in a leader for no price by;
    /// - wide: at least `leaderWidth` median word heights (a minus or a dash before a price is
    ///   flat too, and short);
    /// - without ink of a glyph's size across the line's height (`measureGlyphs`: no
    ///   component at least 3/10 of that height), as a safeguard against a box Tesseract drew
    ///   too small around real text.
    static func withoutLeaders(_ line: TextLine, in region: Box, image: GrayImage) -> GrayImage? {
        let h = medianHeight(line)
        let isLeader = { (b: Box) in b.isFlat(onLineOf: h) && b.width >= leaderWidth * h }
        guard h > 0, let l = line.box, line.words.contains(where: { $0.box.map(isLeader) ?? false }),
            let crop = image.cropped(region)
        else { return nil }
        var pixels = crop.bytes()
        let w = crop.width, ch = crop.height
        var leaders: [Box] = []
        for word in line.words {
            guard let b = word.box, isLeader(b) else { continue }
            let x0 = max(0, b.x - region.x), x1 = min(w, b.x + b.width - region.x)
            let y0 = max(0, l.y - region.y), y1 = min(ch, l.y + l.height - region.y)
            guard x1 - x0 >= 3, y1 - y0 >= 3 else { continue }
            let across = Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            let ink = TextDetectorNet.measureGlyphs(pixels: pixels, width: w, height: ch, box: across)
            if (ink?.glyphHeight ?? 0) == 0 { leaders.append(across) }
        }
        guard !leaders.isEmpty else { return nil }
        // The ground: the median of the crop's rim (the padding around the line).
        var rim: [UInt8] = []
        for x in 0..<w { rim += [pixels[x], pixels[(ch - 1) * w + x]] }
        for y in 0..<ch { rim += [pixels[y * w], pixels[y * w + w - 1]] }
        let ground = rim.median ?? 255
        for b in leaders {
            for y in b.y..<(b.y + b.height) { for x in b.x..<(b.x + b.width) { pixels[y * w + x] = ground } }
        }
        OCRLog.write("  leaders painted over: \(leaders.count) in \(region)")
        return GrayImage(luma: pixels, width: w, height: ch, bytesPerRow: w)
    }

    /// Narrowest a leader is, in median word heights: wider than a minus, a dash or a dot
    /// before a price; a leader spans the gap between a dish and its price.
    static let leaderWidth = 3

    /// Reads `line` of `image` again at scale `s`; `given`, when not nil, is that box's pixels
    /// to read instead (`withoutLeaders`).
    private mutating func reread(_ line: Box, scale s: Int, image: GrayImage, psm: Int = 7, crop given: GrayImage? = nil) -> TextLine? {
        let x0 = line.x, y0 = line.y
        let cost = costPerRead * Double(s * s)
        if strictBudget, let budget = budgetMs,
            elapsedMs + cost > budget
        {
            return nil
        }
        let again: RecognizedPage
        var dx = 0, dy = 0
        if s == 1, given == nil {
            // Same pixels, one line: SetRectangle + psm 7 (about 3 ms on a frame; 10–30 ms on a
            // receipt line, as much as cropping first: the LSTM, not the image size, is the cost).
            guard let page = try? engine.recognize(image, region: line, pageSegmentationMode: psm) else { return nil }
            again = page
        } else {
            // Enlarge only the line, never the whole image (a receipt photo is megapixels).
            guard let crop = given ?? image.cropped(line), let big = s == 1 ? crop : crop.scaled(by: Double(s)),
                let page = try? engine.recognize(big, pageSegmentationMode: psm)
            else { return nil }
            again = page
            dx = x0
            dy = y0
        }
        reread += 1
        workSpent += Double(line.width * line.height * s * s)
        costPerRead = max(costPerRead, again.milliseconds / Double(s * s))
        OCRLog.write("  reread ms \(again.milliseconds) \(line.width)x\(line.height) s\(s)")
        let read = TextLine(words: again.lines.flatMap(\.words)).mappingBoxes { b in
            Box(x: dx + b.x / s, y: dy + b.y / s, width: b.width / s, height: b.height / s)
        }
        return read.words.isEmpty ? nil : read
    }
}
