public import Foundation
#if canImport(Geometry)
    public import Geometry  // (absent when the parser is compiled alone: scripts/bench-parse.sh)
#endif

/// Finds every price in lines of OCR text. Pure: no I/O, safe to share.
///
/// One hand-written scanner pass per line (linear time, no regular expressions),
/// then a pass over the tokens that ties numbers to currency markers, signs and
/// ranges. Amounts are built from digit strings as `Decimal`, never via `Double`.
///
/// Ambiguity is flagged, not guessed silently: a lone `.`/`,` before exactly
/// three digits with a two-minor-unit or unknown currency (`€1.234`, bare
/// `1,234`) is reported as the grouping reading (1234) with `.ambiguousSeparator`
/// and a lower confidence; see `AmountResolver.resolve`.
public struct PriceParser: Sendable {
    public var options: ParserOptions

    public init(options: ParserOptions = ParserOptions()) {
        self.options = options
    }

    /// Every price in one line, in reading order.
    public func parse(_ line: TextLine) -> [PriceMatch] {
        let hint = options.currencyHint?.uppercased()
        return Scan.withScan(of: line, currencyHint: hint) { scan in
            if scan.numbers.count >= 2 {
                scan.joinSpaceGroups(
                    spaceGroupedHint: hint.map { Language.spaceGroupedCurrencies.contains($0) } ?? false,
                    zeroDecimalHint: hint.map { Associator.separatorMinorUnits($0) == 0 } ?? false)
            }
            return Associator(scan: scan, line: line, options: options, hint: hint).run()
        }
    }

    /// Every price on a page, line by line, in reading order; page context
    /// (receipt keywords) may mark roles.
    ///
    /// One amount next to a total keyword (`Total`, `Summe`, `zu zahlen`, `合計`, …,
    /// OCR-tolerant: `T0TAL`, `5umme`) gets `role = .total`, chosen by the page's words,
    /// layout and arithmetic (`TotalChoice`).
    public func parse(lines: [TextLine]) -> [PriceMatch] {
        pageMatches(lines).map(\.match)
    }

    /// `parse(lines:)`'s prices, each line's apart (same order): for callers that show a page
    /// line by line (`pricecam parse --page`).
    public func parseByLine(lines: [TextLine]) -> [[PriceMatch]] {
        var out = [[PriceMatch]](repeating: [], count: lines.count)
        for (m, i) in pageMatches(lines) { out[i].append(m) }
        return out
    }

    private func pageMatches(_ lines: [TextLine]) -> [(match: PriceMatch, line: Int)] {
        var perLine = lines.map { parse($0) }
        let tall = Prominence.additions(lines: lines, perLine: perLine, options: options)
        let menu = MenuPrices.additions(lines: lines, perLine: perLine, options: options).filter { m in
            !tall.contains { $0.line == m.line && $0.match.text == m.match.text && $0.match.amount == m.match.amount }
        }
        for (i, m) in tall + menu {
            perLine[i].append(m)
            perLine[i].sort { ($0.box?.x ?? 0) < ($1.box?.x ?? 0) }
        }
        perLine = MenuPrices.withoutTiny(MenuPrices.withoutReferences(perLine, lines: lines, options: options))
        TotalChoice.mark(&perLine, lines: lines, options: options)
        return TaxPairs.marked(perLine, lines: lines)
    }

    /// Whether the rest of the page confirms `amount` as the total read on line `line` of
    /// `lines`: another line prints it, the payment (cash less change, a card, exact cash) is
    /// it, the priced lines right above add up to it (`TotalChoice.confirmations`), or its VAT
    /// table's gross amounts do (`ReceiptArithmetic.taxTableGross`). A zero
    /// is never confirmed: a receipt prints `0.00` on many lines (discount, rounding, change).
    public func confirmsTotal(_ amount: Decimal, line: Int, of lines: [TextLine]) -> Bool {
        guard amount > 0, lines.indices.contains(line) else { return false }
        let perLine = lines.map { parse($0) }
        if perLine.indices.contains(where: { l in l != line && perLine[l].contains { $0.amount == amount } }) { return true }
        if ReceiptArithmetic.taxTableGross(perLine, except: line) == amount { return true }
        return TotalChoice.confirmations(amount, line: line, perLine: perLine, lines: lines, payment: Payment.find(perLine, lines: lines))
            > 0
    }

