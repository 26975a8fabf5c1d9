#if canImport(Geometry)
    import Geometry  // (absent when the parser is compiled alone: scripts/bench-parse.sh)
#endif
/// The hand-written tokenizer behind `PriceParser`.
///
/// Works on the line's Unicode scalars in one left-to-right pass; every scalar is
/// looked at a bounded number of times (look-aheads are capped or consume what
/// they read), so the scan is linear in the input length.

/// A number as read: digit groups and the separators between them, not yet
/// interpreted (which separator is the decimal one depends on the currency).
struct RawNumber {
    var groups = DigitGroups()
    var seps = Separators()  // '.', ',', '\'', ' '  (normalised)
    var leadingSep: UInt8? = nil  // `.99`
    var wholeDash = false  // `12,-`  `12.–`
    var repaired = false
    var rejected = false
    var digitCount = 0
}

enum TokenKind {
    case number(Int)  // index into Scan.numbers
    case marker(MarkerID, repaired: Bool)
    case dash
    case percent
    case word(WordInfo)
    case other(UInt32)
}

struct Token {
    var kind: TokenKind
    /// Offsets in 32 bits (a line has far fewer scalars): 24 bytes a token instead of 48, so
    /// that a short line's tokens fit in `withUnsafeTemporaryAllocation`'s stack limit.
    private let storedStart: Int32, storedEnd: Int32, storedGap: Int32

    init(kind: TokenKind, start: Int, end: Int, gap: Int) {
        self.kind = kind
        storedStart = Int32(start)
        storedEnd = Int32(end)
        storedGap = Int32(gap)
    }

    var start: Int { Int(storedStart) }
    var end: Int { Int(storedEnd) }
    /// Space-like scalars between the previous token and this one.
    var gap: Int { Int(storedGap) }
}

@inline(__always) func asciiDigit(_ v: UInt32) -> UInt8? {
    // (one wrapping subtraction and one comparison per range)
    if v &- 0x30 < 10 { return UInt8(truncatingIfNeeded: v) }
    if v &- 0xFF10 < 10 { return UInt8(truncatingIfNeeded: v - 0xFF10 + 0x30) }  // fullwidth
    return nil
}

/// ⁰¹²³⁴⁵⁶⁷⁸⁹ as an ASCII digit: raised cents (`9⁹⁹`).
@inline(__always) func superscriptDigit(_ v: UInt32) -> UInt8? {
    switch v {
    case 0x2070: return 0x30
    case 0xB9: return 0x31
    case 0xB2, 0xB3: return UInt8(v - 0xB2 + 0x32)
    case 0x2074...0x2079: return UInt8(v - 0x2074 + 0x34)
    default: return nil
    }
}

@inline(__always) func confusableDigit(_ v: UInt32) -> UInt8? {
    switch v {
    case 0x4F, 0x6F: return 0x30  // O o
    case 0x6C, 0x49, 0x7C: return 0x31  // l I |
    case 0x53: return 0x35  // S
    case 0x42: return 0x38  // B
    default: return nil
    }
}

@inline(__always) func isSpaceLike(_ v: UInt32) -> Bool {
    if v < 0x80 { return v == 0x20 || v == 0x09 }  // most scalars: two comparisons, not fourteen
    return v == 0xA0 || v == 0x2007 || v == 0x2009 || v == 0x200A
        || v == 0x202F || v == 0x2002 || v == 0x2003 || v == 0x2004 || v == 0x2005
        || v == 0x2006 || v == 0x2008 || v == 0x3000
}

/// Spaces that OCR and typesetting put inside a number as a thousands separator.
@inline(__always) func isGroupSpace(_ v: UInt32) -> Bool {
    v == 0xA0 || v == 0x2007 || v == 0x2009 || v == 0x200A || v == 0x202F
}

@inline(__always) func isDash(_ v: UInt32) -> Bool {
    if v < 0x80 { return v == 0x2D }
    return v == 0x2012 || v == 0x2013 || v == 0x2014 || v == 0x2212 || v == 0xFE63 || v == 0xFF0D
}

@inline(__always) func isDecimalSep(_ v: UInt32) -> Bool {
    if v < 0x80 { return v == 0x2E || v == 0x2C }
    return v == 0xFF0E || v == 0xFF0C
}

@inline(__always) func normSep(_ v: UInt32) -> UInt8 {
    (v == 0x2C || v == 0xFF0C) ? 0x2C : 0x2E
}

