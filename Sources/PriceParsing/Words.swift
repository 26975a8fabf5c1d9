import Foundation

/// What the associator asks of a word token, worked out once by the scanner.
struct WordInfo {
    /// A unit word (`kg`, `x`, `Stück`): the number before it is a quantity.
    var isUnit: Bool
    /// A word that says "per" before a unit (`per`, `je`, `за`).
    var isPer: Bool
    /// The `x` of `2 x 1,99`.
    var isX: Bool
    /// Scalars in the lowercased word.
    var lowerCount: Int

    /// Any word, by its lower case (the tables' own string look-ups).
    init(lower: String) {
        isUnit = Markers.units.contains(lower)
        isPer = Associator.perWords.contains(lower)
        isX = lower == "x"
        lowerCount = lower.unicodeScalars.count
    }

    /// A CJK, kana or Hangul scalar standing alone as a word (`isSingleCharWord`).
    init(singleChar c: Unicode.Scalar) {
        if Self.tablesHoldSingleCharScripts {
            self.init(lower: String(c))
        } else {
            self.init(isUnit: false, isPer: false, isX: false, lowerCount: 1)
        }
    }

    /// Whether a key of the unit or "per" tables has a scalar of the scripts written without
    /// spaces, in any normal form. None has: a lone such scalar, whose normal forms stay in
    /// those scripts, then equals no key, and its word needs no string look-up.
    static let tablesHoldSingleCharScripts: Bool = Markers.units.union(Associator.perWords).contains { key in
        [key, key.precomposedStringWithCanonicalMapping, key.decomposedStringWithCanonicalMapping]
            .contains { $0.unicodeScalars.contains { isSingleCharWord($0.value) } }
    }

    init(isUnit: Bool, isPer: Bool, isX: Bool, lowerCount: Int) {
        self.isUnit = isUnit
        self.isPer = isPer
        self.isX = isX
        self.lowerCount = lowerCount
    }
}

/// Up to `maxLength` ASCII bytes packed into one integer, first byte lowest: the key of a short
/// ASCII word in `ASCIIWords`' tables, which hash and compare faster than strings.
enum PackedASCII {
    static let maxLength = 8  // bytes in a UInt64

    /// The packed key of `bytes`, nil when they are too many or not all ASCII.
    static func pack<C: Collection<UInt8>>(_ bytes: C) -> UInt64? {
        guard bytes.count <= maxLength else { return nil }
        var key: UInt64 = 0, shift: UInt64 = 0
        for b in bytes {
            guard b < 0x80 else { return nil }
            key |= UInt64(b) << shift
            shift += 8
        }
        return key
    }

    /// The key of the same word with A–Z lowered (what `String.lowercased()` does to ASCII).
    static func lower(_ key: UInt64) -> UInt64 { mapLetters(key, from: 0x41, flip: 0x20, set: true) }
    /// The key with a–z raised.
    static func upper(_ key: UInt64) -> UInt64 { mapLetters(key, from: 0x61, flip: 0x20, set: false) }

    private static func mapLetters(_ key: UInt64, from: UInt64, flip: UInt64, set: Bool) -> UInt64 {
        var out = key
        for shift in stride(from: UInt64(0), to: 64, by: 8) {
            let b = (key >> shift) & 0xFF
            if b >= from && b < from + 26 { out = set ? out | (flip << shift) : out & ~(flip << shift) }
        }
        return out
    }
}

/// The scanner's tables for words of ASCII letters, built from the string tables
/// (`Markers`, `Currencies`, `Associator.perWords`) so that both always answer alike. A string
/// key counts under the ASCII form it is canonically equivalent to (Swift compares strings so).
enum ASCIIWords {
    /// `Markers.kinds` as written.
    static let exactMarkers = packed(MarkerIDs.exact)
    /// `Markers.anyCase`, then `Markers.withoutDot`, by lower case.
    static let foldedMarkers = packed(MarkerIDs.withoutDot).merging(packed(MarkerIDs.anyCase)) { _, anyCase in anyCase }
    /// ISO codes by upper case, as the marker kind the scanner gives them.
    static let codes = packed(Dictionary(uniqueKeysWithValues: Currencies.codes.map { ($0, MarkerIDs.id(.code($0))) }))
    static let wordLikeCodes = Set(packed(Dictionary(uniqueKeysWithValues: Markers.wordLikeCodes.map { ($0, ()) })).keys)
    static let units = Set(packed(Dictionary(uniqueKeysWithValues: Markers.units.map { ($0, ()) })).keys)
    static let perWords = Set(packed(Dictionary(uniqueKeysWithValues: Associator.perWords.map { ($0, ()) })).keys)
    static let x = PackedASCII.pack("x".utf8)!