    /// Every price in a plain text line.
    public func parse(text: String) -> [PriceMatch] {
        parse(TextLine(text: text))
    }
}

/// Ties the tokens of one line into matches.
///
/// Holds the scan's lists (plain values, over memory the scan owns) and the words rather than
/// the scan and the line themselves: copying it then retains no more than the words and the
/// hint.
struct Associator {
    /// The scan's scalars, word ranges, numbers and tokens (`Scan`).
    let s: Scalars
    let wordRanges: FixedList<WordSpan>
    let numbers: FixedList<RawNumber>
    let T: FixedList<Token>
    /// The line's words.
    let words: [TextWord]
    let bareNumbers: BareNumberPolicy
    /// `options.currencyHint` in upper case.
    let hint: String?

    init(scan: Scan, line: TextLine, options: ParserOptions, hint: String?) {
        s = scan.s
        wordRanges = scan.wordRanges
        numbers = scan.numbers
        T = scan.tokens
        words = line.words
        bareNumbers = options.bareNumbers
        self.hint = hint
    }

    struct Candidate {
        var num: Int  // token index of the number
        var first: Int
        var last: Int
        var marker: (kind: MarkerID, repaired: Bool, token: Int)?
        var negative = false
        /// `A-5,00`: a number hyphenated to a word (kept only with a currency).
        var hyphenated = false
        /// `1250€ 60`: token index of cents printed apart after the marker.
        var cents: Int? = nil
        /// `$12.50/kg`, `2,99 € per kg`: the tokens saying what the price is per (its text is
        /// made only for a match, and a candidate stays a plain value).
        var unit: ClosedRange<Int>? = nil
    }

    private func isNumber(_ k: Int) -> Bool {
        if k >= 0, k < T.count, case .number = T[k].kind { return true }
        return false
    }
    private func isDashTok(_ k: Int) -> Bool {
        if k >= 0, k < T.count, case .dash = T[k].kind { return true }
        return false
    }
    /// The marker at k, unless `used` (marker tokens already given to a match) holds it.
    private func markerAt(_ k: Int, _ used: TokenSet) -> (MarkerID, Bool)? {
        if k >= 0, k < T.count, !used[k], case .marker(let m, let r) = T[k].kind { return (m, r) }
        return nil
    }
    private func scalar(_ k: Int) -> UInt32 { s[T[k].start].value }
    private func raw(_ k: Int) -> RawNumber? {
        if k >= 0, k < T.count, case .number(let ni) = T[k].kind { return numbers[ni] }
        return nil
    }
    private func wordOf(_ p: Int) -> Int { wordRanges.word(containing: p) }
    private func text(_ a: Int, _ b: Int) -> String { string(T[a].start..<T[b].end) }

    /// The text of the marker token k: a single-scalar marker's from a table (`€`, `円`: the
    /// same text, not built again for each match), else as any text.
    private func markerText(_ k: Int) -> String {
        if T[k].end - T[k].start == 1, let known = MarkerIDs.singleScalarText(scalar(k)) { return known }
        return text(k, k)
    }

    /// The text of scalars r: a whole word's own string when r is exactly one word (no new
    /// string to build), else one made from the scalars (the same text either way). `word` is
    /// the word of r's first scalar (`wordOf`) when the caller knows it.
    private func string(_ r: Range<Int>, word: Int? = nil) -> String {
        let w = word ?? wordOf(r.lowerBound)
        if w >= 0, wordRanges[w].range == r { return words[w].text }
        return String(s[r])
    }

    /// A word glued before a number (`Total29.90`, `税込1,280円`) leaves it a price when the word
    /// is no unit, is a real word (3+ letters) or from a script written without spaces, and the
    /// number looks like money: two decimals, a marker right after it, or (after a script without
    /// spaces) a whole number in a currency printed without decimals. `A12`, `SKU12345`, `V2.5`
    /// stay identifiers.
    private func gluedWordAllowed(_ k: Int, _ w: WordInfo, _ num: RawNumber, _ used: TokenSet) -> Bool {
        if w.isUnit { return false }
        let cjk = isSingleCharWord(scalar(k - 1))
        guard cjk || w.lowerCount >= 3 || misreadHintMarker(k - 1, w) else { return false }
        let twoDecimals = Self.twoDecimals(num)
        let markerAfter = markerAt(k + 1, used) != nil && T[k + 1].gap <= 1
        // `牛肉麵180`, `ラーメン850`: a script without spaces runs a dish into its price, in a
        // currency printed without decimals (CLDR cashDigits 0), when nothing is glued after it.
        let wholeMoney = cjk && hint.map { Currencies.printedDigits($0) == 0 } == true && (k + 1 >= T.count || T[k + 1].gap > 0)
        return twoDecimals || markerAfter || wholeMoney
    }