@inline(__always) func isLetter(_ s: Unicode.Scalar) -> Bool {
    let v = s.value
    if v < 0x80 {
        return (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
    }
    if v < SmallScalars.end { return SmallScalars.isLetter(v) }
    if let known = CJKLetters.isLetter(v) { return known }
    return slowIsLetter(s)
}

/// `isLetter` by Unicode properties (the table of `SmallScalars` is built from it).
func slowIsLetter(_ s: Unicode.Scalar) -> Bool {
    let v = s.value
    if v < 0x80 {
        return (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
    }
    if MarkerIDs.symbols[v] != nil { return false }
    return s.properties.isAlphabetic
}

/// One scalar per token for CJK, kana and Hangul (no spaces between words there).
@inline(__always) func isSingleCharWord(_ v: UInt32) -> Bool {
    v >= 0x2E80 && v < 0xFF00 || v >= 0xAC00 && v < 0xD7B0 || v >= 0x20000
}

extension String {
    /// The string of these scalars, encoded straight into its storage.
    init(_ scalars: Slice<Scalars>) {
        self = scalars.base.withUnsafeElements(scalars.startIndex..<scalars.endIndex) { String(utf8Of: $0) }
    }

    /// The string of these scalars (from contiguous memory: no per-scalar index checks).
    private init(utf8Of scalars: UnsafeBufferPointer<Unicode.Scalar>) {
        var count = 0
        for u in scalars { count += UTF8.width(u) }
        self.init(unsafeUninitializedCapacity: count) { buffer in
            var i = 0
            for u in scalars {
                let v = u.value
                if v < 0x80 {
                    buffer[i] = UInt8(truncatingIfNeeded: v)
                    i += 1
                } else if v < 0x800 {
                    buffer[i] = UInt8(truncatingIfNeeded: 0xC0 | v >> 6)
                    buffer[i + 1] = UInt8(truncatingIfNeeded: 0x80 | v & 0x3F)
                    i += 2
                } else if v < 0x1_0000 {
                    buffer[i] = UInt8(truncatingIfNeeded: 0xE0 | v >> 12)
                    buffer[i + 1] = UInt8(truncatingIfNeeded: 0x80 | v >> 6 & 0x3F)
                    buffer[i + 2] = UInt8(truncatingIfNeeded: 0x80 | v & 0x3F)
                    i += 3
                } else {
                    buffer[i] = UInt8(truncatingIfNeeded: 0xF0 | v >> 18)
                    buffer[i + 1] = UInt8(truncatingIfNeeded: 0x80 | v >> 12 & 0x3F)
                    buffer[i + 2] = UInt8(truncatingIfNeeded: 0x80 | v >> 6 & 0x3F)
                    buffer[i + 3] = UInt8(truncatingIfNeeded: 0x80 | v & 0x3F)
                    i += 4
                }
            }
            return i
        }
    }
}

extension FixedList<WordSpan> {
    /// The index of the word whose scalars hold p, -1 for a joining space.
    func word(containing p: Int) -> Int {
        withUnsafeElements(0..<count) { spans in
            guard !spans.isEmpty else { return -1 }
            var lo = 0, hi = spans.count  // the word is the last one starting at or before p
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if spans[mid].lowerBound <= p { lo = mid } else { hi = mid }
            }
            return spans[lo].range.contains(p) ? lo : -1
        }
    }
}

/// The scalars of a line, as the scanner reads them.
typealias Scalars = FixedList<Unicode.Scalar>

/// Where a word's scalars are in the line (`Range<Int>` as a plain value, for `FixedList`).
struct WordSpan {
    let lowerBound: Int
    let upperBound: Int

    init(_ r: Range<Int>) {
        lowerBound = r.lowerBound
        upperBound = r.upperBound
    }

    var range: Range<Int> { lowerBound..<upperBound }
}

struct Scan {
    /// The line's words joined by single spaces.
    private(set) var s: Scalars
    /// Where each word's scalars are in `s`.
    private(set) var wordRanges: FixedList<WordSpan>
    /// Word boxes, to refuse joining number groups across a wide gap (empty when no word has one).
    let boxes: [Box?]
    var tokens: FixedList<Token>
    var numbers: FixedList<RawNumber>
    /// Room for the groups and separators of numbers longer than their inline storage.
    var spill: SpillArena? = nil
    /// The stored currency's code, upper case: after a two-letter word that is its marker with a
    /// letter misread (`RH` for `RM` with MYR: `Markers.isMisreadMarker`), as after the marker
    /// itself, a `$` or `I` glued to digits is a misread digit.
    private(set) var currencyHint: String? = nil {
        didSet { yenIsStored = currencyHint.map(Markers.yenCurrencies.contains) ?? false }
    }
    /// The stored currency is one `¥` stands for (`Markers.yenCurrencies`): a glued `Y` may be
    /// its marker misread.
    private var yenIsStored = false

    /// Scans `line` and hands the scan to `body`. The scan's lists live in temporary
    /// allocations sized up front, one per list so that each stays on the stack when it fits in
    /// 1 KB: a line has at most as many scalars as UTF-8 bytes, at most as many tokens as
    /// scalars (each takes at least one), and at most as many numbers as runs of digits (each
    /// starts one and ends after it). Nothing of the scan may outlive `body`.
    static func withScan<R>(of line: TextLine, currencyHint: String? = nil, _ body: (inout Scan) -> R) -> R {
        let words = line.words
        var bytes = 0, anyBox = false
        for k in words.indices {  // by index: iterating would copy each word
            bytes += words[k].text.utf8.count + 1
            anyBox = anyBox || words[k].box != nil
        }
        // (written out, not through a generic helper: the closures then inline)
        return withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: max(1, bytes)) { sBuffer in
            withUnsafeTemporaryAllocation(of: WordSpan.self, capacity: max(1, words.count)) { rangesBuffer in
                var s = FixedList(sBuffer, capacity: bytes)
                var wordRanges = FixedList(rangesBuffer, capacity: words.count)
                let digitRuns = read(words, into: &s, wordRanges: &wordRanges)
                return withUnsafeTemporaryAllocation(of: Token.self, capacity: max(1, s.count)) { tokens in
                    withUnsafeTemporaryAllocation(of: RawNumber.self, capacity: max(1, digitRuns)) { numbers in
                        var scan = Scan(
                            s: s, wordRanges: wordRanges, boxes: anyBox ? words.map(\.box) : [],
                            tokens: FixedList(tokens, capacity: s.count), numbers: FixedList(numbers, capacity: digitRuns))
                        scan.currencyHint = currencyHint
                        // Every number starts with a digit (after at most a separator): a line
                        // without one holds no price and is not tokenized.
                        if digitRuns > 0 { scan.tokenize() }
                        return body(&scan)
                    }
                }
            }
        }
    }

    private init(s: Scalars, wordRanges: FixedList<WordSpan>, boxes: [Box?], tokens: FixedList<Token>, numbers: FixedList<RawNumber>) {
        self.s = s
        self.wordRanges = wordRanges
        self.boxes = boxes
        self.tokens = tokens
        self.numbers = numbers
    }

    /// Writes the scalars of `words`, joined by single spaces, to `s` and where each word's are
    /// to `wordRanges`; returns how many runs of digits (`asciiDigit`: ASCII or fullwidth) they hold.
    private static func read(_ words: [TextWord], into s: inout Scalars, wordRanges: inout FixedList<WordSpan>) -> Int {
        var runs = 0
        for k in words.indices {
            if k > 0 { s.append(" ") }
            let start = s.count
            runs += appendScalars(of: words[k].text, to: &s)
            wordRanges.append(WordSpan(start..<s.count))
        }
        return runs
    }

    /// Appends the scalars of `text`, decoded straight from its UTF-8 storage (a native
    /// string's is valid UTF-8) rather than through `unicodeScalars`' index arithmetic; returns
    /// how many runs of digits (`asciiDigit`) they hold.
    private static func appendScalars(of text: String, to s: inout Scalars) -> Int {
        var runs = 0, inRun = false
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            s.append(upTo: bytes.count) { out in
                var i = 0, n = 0
                while i < bytes.count {
                    let b0 = UInt32(bytes[i])
                    if b0 < 0x80 {  // ASCII, most scalars: no decoding, and a digit is 0-9
                        out[n] = Unicode.Scalar(UInt8(truncatingIfNeeded: b0))
                        let isDigit = b0 &- 0x30 < 10
                        if isDigit && !inRun { runs += 1 }
                        inRun = isDigit
                        n += 1
                        i += 1
                        continue
                    }
                    var v = b0, width = 1
                    if b0 >= 0xF0 {
                        v =
                            (b0 & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
                            | UInt32(bytes[i + 3] & 0x3F)
                        width = 4
                    } else if b0 >= 0xE0 {
                        v = (b0 & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                        width = 3
                    } else if b0 >= 0xC0 {
                        v = (b0 & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                        width = 2
                    }
                    out[n] = Unicode.Scalar(v).unsafelyUnwrapped
                    let isDigit = asciiDigit(v) != nil
                    if isDigit && !inRun { runs += 1 }
                    inRun = isDigit
                    n += 1
                    i += width
                }
                return n
            }
        }
        if done == nil {
            for u in text.unicodeScalars {
                s.append(u)
                let isDigit = asciiDigit(u.value) != nil
                if isDigit && !inRun { runs += 1 }
                inRun = isDigit
            }
        }
        return runs
    }

    /// The index of the word scalar p came from, -1 for a joining space.
    func wordOf(_ p: Int) -> Int { wordRanges.word(containing: p) }

    private func v(_ i: Int) -> UInt32 { i < s.count && i >= 0 ? s[i].value : 0 }
    private func digitAt(_ i: Int) -> Bool { i >= 0 && i < s.count && asciiDigit(s[i].value) != nil }

    /// Length of the run of digits starting at i (stops at `cap`).
    private func digitRun(_ i: Int, cap: Int = 64) -> Int {
        var k = i
        while k < s.count, k - i < cap, asciiDigit(s[k].value) != nil { k += 1 }
        return k - i
    }

    /// Exactly `count` digits at i, then something that is neither digit nor letter.
    private func exactDigits(_ i: Int, _ count: Int) -> Bool {
        let r = digitRun(i, cap: count + 1)
        guard r == count else { return false }
        let e = i + count
        return e >= s.count || !isLetter(s[e])
    }

    /// Two adjacent words far apart on the image are not one number.
    private func closeEnough(_ a: Int, _ b: Int) -> Bool {
        guard !boxes.isEmpty else { return true }
        let wa = wordOf(a), wb = wordOf(b)
        guard wa >= 0, wb >= 0, let ba = boxes[wa], let bb = boxes[wb] else { return true }
        let gap = bb.x - (ba.x + ba.width)
        return gap <= max(ba.height, bb.height)
    }

    /// Direction marks inside right-to-left symbols (`ل.س.‏`): skipped when matching.
    @inline(__always) private func isDirectionMark(_ v: UInt32) -> Bool { v == 0x200E || v == 0x200F || v == 0x61C }

    /// The longest marker made of the word at i..<wordEnd and the punctuation, symbols and
    /// letters right after it (up to `Markers.longestKey` scalars, not across a space or a
    /// digit), ending before something that is not a letter; nil when none.
    private func punctuatedMarker(from i: Int, wordEnd: Int, word: Letters) -> (MarkerID, Int)? {
        var key = MarkerKey(word)
        var k = wordEnd
        var best: (MarkerID, Int)? = nil
        while k < s.count, key.count < Markers.longestKey {
            let c = s[k].value
            if isSpaceLike(c) || asciiDigit(c) != nil { break }
            k += 1
            if isDirectionMark(c) { continue }
            key.append(s[k - 1])
            var after = k
            while after < s.count, isDirectionMark(s[after].value) { after += 1 }
            if after < s.count, isLetter(s[after]) { continue }
            let m = key.marker {
                // the key's scalars: those from i to k but the direction marks (none is in the word)
                var key = String.UnicodeScalarView()
                for u in s[i..<k] where !isDirectionMark(u.value) { key.append(u) }
                return String(key)
            }
            if let m { best = (m, after) }
        }
        return best
    }

    /// A one-letter marker (`Q`, `R`) stands alone before the amount: `Q 12.50`, `R12,99`
    /// (with decimals when glued), never glued to a word.
    private func singleLetterMarkerFits(_ i: Int) -> Bool {
        guard i == 0 || isSpaceLike(s[i - 1].value) else { return false }
        if isSpaceLike(v(i + 1)) { return digitAt(i + 2) }
        let r = digitRun(i + 1)
        return r > 0 && isDecimalSep(v(i + 1 + r)) && digitAt(i + 2 + r)
    }

    /// The token the letters i..<j start, and its end: a marker (with the punctuation after it,
    /// `R$`, `Fr.`; a three-letter ISO code; `S`/`E` for `$`/`€`), else a word.
    private func letterToken(_ i: Int, _ j: Int) -> (TokenKind, Int) {
        let c = s[i].value
        let letters = Letters(s[i..<j])
        // `R$`, `B/.`, `Fr.`, `ل.س.`: a marker with punctuation or a symbol in it
        if j < s.count, MarkerIDs.isContinuation(s[j].value),
            let (m, end) = punctuatedMarker(from: i, wordEnd: j, word: letters)
        {
            return (.marker(m, repaired: false), end)
        }
        // `RMI5.90`, `EURl2,50`: a marker of two letters or more glued to an `I` or `l` before a
        // digit; the letter is the amount's first digit, a `1` misread (`token(at:)` reads it).
        if j - i > 2, isOne(s[j - 1].value), digitAt(j) {
            let head = Letters(s[i..<(j - 1)])
            if let m = head.marker { return (.marker(m, repaired: false), j - 1) }
            if j - 1 - i == 3, let code = head.isoCode { return (.marker(code, repaired: false), j - 1) }
        }
        // one ASCII letter (`Q`, `R`) only before an amount; `р` (ruble), `đ` (dong) anywhere
        if let m = letters.marker, j - i > 1 || c >= 0x80 || singleLetterMarkerFits(i) {
            // an abbreviation's dot (`руб.`, `Lek.`) belongs to the marker
            return (.marker(m, repaired: false), v(j) == 0x2E && !digitAt(j + 1) ? j + 1 : j)
        }
        if j - i == 3, let code = letters.isoCode {
            return (.marker(code, repaired: false), j)
        }
        // `S12.99` → `$12.99`, `E12,99` → `€12,99`, `W44,300` → `₩44,300` (validated later): the
        // letter each symbol is without its strokes, as OCR models that lack `₩` read it
        // (Debian's eng; the price model, whose French base has no `₩`)
        if j - i == 1, c == 0x53 || c == 0x45 || c == 0x57, digitAt(j), i == 0 || isSpaceLike(s[i - 1].value) {
            return (.marker(c == 0x53 ? MarkerIDs.dollar : c == 0x45 ? MarkerIDs.euro : MarkerIDs.won, repaired: true), j)
        }
        // `Y42`, `y93` → `¥42`: `¥` without its bars, as Debian's eng and chi_sim read it on small
        // or blurred menus and tags, only when the stored currency is one `¥` stands for (a `Y`
        // before digits is otherwise a size or a model, `Y10`); validated later.
        if j - i == 1, c == 0x59 || c == 0x79, digitAt(j), i == 0 || isSpaceLike(s[i - 1].value), yenIsStored {
            return (.marker(MarkerIDs.yen, repaired: true), j)
        }
        return (.word(letters.info), j)
    }

    /// Splits `s` into `tokens` (and the numbers among them into `numbers`), left to right.
    mutating func tokenize() {
        var i = 0
        var lastEnd = 0
        while i < s.count {
            if isSpaceLike(s[i].value) {
                i += 1
                continue
            }
            let (kind, end) = token(at: i)
            tokens.append(Token(kind: kind, start: i, end: end, gap: i - lastEnd))
            lastEnd = end
            i = end
        }
    }

    /// The token that starts at i (not a space), and where it ends.
    @inline(__always) private mutating func token(at i: Int) -> (TokenKind, Int) {
        let c = s[i].value
        if startsNumber(at: i) {
            let end = scanNumber(at: i)
            return (.number(numbers.count - 1), end)
        }
        if c == 0x2B || (c == 0x28 && v(i + 1) == 0x30) {  // `+49 …`, `(030) …`
            if let end = scanPhone(at: i) { return (.other(0), end) }
            return (.other(c), i + 1)
        }
        // `RM $3.20`, `RM S3.20`: a `$` or `S` glued to digits right after the marker of a
        // currency that prints no `$` is the amount's first digit, a `5` misread (a price has
        // one marker; sroie-dev 450 at a third of its size reads `RM 53.20` so). After the
        // stored currency's marker misread too (`CASH RH $0.00` for `RM 50.00`: sroie-dev 027
        // at a third of its size), the same.
        if c == 0x24 || c == 0x53, digitAt(i + 1), followsMarkerWithoutDollar(i) || followsMisreadMarker(i, gap: 1...2) {
            let end = scanNumber(at: i, first: 0x35)
            return (.number(numbers.count - 1), end)
        }
        // `RMI5.90` (split by `letterToken`), `RM l3.70`: an `I` or `l` glued to digits right
        // after a marker is the amount's first digit, a `1` misread (sroie-dev 385's `RMI5.90`
        // for `RM15.90`, read as 5.90 before; no word starts so before a number)
        if isOne(c), digitAt(i + 1), followsMarker(i) || followsMisreadMarker(i, gap: 1...2) {
            let end = scanNumber(at: i, first: 0x31)
            return (.number(numbers.count - 1), end)
        }
        if let m = MarkerIDs.symbol(c) { return (.marker(m, repaired: false), i + 1) }
        if isDash(c) { return (.dash, i + 1) }
        if c == 0x25 || c == 0xFF05 || c == 0x2030 { return (.percent, i + 1) }  // % ％ ‰
        if isLetter(s[i]) { return wordToken(at: i) }
        return (.other(c), i + 1)
    }

    /// `I` or `l`, the letters OCR reads a `1` as.
    @inline(__always) private func isOne(_ v: UInt32) -> Bool { v == 0x49 || v == 0x6C }

    /// Whether the last token is a currency marker, right before i or one or two spaces before.
    @inline(__always) private func followsMarker(_ i: Int) -> Bool { followsMarker(i, gap: 0...2) { _, _ in true } }

    /// Whether the last token is a currency marker that never stands for a `$` currency (`RM`,
    /// `€`, `zł`), one or two spaces before i.
    @inline(__always) private func followsMarkerWithoutDollar(_ i: Int) -> Bool {
        followsMarker(i, gap: 1...2) { m, repaired in !repaired && !m.mayBeDollar }
    }

    /// Whether the last token is a two-letter word that is the stored currency's marker with a
    /// letter misread (`Markers.isMisreadMarker`), `gap` spaces before i.
    private func followsMisreadMarker(_ i: Int, gap: ClosedRange<Int>) -> Bool {
        guard let currencyHint, let last = lastToken(spaced: gap, before: i), case .word = last.kind,
            last.end - last.start == 2
        else { return false }
        var word = String.UnicodeScalarView()
        for k in last.start..<last.end { word.append(s[k]) }
        return Markers.isMisreadMarker(String(word), of: currencyHint)
    }

    /// Whether the last token is a currency marker `accepts` takes, `gap` spaces before i.
    @inline(__always) private func followsMarker(
        _ i: Int, gap: ClosedRange<Int>, accepts: (MarkerID, Bool) -> Bool
    ) -> Bool {
        guard let last = lastToken(spaced: gap, before: i), case .marker(let m, let repaired) = last.kind else {
            return false
        }
        return accepts(m, repaired)
    }

    /// The last token when only `gap` spaces lie between its end and i, else nil.
    @inline(__always) private func lastToken(spaced gap: ClosedRange<Int>, before i: Int) -> Token? {
        guard let last = tokens.last, gap.contains(i - last.end),
            (last.end..<i).allSatisfy({ isSpaceLike(s[$0].value) })
        else { return nil }
        return last
    }

    /// A digit, or a decimal separator before one that follows no digit or letter (`.99`).
    @inline(__always) private func startsNumber(at i: Int) -> Bool {
        let c = s[i].value
        return asciiDigit(c) != nil
            || (isDecimalSep(c) && digitAt(i + 1) && !digitAt(i - 1) && (i == 0 || !isLetter(s[i - 1])))
    }

    /// The token of the letters starting at i: one CJK, kana or Hangul scalar (a marker such as
    /// `円`, or a word), else the run of letters up to the next scalar that is none (`letterToken`).
    private func wordToken(at i: Int) -> (TokenKind, Int) {
        let c = s[i].value
        if isSingleCharWord(c) {
            if let m = MarkerIDs.cjkMarker(c) { return (.marker(m, repaired: false), i + 1) }
            return (.word(WordInfo(singleChar: s[i])), i + 1)
        }
        var j = i
        while j < s.count, isLetter(s[j]), !isSingleCharWord(s[j].value) { j += 1 }
        return letterToken(i, j)
    }

    /// `2 390 €`, `€ 12 490`, `1 234 567 Kč`: whole numbers whose thousands are set apart by
    /// plain spaces come out of the scan as separate numbers; they are joined into one when
    /// the evidence says so: the groups are consistent (a head of 1–3 digits not starting with
    /// 0, then 3-digit groups, only the last with decimals), and a currency marker touches the
    /// run (at most one space before or after it) or the run ends in `,-`, or its last group is
    /// `000` (`zeroThousands`), or else `spaceGroupedHint` (the hinted currency's languages
    /// group with spaces) holds and the run is alone on the line or `zeroDecimalHint`. Without
    /// that, `2 390` on a receipt line stays a count and a price.
    mutating func joinSpaceGroups(spaceGroupedHint: Bool, zeroDecimalHint: Bool) {
        guard numbers.count >= 2,
            tokens.indices.dropFirst().contains(where: {
                tokens[$0].gap == 1 && Self.number(tokens, $0 - 1) != nil && Self.number(tokens, $0) != nil
            })
        else { return }
        // `tokens` is rewritten as it is read: from a copy on the stack (up to 1 KB), not an array
        withUnsafeTemporaryAllocation(of: Token.self, capacity: tokens.count) { buffer in
            var toks = FixedList(base: buffer.baseAddress.unsafelyUnwrapped, capacity: tokens.count)
            for t in tokens { toks.append(t) }
            tokens.removeAll()
            joinRuns(of: toks, spaceGroupedHint: spaceGroupedHint, zeroDecimalHint: zeroDecimalHint)
        }
    }

    /// Writes `toks` back to `tokens`, each spaced run that reads as one number as one token.
    private mutating func joinRuns(of toks: FixedList<Token>, spaceGroupedHint: Bool, zeroDecimalHint: Bool) {
        var k = 0
        while k < toks.count {
            guard let ni = Self.number(toks, k), Self.head(numbers[ni]) else {
                tokens.append(toks[k])
                k += 1
                continue
            }
            var m = k
            while let nj = Self.number(toks, m + 1), toks[m + 1].gap == 1, Self.tail(numbers[nj]),
                let nm = Self.number(toks, m), Self.onlySpaceGroups(numbers[nm]),
                closeEnough(toks[m].end - 1, toks[m + 1].start)
            {
                m += 1
            }
            // the run's last number (its first when the run is one number)
            let last = numbers[Self.number(toks, m)!]
            // `1 299,-`: the whole-amount dash is only ever written after a price
            let touching =
                (Self.isMarker(toks, k - 1) && toks[k].gap <= 1)
                || (Self.isMarker(toks, m + 1) && toks[m + 1].gap <= 1)
                || (m > k && last.wholeDash)
            let alone = k == 0 && m == toks.count - 1
            guard m > k, touching || Self.zeroThousands(last) || (spaceGroupedHint && (alone || zeroDecimalHint))
            else {
                tokens.append(toks[k])
                k += 1
                continue
            }
            var joined = numbers[ni]
            // built afresh: a number appends only to groups it started (`SpillArena`)
            joined.groups = DigitGroups()
            joined.groups.append(contentsOf: numbers[ni].groups, spill: &spill)
            joined.seps = Separators()
            joined.seps.append(contentsOf: numbers[ni].seps, spill: &spill)
            for t in (k + 1)...m {
                guard let nt = Self.number(toks, t) else { continue }
                let r = numbers[nt]
                joined.groups.append(contentsOf: r.groups, spill: &spill)
                joined.seps.append(0x20, spill: &spill)
                joined.seps.append(contentsOf: r.seps, spill: &spill)
                joined.digitCount += r.digitCount
                joined.repaired = joined.repaired || r.repaired
                joined.wholeDash = r.wholeDash
            }
            numbers[ni] = joined
            tokens.append(Token(kind: .number(ni), start: toks[k].start, end: toks[m].end, gap: toks[k].gap))
            k = m + 1
        }
    }

    private static func number<Tokens: RandomAccessCollection<Token>>(_ t: Tokens, _ k: Int) -> Int? where Tokens.Index == Int {
        if k >= 0, k < t.count, case .number(let ni) = t[k].kind { return ni }
        return nil
    }
    private static func isMarker<Tokens: RandomAccessCollection<Token>>(_ t: Tokens, _ k: Int) -> Bool where Tokens.Index == Int {
        if k >= 0, k < t.count, case .marker(_, let repaired) = t[k].kind { return !repaired }
        return false
    }
    private static func onlySpaceGroups(_ r: RawNumber) -> Bool {
        r.seps.allSatisfy { $0 == 0x20 } && !r.wholeDash && AmountResolver.validGrouping(r.groups)
    }
    /// A run's last number when it is `000`: no price alone, and after a head of 1–3 digits
    /// only ever the thousands of one amount, set apart by a space or by a point or comma that
    /// was not read. Dim light and noise lose the point of `105.000đ` more than its digits
    /// (the fixture menus' dim copy: `105 000d`, `100 000d`, read `105` and `100`).
    private static func zeroThousands(_ r: RawNumber) -> Bool {
        r.groups.count == 1 && r.groups[0].count == 3 && r.groups[0].isAllZeros
    }
    /// The first number of a spaced run: 1–3 digits, not starting with 0, no decimals.
    private static func head(_ r: RawNumber) -> Bool {
        !r.rejected && r.leadingSep == nil && r.groups[0].count <= 3 && r.groups[0].first != 0x30 && onlySpaceGroups(r)
    }
    /// A later number: 3 digits, perhaps its own groups and decimals that read unambiguously.
    private static func tail(_ r: RawNumber) -> Bool {
        !r.rejected && r.leadingSep == nil && r.groups[0].count == 3
            && (r.groups.count == 1 || AmountResolver.resolve(r, minorUnits: nil)?.ambiguous == false)
    }

    /// `+49 30 1234567`, `(030) 123 456`: returns the end when at least 6 digits
    /// follow in phone layout, else nil. Stops before a group that is a decimal price.
    private func scanPhone(at i: Int) -> Int? {
        let n = s.count
        var j = i + 1
        var digits = 0
        var lastGood = j
        while j < n {
            let c = s[j].value
            if asciiDigit(c) != nil {
                digits += 1
                j += 1
                lastGood = j
                continue
            }
            if c == 0x29 {  // )
                j += 1
                lastGood = j
                continue
            }
            if c == 0x20 || c == 0x2D || c == 0x2F || c == 0x28 || c == 0xA0 {
                let r = digitRun(j + 1)
                if r == 0 && !(c == 0x20 && v(j + 1) == 0x28) { break }
                // the next group is a price like `12,50`: stop before it
                if r > 0, isDecimalSep(v(j + 1 + r)), digitAt(j + 2 + r) { break }
                j += 1
                continue
            }
            break
        }
        return digits >= 6 ? lastGood : nil
    }

    /// Two scalars at k, digits or look-alike letters with at least one letter,
    /// then neither a letter nor a digit: the cents of `2O,OO`.
    private func confusableFraction(_ k: Int) -> Bool {
        guard k + 1 < s.count else { return false }
        var letters = 0
        for i in k...(k + 1) {
            let c = s[i].value
            if asciiDigit(c) != nil { continue }
            if confusableDigit(c) != nil { letters += 1; continue }
            return false
        }
        guard letters > 0 else { return false }
        return k + 2 >= s.count || (!isLetter(s[k + 2]) && asciiDigit(s[k + 2].value) == nil)
    }

    /// Whether the confusable letter at j sits inside a number.
    private func confusableInNumber(_ j: Int, current: DigitGroup, seps: Separators) -> Bool {
        guard !current.isEmpty else { return false }
        var k = j
        while k < s.count, k - j < 4, confusableDigit(s[k].value) != nil, asciiDigit(s[k].value) == nil { k += 1 }
        if k < s.count {
            let c = s[k].value
            if asciiDigit(c) != nil { return true }
            if isDecimalSep(c), digitAt(k + 1) || confusableFraction(k + 1) { return true }
        }
        // `12,5O`: the second decimal of a number that already has its separator
        if k - j == 1, current.count == 1, let last = seps.last, last == 0x2C || last == 0x2E {
            return k >= s.count || !isLetter(s[k])
        }
        return false
    }

    /// Reads the number at `start` into `numbers` (written there once, not returned: it is a
    /// large value) and returns where it ends: digit groups, each read by `readGroup`, joined by
    /// what `afterGroup` accepts as a separator. With `first` the scalar at `start` (a `$` or
    /// `S` misread for a `5`, an `I` or `l` for a `1`) is read as that digit (`repaired`).
    private mutating func scanNumber(at start: Int, first repairedFirst: UInt8? = nil) -> Int {
        var num = RawNumber()
        var j = start
        var first: UInt8? = nil
        if let repairedFirst {
            num.repaired = true
            first = repairedFirst
            j += 1
        } else if isDecimalSep(s[j].value) {
            num.leadingSep = normSep(s[j].value)
            j += 1
        }
        var allowConfusable = false
        while true {
            j = readGroup(from: j, into: &num, allowConfusable: allowConfusable, first: first)
            first = nil
            guard j < s.count, num.leadingSep == nil else { break }
            let step = afterGroup(at: j, &num)
            j = step.at
            guard step.another else { break }
            allowConfusable = step.confusable
        }
        numbers.append(num)
        return j
    }

    /// Reads one run of digits (and look-alike letters where they sit inside the number, `1O,50`)
    /// from j into `num`'s groups; returns where it ends.
    /// `first`: a digit read before `start` (`scanNumber`'s `first`).
    @inline(__always) private mutating func readGroup(
        from start: Int, into num: inout RawNumber, allowConfusable: Bool, first: UInt8? = nil
    ) -> Int {
        var cur = DigitGroup()
        if let first { cur.append(first) }
        var j = start
        while j < s.count {
            let c = s[j].value
            if let d = asciiDigit(c) {
                cur.append(d)
                j += 1
                continue
            }
            if let d = confusableDigit(c), allowConfusable || confusableInNumber(j, current: cur, seps: num.seps) {
                cur.append(d)
                num.repaired = true
                j += 1
                continue
            }
            break
        }
        num.digitCount += cur.count
        num.groups.append(cur, spill: &spill)
        return j
    }

    /// What `afterGroup` read after a digit group: another group starts `at` (its digits may be
    /// look-alike letters when `confusable`), or the number ends there.
    private struct Step {
        var at: Int
        var another: Bool
        var confusable = false

        static func group(at j: Int, confusable: Bool = false) -> Step { Step(at: j, another: true, confusable: confusable) }
        static func end(at j: Int) -> Step { Step(at: j, another: false) }
    }

    /// Reads what follows a digit group at j (not the line's end) into `num`: a separator before
    /// the next group, raised cents, a closing dash, or the mark of a date, time or phone number
    /// (the number is then rejected).
    @inline(__always) private mutating func afterGroup(at j: Int, _ num: inout RawNumber) -> Step {
        let c = s[j].value
        if isDecimalSep(c) { return afterDecimalSep(at: j, &num) }
        if superscriptDigit(c) != nil { return raisedCents(at: j, &num) }
        if c == 0x27 || c == 0x2019 || c == 0x2BC || c == 0xB4 {  // ' ’ ʼ ´
            if exactDigits(j + 1, 3) || (digitRun(j + 1, cap: 4) == 3 && (isDecimalSep(v(j + 4)) || v(j + 4) == c)) {
                num.seps.append(0x27, spill: &spill)
                return .group(at: j + 1)
            }
            return .end(at: j)
        }
        if isGroupSpace(c) {
            if digitRun(j + 1, cap: 4) == 3, !isLetter(j + 4 < s.count ? s[j + 4] : " ") {
                num.seps.append(0x20, spill: &spill)
                return .group(at: j + 1)
            }
            return .end(at: j)
        }
        if c == 0x20 { return afterSpace(at: j, &num) }
        if (c == 0x3A || c == 0x2F || c == 0xFF1A) && digitAt(j + 1) { return rejectTimeOrDate(at: j, &num) }
        if (c == 0x2D || c == 0x2013) && digitAt(j + 1), num.seps.isEmpty, num.groups.count == 1 {
            return afterHyphen(at: j, &num)
        }
        return .end(at: j)
    }

    /// `9⁹⁹`: two raised digits at j are the cents, after a separator of the kind not used yet.
    private mutating func raisedCents(at j: Int, _ num: inout RawNumber) -> Step {
        guard let d0 = superscriptDigit(s[j].value), let d1 = superscriptDigit(v(j + 1)), superscriptDigit(v(j + 2)) == nil else {
            return .end(at: j)
        }
        let used = Set(num.seps.filter { $0 == 0x2C || $0 == 0x2E })
        guard used.count < 2 else { return .end(at: j) }
        num.seps.append(used.contains(0x2E) ? 0x2C : 0x2E, spill: &spill)
        num.groups.append(DigitGroup([d0, d1]), spill: &spill)
        num.digitCount += 2
        return .end(at: j + 2)
    }

    /// A `.` or `,` at j: a separator before digits (or before look-alike letters, `2O,OO`), the
    /// whole-amount dash of `12,-`, or a decimal separator with a space after it (`12, 99`).
    @inline(__always) private mutating func afterDecimalSep(at j: Int, _ num: inout RawNumber) -> Step {
        let c = s[j].value
        if digitAt(j + 1) {
            num.seps.append(normSep(c), spill: &spill)
            return .group(at: j + 1)
        }
        // `2O,OO`: a two-place fraction written with look-alike letters
        if confusableFraction(j + 1) {
            num.seps.append(normSep(c), spill: &spill)
            return .group(at: j + 1, confusable: true)
        }
        if isDash(v(j + 1)), !digitAt(j + 2) {
            num.wholeDash = true
            return .end(at: j + 2)
        }
        // `12, 99`; `1.837, 32` (after grouping of the other kind)
        if v(j + 1) == 0x20, exactDigits(j + 2, 2), !num.seps.contains(normSep(c)),
            !num.seps.contains(where: { $0 == 0x2C || $0 == 0x2E })
                || (num.groups.count >= 2 && AmountResolver.validGrouping(num.groups) && num.groups.last?.count == 3),
            closeEnough(j, j + 2)
        {
            num.seps.append(normSep(c), spill: &spill)
            num.repaired = true
            return .group(at: j + 2)
        }
        return .end(at: j)
    }

    /// A plain space at j inside a number: `12 .99`, or thousands set apart (`1 234,56`) when a
    /// decimal part or another thousands group follows.
    private mutating func afterSpace(at j: Int, _ num: inout RawNumber) -> Step {
        // `12 .99`
        if isDecimalSep(v(j + 1)), exactDigits(j + 2, 2), !num.seps.contains(where: { $0 == 0x2C || $0 == 0x2E }) {
            num.seps.append(normSep(v(j + 1)), spill: &spill)
            num.repaired = true
            return .group(at: j + 2)
        }
        // `1 234,56`: a space between thousands groups when a decimal part follows
        if let g = num.groups.last, g.count >= 1, g.count <= 3,
            num.seps.allSatisfy({ $0 == 0x20 }),
            digitRun(j + 1, cap: 4) == 3,
            (isDecimalSep(v(j + 4)) && digitAt(j + 5)) || (v(j + 4) == 0x20 && digitRun(j + 5, cap: 4) == 3),
            closeEnough(j - 1, j + 1)
        {
            num.seps.append(0x20, spill: &spill)
            return .group(at: j + 1)
        }
        return .end(at: j)
    }

    /// `8:13`, `25/12`: a time, date or fraction, rejected with everything of it that follows.
    private func rejectTimeOrDate(at start: Int, _ num: inout RawNumber) -> Step {
        num.rejected = true
        var j = start
        while j < s.count {
            let d = s[j].value
            if asciiDigit(d) != nil || d == 0x3A || d == 0x2F || d == 0x2E || d == 0x2C || d == 0x2D { j += 1 } else { break }
        }
        return .end(at: j)
    }

    /// A hyphen at j after the one group of a number: a date (`2018-12-25`, `25-12-2018`) or a
    /// phone number (`030-1234567`) is rejected whole; anything else ends the number there.
    private func afterHyphen(at j: Int, _ num: inout RawNumber) -> Step {
        let g = num.groups[0]
        let r = digitRun(j + 1)
        // `2018-12-25`, `25-12-2018`
        let r2 = isDash(v(j + 1 + r)) ? digitRun(j + 2 + r) : 0
        if (g.count == 4 && r == 2 && r2 == 2) || (g.count <= 2 && r <= 2 && (r2 == 4 || r2 == 2)) {
            num.rejected = true
            return .end(at: j + 2 + r + r2)
        }
        // `030-1234567`
        if g.first == 0x30, g.count >= 2, r >= 3 {
            num.rejected = true
            var k = j + 1 + r
            while k < s.count, asciiDigit(s[k].value) != nil || (s[k].value == 0x2D && digitAt(k + 1)) { k += 1 }
            return .end(at: k)
        }
        return .end(at: j)
    }
}