    /// Everything the tables above say of a word, by its lower-case key: one look-up per word.
    struct Facts {
        /// `foldedMarkers` of the key.
        var folded: MarkerID?
        /// `codes` of the key in upper case.
        var code: MarkerID?
        var wordLikeCode = false
        var isUnit = false
        var isPer = false
        /// Some key of `exactMarkers` has this lower case: only then is `exactMarkers` asked.
        var hasExact = false
    }

    /// `Markers.lookup` of a packed ASCII word.
    static func marker(_ key: UInt64) -> MarkerID? {
        guard let facts = facts[PackedASCII.lower(key)] else { return nil }
        if facts.hasExact, let m = exactMarkerTable[key] { return m }
        return facts.folded
    }

    /// `factsByKey` as the scanner asks it, once per word.
    static let facts = PackedTable(factsByKey)
    /// `exactMarkers`, likewise.
    static let exactMarkerTable = PackedTable(exactMarkers)

    static let factsByKey: [UInt64: Facts] = {
        var out: [UInt64: Facts] = [:]
        for (k, m) in foldedMarkers { out[k, default: Facts()].folded = m }
        for (k, m) in codes { out[PackedASCII.lower(k), default: Facts()].code = m }
        for k in wordLikeCodes { out[k, default: Facts()].wordLikeCode = true }
        for k in units { out[k, default: Facts()].isUnit = true }
        for k in perWords { out[k, default: Facts()].isPer = true }
        for k in exactMarkers.keys { out[PackedASCII.lower(k), default: Facts()].hasExact = true }
        return out
    }()

    /// Longest key of any table above whose ASCII form is too long to pack: an ASCII word up
    /// to this long is looked up by string, a longer one is in none of the tables.
    static let longestUnpacked: Int = {
        let keys =
            Array(Markers.kinds.keys) + Array(Markers.anyCase.keys) + Array(Markers.withoutDot.keys)
            + Array(Currencies.codes) + Array(Markers.wordLikeCodes) + Array(Markers.units) + Array(Associator.perWords)
        return keys.compactMap(asciiForm).map(\.utf8.count).filter { $0 > PackedASCII.maxLength }.max() ?? 0
    }()

    /// The ASCII string `key` is canonically equivalent to, if any.
    private static func asciiForm(_ key: String) -> String? {
        if key.utf8.allSatisfy({ $0 < 0x80 }) { return key }
        let nfc = key.precomposedStringWithCanonicalMapping
        return nfc.utf8.allSatisfy({ $0 < 0x80 }) ? nfc : nil
    }

    private static func packed<V>(_ table: [String: V]) -> [UInt64: V] {
        var out: [UInt64: V] = [:]
        for (key, value) in table {
            if let a = asciiForm(key), let p = PackedASCII.pack(a.utf8) { out[p] = value }
        }
        return out
    }
}

/// A run of letters as the scanner looks it up: a short ASCII run by packed key (one look-up in
/// `ASCIIWords.facts`), any other by string.
struct Letters {
    let scalars: Slice<Scalars>
    /// The run packed as written; nil when it is not ASCII or too long to pack.
    let key: UInt64?
    let isASCII: Bool
    /// What the tables say of the packed run (nil when none has it or it is not packed).
    private let facts: ASCIIWords.Facts?

    init(_ scalars: Slice<Scalars>) {
        self.scalars = scalars
        var key: UInt64 = 0, shift: UInt64 = 0, ascii = true
        for u in scalars {
            guard u.value < 0x80 else {
                ascii = false
                break
            }
            if shift < 64 { key |= UInt64(u.value) << shift }
            shift += 8
        }
        isASCII = ascii
        self.key = ascii && scalars.count <= PackedASCII.maxLength ? key : nil
        facts = self.key.flatMap { ASCIIWords.facts[PackedASCII.lower($0)] }
    }