    /// Whether `num` ends in a decimal point or comma and two digits (`12.50`, `1 234,99`).
    static func twoDecimals(_ num: RawNumber) -> Bool {
        num.groups.count >= 2 && num.groups.last?.count == 2 && (num.seps.last == 0x2C || num.seps.last == 0x2E)
    }

    /// Fewest digits of a number without any separator that make it an identifier (a barcode,
    /// a document or item number), not an amount: always when it stands bare, and after the
    /// marker of a currency other than the stored one: on a shop's receipt in the stored
    /// currency, such a marker before a long run of bare digits is a code's letters (SROIE's
    /// Malaysian receipts print the tax code `SR`, the riyal's marker, before item codes:
    /// `SR 100000037` read as SAR 100 000 037). The stored currency's marker, or none stored,
    /// keeps such a number a price (`€1234567`).
    static let codeDigits = 7

    /// A two-letter word that is the stored currency's marker with a letter misread
    /// (`RH43.40` with MYR in the settings: `Markers.misreadTwoLetter`).
    private func misreadHintMarker(_ k: Int, _ w: WordInfo) -> Bool {
        guard let hint, w.lowerCount == 2 else { return false }
        return Markers.isMisreadMarker(text(k, k), of: hint)
    }

    /// Words that say "per" before a unit (`2,99 € per kg`, `je Stück`, `за кг`).
    static let perWords: Set<String> = ["per", "pro", "je", "par", "por", "за"]

    /// `$12.50/kg`, `2,99 € / 100 g`, `3,49 € je kg`: the tokens of the unit after the price, else nil.
    private func unitAfter(_ last: Int) -> ClosedRange<Int>? {
        let d = last + 1
        guard d + 1 < T.count, T[d].gap <= 1, T[d + 1].gap <= 1 else { return nil }
        if case .other(0x2F) = T[d].kind {
        } else if case .word(let w) = T[d].kind, w.isPer, T[d].gap >= 1 {
        } else {
            return nil
        }
        var u = d + 1
        if isNumber(u), u + 1 < T.count, T[u + 1].gap <= 1 { u += 1 }  // `/100 g`
        guard case .word(let w) = T[u].kind, w.isUnit else { return nil }
        return (d + 1)...u
    }

    /// `1250€ 60`, `35€ 99`: a whole number, a marker glued to it, then two digits standing
    /// alone (no marker, unit or number after them): the cents, printed apart and raised.
    private func detachedCents(_ k: Int, _ num: RawNumber) -> Int? {
        let m = k + 1, c = k + 2
        guard num.seps.isEmpty, !num.wholeDash, num.leadingSep == nil, T.count > c, T[m].gap == 0, T[c].gap <= 1,
            let r = raw(c), r.seps.isEmpty, !r.wholeDash, r.leadingSep == nil, r.groups[0].count == 2
        else { return nil }
        if c + 1 < T.count {
            switch T[c + 1].kind {
            case .number, .marker, .percent: if T[c + 1].gap <= 2 { return nil }
            case .word(let w): if T[c + 1].gap == 0 || w.isUnit { return nil }
            case .other(let o): if T[c + 1].gap == 0, o != 0x29, o != 0x2A { return nil }  // `)`, `*`
            case .dash: if T[c + 1].gap == 0 { return nil }
            }
        }
        return c
    }

    /// A dash at d is a minus sign for what follows it (not a range or a hyphen).
    private func isSign(_ d: Int) -> Bool {
        if d == 0 { return true }
        if T[d].gap >= 1 { return true }
        if case .other(let c) = T[d - 1].kind, c == 0x28 || c == 0x3A { return true }  // `(-5)`, `:-5`
        return false
    }

