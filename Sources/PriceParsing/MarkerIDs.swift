/// A currency marker named by its place in `MarkerIDs.kinds`. Tokens and candidates hold this
/// plain number instead of a `MarkerKind` (whose strings and arrays are reference counted on
/// every copy); the kind and its no-hint reading are looked up by index.
struct MarkerID: Hashable {
    let index: UInt16

    var kind: MarkerKind { MarkerIDs.kinds[Int(index)] }
    /// `¢`: the amount is in hundredths.
    var isCent: Bool { MarkerIDs.noHint[Int(index)].isCent }
    /// Whether the marker may stand for a currency that prints `$` (`US$`, `HKD`, `¢`; not `RM`, `€`).
    var mayBeDollar: Bool { MarkerIDs.mayBeDollar[Int(index)] }

    /// `kind.resolve(hint:)`, and the minor units separators are read with (nil for `¢`).
    func resolve(hint: String?) -> (currency: String?, minor: Int?) {
        let known = MarkerIDs.noHint[Int(index)]
        if hint == nil { return (known.currency, known.minor) }
        let currency = kind.resolve(hint: hint)
        return (currency, known.isCent ? nil : currency.map(Associator.separatorMinorUnits))
    }
}

/// Every marker kind the scanner can produce, numbered, and the scanner's tables by number.
enum MarkerIDs {
    /// The kinds of `Markers`' tables, the ISO codes and the OCR repairs (`S` → `$`, `E` → `€`).
    static let kinds: [MarkerKind] = {
        var all: [MarkerKind] = [Markers.dollar, .code("EUR"), .cent]
        all += Markers.kinds.values
        all += Markers.anyCase.values
        all += Markers.withoutDot.values
        all += Markers.symbols.values
        all += Markers.cjk.values
        all += Currencies.codes.map { MarkerKind.code($0) }
        var seen: Set<MarkerKind> = []
        return all.filter { seen.insert($0).inserted }
    }()

    private static let numbers: [MarkerKind: MarkerID] = Dictionary(
        uniqueKeysWithValues: kinds.enumerated().map { ($0.element, MarkerID(index: UInt16($0.offset))) })

    /// The number of a kind in `kinds` (for building tables, not per line).
    static func id(_ kind: MarkerKind) -> MarkerID { numbers[kind]! }

    /// What each kind resolves to without a hint, worked out once.
    static let noHint: [(currency: String?, minor: Int?, isCent: Bool)] = kinds.map { kind in
        let currency = kind.resolve(hint: nil)
        if case .cent = kind { return (currency, nil, true) }
        return (currency, currency.map(Associator.separatorMinorUnits), false)
    }

    static let dollar = id(Markers.dollar)
    static let euro = id(.code("EUR"))
    static let won = id(.code("KRW"))
    /// `¥`, which the yen and the yuan print.
    static let yen = symbols[0xA5]!

    /// `MarkerID.mayBeDollar` of each kind: one of its currencies is one of `$`'s.
    static let mayBeDollar: [Bool] = kinds.map { kind in
        switch kind {
        case .code(let c): Markers.dollarCurrencies.contains(c)
        case .shared(let f, let m):
            m.contains(where: Markers.dollarCurrencies.contains) || f.map(Markers.dollarCurrencies.contains) ?? false
        case .cent: true
        }
    }

    static let symbols: [UInt32: MarkerID] = Markers.symbols.mapValues(id)
    /// `symbols` of the ASCII scalars, by value: most scalars of a line are ASCII and not symbols.
    private static let asciiSymbols: [MarkerID?] = (0..<128).map { symbols[UInt32($0)] }

    /// The single-scalar symbol `v` is (`€`, `$`), if any.
    @inline(__always) static func symbol(_ v: UInt32) -> MarkerID? {
        if v < 0x80 { return asciiSymbols[Int(v)] }
        if v < SmallScalars.end, !SmallScalars.mayBeSymbol(v) { return nil }  // no hashing for most letters
        return packedSymbols[UInt64(v)]
    }

    /// `symbols` and `cjk` keyed by the scalar's value in a `PackedTable` (no scalar is 0): a
    /// multiplicative hash per look-up instead of `Dictionary`'s SipHash, for `€` on most lines.
    private static let packedSymbols = PackedTable(Dictionary(uniqueKeysWithValues: symbols.map { (UInt64($0.key), $0.value) }))
    private static let packedCJK = PackedTable(Dictionary(uniqueKeysWithValues: cjk.map { (UInt64($0.key), $0.value) }))
    /// `Markers.continuations` above ASCII, likewise.
    private static let packedContinuations = PackedTable(
        Dictionary(uniqueKeysWithValues: Markers.continuations.filter { $0 >= 0x80 }.map { (UInt64($0), true) }))

    /// The text of a single-scalar marker (`symbols`, `cjk`), made once.
    @inline(__always) static func singleScalarText(_ v: UInt32) -> String? { packedTexts[UInt64(v)] }
    private static let packedTexts = PackedTable(
        Dictionary((Array(symbols.keys) + Array(cjk.keys)).map { (UInt64($0), String(Unicode.Scalar($0)!)) }) { text, _ in text })

    /// The CJK scalar `v` as a marker (`円`, `元`), if it is one (`cjk`).
    @inline(__always) static func cjkMarker(_ v: UInt32) -> MarkerID? { packedCJK[UInt64(v)] }

    /// `Markers.continuations`, with the ASCII ones as bits.
    private static let asciiContinuations: (UInt64, UInt64) = Markers.continuations.filter { $0 < 0x80 }.reduce((0, 0)) {
        $1 < 64 ? ($0.0 | 1 << UInt64($1), $0.1) : ($0.0, $0.1 | 1 << UInt64($1 - 64))
    }

    /// Whether `v` follows a letter inside some marker (`Markers.continuations`).
    @inline(__always) static func isContinuation(_ v: UInt32) -> Bool {
        if v >= 0x80 { return packedContinuations[UInt64(v)] != nil }
        return (v < 64 ? asciiContinuations.0 >> UInt64(v) : asciiContinuations.1 >> UInt64(v - 64)) & 1 != 0
    }
    static let cjk: [UInt32: MarkerID] = Markers.cjk.mapValues(id)
    static let exact: [String: MarkerID] = Markers.kinds.mapValues(id)
    static let anyCase: [String: MarkerID] = Markers.anyCase.mapValues(id)
    static let withoutDot: [String: MarkerID] = Markers.withoutDot.mapValues(id)

    /// `Markers.lookup`, by number.
    static func lookup(_ word: String) -> MarkerID? {
        if let k = exact[word] { return k }
        let lower = word.lowercased()
        return anyCase[lower] ?? withoutDot[lower]
    }

    /// `Markers.lookup(word, lower:)`, by number.
    static func lookup(_ word: String, lower: String) -> MarkerID? {
        if let k = exact[word] { return k }
        return anyCase[lower] ?? withoutDot[lower]
    }
}