    /// Whether the string tables must answer: not ASCII, or too long to pack yet not too long to match.
    private var needsStrings: Bool { key == nil && (!isASCII || scalars.count <= ASCIIWords.longestUnpacked) }

    /// The marker the letters name (`Markers.lookup`).
    var marker: MarkerID? {
        if let key {
            guard let facts else { return nil }
            if facts.hasExact, let m = ASCIIWords.exactMarkerTable[key] { return m }
            return facts.folded
        }
        guard needsStrings else { return nil }
        let word = String(scalars)
        return MarkerIDs.lookup(word, lower: word.lowercased())
    }

    /// Whether all the letters are ASCII, and how many there are.
    var asciiCount: (isASCII: Bool, count: Int) { (isASCII, scalars.count) }

    /// The currency a run of ASCII letters names as an ISO code: in any case, but a code that
    /// is also a word (`all`, `top`) only in upper case.
    var isoCode: MarkerID? {
        guard let key, let facts, let kind = facts.code else { return nil }
        return key == PackedASCII.upper(key) || !facts.wordLikeCode ? kind : nil
    }

    var info: WordInfo {
        if key != nil {
            return WordInfo(
                isUnit: facts?.isUnit ?? false, isPer: facts?.isPer ?? false,
                isX: key.map(PackedASCII.lower) == ASCIIWords.x, lowerCount: scalars.count)
        }
        if needsStrings { return WordInfo(lower: String(scalars).lowercased()) }
        return WordInfo(isUnit: false, isPer: false, isX: false, lowerCount: scalars.count)
    }
}

/// A marker key growing a scalar at a time (`R` → `R$`, `Fr` → `Fr.`): packed while it is a
/// short ASCII key, so that each step is looked up without building a string.
struct MarkerKey {
    /// Scalars in the key.
    private(set) var count: Int
    private var isASCII: Bool
    /// The key packed as written (`PackedASCII`), nil when it is not ASCII or too long.
    private var packed: UInt64?

    init(_ word: Letters) {
        (isASCII, count) = word.asciiCount
        packed = word.key
    }

    mutating func append(_ u: Unicode.Scalar) {
        if u.value >= 0x80 {
            isASCII = false
            packed = nil
        } else if let p = packed, count < PackedASCII.maxLength {
            packed = p | UInt64(u.value) << UInt64(8 * count)
        } else {
            packed = nil
        }
        count += 1
    }

    /// `MarkerIDs.lookup` of the key; `string` gives the key as a string when the packed
    /// tables cannot answer.
    func marker(_ string: () -> String) -> MarkerID? {
        if let packed { return ASCIIWords.marker(packed) }
        if isASCII, count > ASCIIWords.longestUnpacked { return nil }  // longer than any key
        return MarkerIDs.lookup(string())
    }
}

/// A read-only table keyed by packed ASCII words (`PackedASCII`, never 0): open addressing
/// with a multiplicative hash, a few instructions per look-up where `Dictionary` runs SipHash.
struct PackedTable<Value: Sendable>: Sendable {
    private let keys: [UInt64]  // 0: an empty slot
    private let values: [Value?]
    private let shift: UInt64
    private let mask: Int

    init(_ table: [UInt64: Value]) {
        var bits = 4
        while 1 << bits < 2 * table.count { bits += 1 }  // at most half full
        shift = UInt64(64 - bits)
        mask = (1 << bits) - 1
        var keys = [UInt64](repeating: 0, count: 1 << bits)
        var values = [Value?](repeating: nil, count: 1 << bits)
        for (key, value) in table {
            precondition(key != 0, "packed words are not empty")
            var i = Self.slot(key, shift)
            while keys[i] != 0 { i = (i + 1) & mask }
            keys[i] = key
            values[i] = value
        }
        self.keys = keys
        self.values = values
    }

    private static func slot(_ key: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    subscript(key: UInt64) -> Value? {
        var i = Self.slot(key, shift)
        while true {
            let k = keys[i]
            if k == key { return values[i] }
            if k == 0 { return nil }
            i = (i + 1) & mask
        }
    }
}