    /// `1,99A`, `0.99B`: a receipt's tax class printed after the amount, the space between them
    /// lost (the line recogniser drops narrow spaces: the rows of receipts-de's blurred copy,
    /// read by it, held 20 such amounts; apart, `Milch 1,09 A` is a price already). One
    /// upper-case letter `A` to `D`, the classes German, Austrian and Dutch tills print, ending
    /// the word, after a number with two decimals (`twoDecimals`). Units (`0,75L`, `1,50M`) and
    /// multiples (`1,50K`) are other letters; `E` after a number is a misread `€` (`isLoneE`).
    private func isGluedTaxClass(_ k: Int, _ num: RawNumber) -> Bool {
        guard k < T.count, case .word = T[k].kind, T[k].end - T[k].start == 1, (0x41...0x44).contains(scalar(k)),
            k + 1 >= T.count || T[k + 1].gap > 0
        else { return false }
        return Self.twoDecimals(num)
    }

    /// The original "E" (upper case, alone) as a misread `€` after a number.
    private func isLoneE(_ k: Int) -> Bool {
        guard k < T.count, case .word = T[k].kind, T[k].end - T[k].start == 1 else { return false }
        return scalar(k) == 0x45
    }

    /// `105.000d`: the dong sign `đ` read as `d` by a Latin model, with the stored currency VND
    /// (no unit is written `d` after a price there).
    private func isMisreadDong(_ k: Int) -> Bool {
        guard hint == "VND", k < T.count, case .word = T[k].kind, T[k].end - T[k].start == 1 else { return false }
        return scalar(k) == 0x64 || scalar(k) == 0x44
    }

    /// The number token at k with the marker, signs and unit around it; nil when it is no price
    /// (rejected by the scanner, glued to what makes it an identifier, or a quantity).
    func candidate(_ k: Int, allowSign: Bool = true, used: TokenSet) -> Candidate? {
        guard case .number(let ni) = T[k].kind, !numbers[ni].rejected,
            !gluedIdentifier(k, ni, used), !quantity(k, ni)
        else { return nil }
        var c = Candidate(num: k, first: k, last: k)
        if k >= 2, isDashTok(k - 1), T[k].gap == 0, T[k - 1].gap == 0, case .word = T[k - 2].kind {
            c.hyphenated = true
        }
        addLeading(to: &c, allowSign: allowSign, used: used)
        if c.marker == nil { addTrailingMarker(to: &c, ni, used: used) }
        if !c.negative { addTrailingMinus(to: &c, used: used) }
        c.unit = unitAfter(c.last)
        return c
    }

    /// Whether what is glued to the number at k makes it part of something else: letters before
    /// it (`A12`, `x2`, unless `gluedWordAllowed`), `#123`, `/12`, `@12`, `O,99`, or an unknown
    /// glyph between it and another number (`12?50`).
    @inline(__always) private func gluedIdentifier(_ k: Int, _ ni: Int, _ used: TokenSet) -> Bool {
        if k > 0, T[k].gap == 0, case .word(let w) = T[k - 1].kind, !gluedWordAllowed(k, w, numbers[ni], used) {
            return true
        }
        if k > 0, T[k].gap == 0, case .other(let c) = T[k - 1].kind {
            if c == 0x23 || c == 0x2F || c == 0x40 || c == 0x2E || c == 0x2C { return true }  // `#123`, `/12`, `@12`, `O,99`
            if T[k - 1].gap == 0, isNumber(k - 2) { return true }  // `12?50`: an unknown glyph inside a number
        }
        if k + 2 < T.count, T[k + 1].gap == 0, T[k + 2].gap == 0, isNumber(k + 2), case .other = T[k + 1].kind {
            return true
        }
        return false
    }

    /// Whether what follows the number at k makes it a quantity or a fraction: letters glued to
    /// it (`500g`, `12B`, but `12,99E` and `12,99B`: `isGluedTaxClass`), a unit (`2 x 1,99`; `1,99 x 2` keeps its price), a
    /// percent sign, or `/` and another number.
    @inline(__always) private func quantity(_ k: Int, _ ni: Int) -> Bool {
        guard k + 1 < T.count else { return false }
        switch T[k + 1].kind {
        case .word(let w):
            if isLoneE(k + 1) || isMisreadDong(k + 1) || isGluedTaxClass(k + 1, numbers[ni]) { return false }
            if T[k + 1].gap == 0 { return true }
            if T[k + 1].gap <= 2, w.isUnit {
                let hasDecimalSep =
                    numbers[ni].seps.contains { $0 == 0x2C || $0 == 0x2E }
                    || numbers[ni].leadingSep != nil
                return !(w.isX && hasDecimalSep)
            }
        case .percent:
            return T[k + 1].gap <= 2
        case .other(let c):
            return T[k + 1].gap == 0 && c == 0x2F && k + 2 < T.count && isNumber(k + 2)
        default: break
        }
        return false
    }

    /// What stands before the number of `c`: [sign] marker, marker sign, or a sign alone.
    @inline(__always) private func addLeading(to c: inout Candidate, allowSign: Bool, used: TokenSet) {
        let k = c.num
        if let (m, r) = markerAt(k - 1, used), T[k].gap <= 2 {
            c.marker = (m, r, k - 1)
            c.first = k - 1
            if allowSign, isDashTok(k - 2), T[k - 1].gap == 0, isSign(k - 2) {
                c.negative = true
                c.first = k - 2
            }
        } else if allowSign, isDashTok(k - 1), T[k].gap == 0 {
            if let (m, r) = markerAt(k - 2, used), T[k - 1].gap <= 1, !isNumber(k - 3) || T[k - 2].gap > 0 {
                c.marker = (m, r, k - 2)
                c.negative = true
                c.first = k - 2
            } else if isSign(k - 1) {
                c.negative = true
                c.first = k - 1
            }
        }
    }

    /// A marker after the number of `c` (unless it is glued to the next number), with cents
    /// printed apart after it (`1250€ 60`); or a lone `E`, a misread `€`.
    @inline(__always) private func addTrailingMarker(to c: inout Candidate, _ ni: Int, used: TokenSet) {
        let k = c.num
        guard k + 1 < T.count, T[k + 1].gap <= 2 else { return }
        if let (m, r) = markerAt(k + 1, used), !r, !(T[k + 1].gap >= 1 && isNumber(k + 2) && T[k + 2].gap == 0) {
            c.marker = (m, false, k + 1)
            c.last = k + 1
            if let ct = detachedCents(k, numbers[ni]) {
                c.cents = ct
                c.last = ct
            }
        } else if isLoneE(k + 1), T[k + 1].gap <= 1 {
            c.marker = (MarkerIDs.euro, true, k + 1)
            c.last = k + 1
        }
    }

    /// A trailing minus (`5,00-`, `€5.00-`, `5,00- €`), not the dash of a range.
    @inline(__always) private func addTrailingMinus(to c: inout Candidate, used: TokenSet) {
        guard isDashTok(c.last + 1), T[c.last + 1].gap == 0 else { return }
        let after = c.last + 2
        let followed =
            after < T.count && T[after].gap <= 2
            && (isNumber(after) || (markerAt(after, used) != nil && isNumber(after + 1) && T[after + 1].gap <= 2))
        guard !followed else { return }
        c.negative = true
        c.last += 1
        // `5,00- €`
        if c.marker == nil, let (m, r) = markerAt(c.last + 1, used), !r, T[c.last + 1].gap <= 2 {
            c.marker = (m, false, c.last + 1)
            c.last += 1
        }
    }

    struct Valued {
        var c: Candidate
        var r: ResolvedAmount
        var currency: String?
        var bare: Bool
        var flags: PriceFlags
    }

    /// Settles currency and amount; nil when the candidate is not a price.
    func value(_ c: Candidate, carried: MarkerID? = nil, onlyNumber: Bool) -> Valued? {
        guard case .number(let ni) = T[c.num].kind else { return nil }
        let raw = numbers[ni]
        let kind = c.marker?.kind ?? carried
        var currency: String? = nil
        var minor: Int? = nil
        if let kind {
            (currency, minor) = kind.resolve(hint: hint)
        } else if let hint {
            currency = hint
            minor = Self.separatorMinorUnits(hint)
        }
        guard var r = AmountResolver.resolve(raw, minorUnits: minor) else { return nil }
        var flags: PriceFlags = []
        if let m = c.marker, m.repaired {
            if m.kind == MarkerIDs.won {
                // `W44,300`: a whole number of won grouped in thousands (a `W` before a bare
                // number is a size or a model, `W32`, `W10`), or, with won in the settings,
                // of at least three digits (no shop prices anything under ₩100). The won
                // marker resolves to won whatever the hint, so `hint == currency` is won set.
                guard !r.hasDecimals, (!raw.seps.isEmpty && r.amount >= 1000) || (hint == currency && raw.digitCount >= 3) else {
                    return nil
                }
            } else if m.kind == MarkerIDs.yen {
                // `Y42`: only with the yen or the yuan stored (`Scan`), and as such an amount is
                // written: two decimals (yuan), or whole of two digits or more (a `Y` glued to
                // one digit, `Y2`, is a size or a model likelier than a price under ¥10)
                guard r.hasDecimals ? r.fractionDigits == 2 : raw.digitCount >= 2 else { return nil }
            } else {
                // `S12.99`, `12,99 E`: only with a two-decimal amount
                guard r.hasDecimals, r.fractionDigits == 2 else { return nil }
            }
            flags.insert(.repaired)
        }
        if raw.repaired || r.repaired { flags.insert(.repaired) }
        if r.ambiguous { flags.insert(.ambiguousSeparator) }
        let bare = kind == nil
        if bare {
            if c.hyphenated { return nil }
            if raw.seps.isEmpty, raw.leadingSep == nil, raw.digitCount >= Self.codeDigits { return nil }  // barcodes, doc numbers
            if !r.hasDecimals, raw.groups[0].count > 1, raw.groups[0].first == 0x30 { return nil }  // `030`
            switch bareNumbers {
            case .never: return nil
            case .decimals:
                let ok = r.hasDecimals || r.ambiguous || minor == 0 || onlyNumber
                if !ok { return nil }
                // A lone digit with no sign is far likelier a misread mark, a shelf number or
                // a fragment of a glyph than a price (shelf-jp-dev: 7 of 10 bare numbers read
                // from single-glyph regions were "7", "4" or "2"); `€5`, `5,00` still are.
                if !r.hasDecimals, raw.digitCount < 2 { return nil }
            case .all: break
            }
            flags.insert(.bareNumber)
        } else if raw.seps.isEmpty, raw.digitCount > 15 {
            return nil
        } else if let hint, currency != hint, raw.seps.isEmpty, raw.leadingSep == nil, raw.digitCount >= Self.codeDigits {
            return nil
        }
        // one Decimal of the whole digits and the cents: equal, field for field, to adding the
        // two (the number has no separator, so its one group is the whole part), and Decimal's
        // addition is slow
        if let ct = c.cents, let cr = self.raw(ct), minor != 0, !r.hasDecimals,
            let withCents = AmountResolver.decimal(raw.groups, intCount: 1, frac: cr.groups[0])
        {
            r.amount = withCents
            r.hasDecimals = true
            r.fractionDigits = 2
        }
        if kind?.isCent == true {
            r.amount = r.amount * Decimal(sign: .plus, exponent: -2, significand: 1)
        }
        if c.negative {
            r.amount = -r.amount
            flags.insert(.negative)
        }
        return Valued(c: c, r: r, currency: currency, bare: bare, flags: flags)
    }

    /// Minor units as prices are written, for reading separators: ISO 4217's,
    /// except currencies whose prices are in practice written without decimals
    /// although ISO gives them two (`Rp 15.000`, `1.990 Ft` are thousands).
    static func separatorMinorUnits(_ code: String) -> Int {
        knownSeparatorMinorUnits[code] ?? computeSeparatorMinorUnits(code)
    }

    /// `separatorMinorUnits` of every ISO code and crypto marker, looked up once per line instead.
    static let knownSeparatorMinorUnits: [String: Int] = Dictionary(
        uniqueKeysWithValues: (Currencies.codes.union(["BTC", "ETH"])).map { ($0, computeSeparatorMinorUnits($0)) })

    private static func computeSeparatorMinorUnits(_ code: String) -> Int {
        switch code {
        case "IDR", "HUF", "COP", "LBP", "IRR", "UZS", "MMK", "KHR", "LAK", "SYP", "MNT", "TZS", "RSD", "AMD", "CRC":
            return 0
        case "BTC", "ETH": return 8  // crypto prices go down to the satoshi (10^-8)
        default: return Currencies.minorUnits(code)
        }
    }

    /// Appends the match of `v` to `out`: its text, marker and unit, the union of its words'
    /// boxes, and its confidence (`MatchConfidence`).
    func appendMatch(_ v: Valued, extraFlags: PriceFlags = [], to out: inout [PriceMatch]) {
        if readFromFlatWords(v.c.num) { return }
        let a = T[v.c.first].start, b = T[v.c.last].end
        let w0 = wordOf(a), w1 = wordOf(b - 1)
        let text = string(a..<b, word: w0)
        // (if, not Optional.map: a closure would copy the associator)
        let marker: String? = if let m = v.c.marker { markerText(m.token) } else { nil }
        let unit: String? = if let u = v.c.unit { self.text(u.lowerBound, u.upperBound) } else { nil }
        // boxes and OCR confidence of the words used
        var box: Box? = nil
        var sum = 0.0, lo = 1.0, count = 0
        if w0 >= 0, w1 >= w0 {
            for w in w0...w1 {
                if let wb = words[w].box { box = box.map { $0.union(wb) } ?? wb }
                let cf = min(1, max(0, words[w].confidence))
                sum += cf
                lo = min(lo, cf)
                count += 1
            }
        }
        let ocr = count == 0 ? 1 : MatchConfidence.meanShare * (sum / Double(count)) + (1 - MatchConfidence.meanShare) * lo
        let flags = v.flags.union(extraFlags)
        var factor = 1.0
        if flags.contains(.ambiguousSeparator) { factor *= MatchConfidence.ambiguousSeparator }
        if flags.contains(.repaired) { factor *= MatchConfidence.repaired }
        if flags.contains(.bareNumber) { factor *= v.r.hasDecimals ? MatchConfidence.bareWithDecimals : MatchConfidence.bareInteger }
        if flags.contains(.range) { factor *= MatchConfidence.range }
        if v.currency == nil && !flags.contains(.bareNumber) { factor *= MatchConfidence.unknownCurrency }
        out.append(
            PriceMatch(
                text: text, amount: v.r.amount, currency: v.currency, marker: marker, box: box,
                confidence: max(0, min(1, ocr * factor)), flags: flags, role: nil,
                unit: unit))
    }

    /// Whether every word the number token `k` was read from is flatter than printed digits can
    /// be: its box less than Geometry's `flatShare` (which the OCR's leader rule uses too) as
    /// tall as the width each of its characters takes, and less than that share as tall as the
    /// line's median word. Dot leaders and rules, read as a few digits among dots
    /// (`.....2.2.....` 504 × 3 px on a menu row of 23 px text: `2.2`
    /// at 0.51), are both; a digit is taller than it is wide in any face (about 1.2–1.5 times,
    /// 0.6 in a receipt printer's double width). The two together, as a word's box may take
    /// in dots it did not read (a price `8` boxed 177 × 35 px with the leader before it, on a
    /// row of 32 px text) and a line may hold a headline three times the price's height.
    /// Words without a box (a line given as text) are not flat.
    func readFromFlatWords(_ k: Int) -> Bool {
        let w0 = wordOf(T[k].start), w1 = wordOf(T[k].end - 1)
        guard w0 >= 0, w1 >= w0 else { return false }
        var tallest = 0
        for w in w0...w1 {
            guard let b = words[w].box, b.width > 0 else { return false }
            if Double(b.height * max(1, words[w].text.count)) >= flatShare * Double(b.width) { return false }
            tallest = max(tallest, b.height)
        }
        // Never nil: the words above have boxes.
        let typical = words.compactMap({ $0.box?.height }).median ?? 0
        return Double(tallest) < flatShare * Double(typical)
    }

    /// Not mutating, its state in locals: a mutating method copies `self` for each call of a
    /// non-mutating one.
    func run() -> [PriceMatch] {
        var out: [PriceMatch] = []  // room made at the first match: a line without one allocates nothing
        var used = TokenSet()  // marker tokens already given to a match
        let onlyNumber =
            (T.count == 1 && isNumber(0))
            || (T.count == 2 && isDashTok(0) && T[1].gap == 0 && isNumber(1))
        var k = 0
        while k < T.count {
            guard isNumber(k), let c = candidate(k, used: used) else {
                k += 1
                continue
            }
            // range: `€10–20`, `$10 - $20`, `10–20 €`
            if let (c2, k2end) = rangePartner(after: c, used: used) {
                let v1 = value(c, carried: c.marker == nil ? c2.marker?.kind : nil, onlyNumber: false)
                let v2 = value(c2, carried: c2.marker == nil ? c.marker?.kind : nil, onlyNumber: false)
                if let v1, let v2, v1.r.amount < v2.r.amount {
                    if out.isEmpty { out.reserveCapacity(numbers.count) }  // a match per number at most
                    if let t = c.marker?.token { used[t] = true }
                    if let t = c2.marker?.token { used[t] = true }
                    appendMatch(v1, extraFlags: .range, to: &out)
                    appendMatch(v2, extraFlags: .range, to: &out)
                    k = k2end + 1
                    continue
                }
            }
            if let v = value(c, onlyNumber: onlyNumber) {
                if let m = c.marker { used[m.token] = true }
                if out.isEmpty { out.reserveCapacity(numbers.count) }
                appendMatch(v, to: &out)
                k = c.last + 1
            } else {
                k += 1
            }
        }
        return out
    }

    /// The second end of a range after `c`, if the tokens say so.
    private func rangePartner(after c: Candidate, used: TokenSet) -> (Candidate, Int)? {
        let d = c.last + 1
        guard isDashTok(d), T[d].gap <= 2, d + 1 < T.count, T[d + 1].gap <= 2 else { return nil }
        let symmetric = (T[d].gap == 0) == (T[d + 1].gap == 0)
        guard symmetric || scalar(d) != 0x2D else { return nil }
        var k2 = d + 1
        if !isNumber(k2) {
            guard markerAt(k2, used) != nil, isNumber(k2 + 1), T[k2 + 1].gap <= 2 else { return nil }
            k2 += 1
        }
        guard var c2 = candidate(k2, allowSign: false, used: used) else { return nil }
        if c2.negative { return nil }
        c2.first = min(c2.first, k2)
        return (c2, c2.last)
    }
}

/// A set of token indices, a bit each in one word for the usual line of up to 64 tokens.
struct TokenSet {
    private var low: UInt64 = 0
    private var high: Set<Int> = []

    subscript(k: Int) -> Bool {
        get { k < 64 ? low & (1 << UInt64(k)) != 0 : high.contains(k) }
        set {
            if k < 64 {
                low = newValue ? low | (1 << UInt64(k)) : low & ~(1 << UInt64(k))
            } else if newValue {
                high.insert(k)
            } else {
                high.remove(k)
            }
        }
    }
}

/// A match's confidence: the OCR's confidence in its words times a factor per doubt the parser
/// has. The factors rank doubts (an ambiguous separator, which may be read ten or a thousand
/// times off, most; a range least); they were set with the first parser, not fitted to a data
/// set, and the OCR's thresholds on match confidence (0.6 for a price a re-read adds, 0.6 for
/// the sparse pass) were set against them.
enum MatchConfidence {
    /// Share of the words' mean confidence; the rest is their least confidence (one unsure
    /// digit makes the whole amount unsure).
    static let meanShare = 0.5
    /// `1.234` with no currency telling whether `.` groups or marks decimals.
    static let ambiguousSeparator = 0.6
    /// OCR confusions repaired (`O` → 0, `l` → 1).
    static let repaired = 0.85
    /// A number with no currency mark, with decimals (`12.50`): most such numbers are prices.
    static let bareWithDecimals = 0.85
    /// A bare integer (`129`): a price on a tag, but as often a quantity or a code.
    static let bareInteger = 0.7
    /// One end of a range (`10–15`).
    static let range = 0.95
    /// A mark that names no one currency (`kr`: DKK, NOK, SEK or ISK) and no hint to choose.
    static let unknownCurrency = 0.9
}

extension PriceParser {
    /// Whether `line` has a word naming a receipt's total in one of the parser's languages
    /// (OCR-tolerantly: `T0TAL`, `SUMME`, `合計`), whether or not an amount was read on it.
    public static func namesTotal(_ line: TextLine) -> Bool { TotalKeywords.matches(line) }
    /// Whether `line` names another amount than the one to pay (`TotalKeywords.namesAnother`:
    /// a subtotal, a tax not said to be included, a discount, a rounding, a count of items).
    public static func namesAnotherAmount(_ line: TextLine) -> Bool { TotalKeywords.namesAnother(line) }
}
