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
    var lowerCount: Int { Int(storedLowerCount) }
    /// `lowerCount` in 32 bits, so that a word token stays small (`Token`).
    private var storedLowerCount: Int32

    /// Any word, by its lower case (the tables' own string look-ups).
    init(lower: String) {
        isUnit = Markers.units.contains(lower)
        isPer = Associator.perWords.contains(lower)
        isX = lower == "x"
        storedLowerCount = Int32(lower.unicodeScalars.count)
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
        storedLowerCount = Int32(lowerCount)
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
    static func lower(_ key: UInt64) -> UInt64 { key | caseBits(key, from: 0x41) }
    /// The key with a–z raised.
    static func upper(_ key: UInt64) -> UInt64 { key & ~caseBits(key, from: 0x61) }

    /// 0x20 in each byte of `key` that is one of the 26 letters from `from`, all bytes at once:
    /// every byte is below 0x80, so adding up to 0x3F to each carries into no other byte, and
    /// a byte's top bit then tells whether it reached the bound.
    private static func caseBits(_ key: UInt64, from: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let atLeastFrom = key &+ ones &* (0x80 - from)
        let pastZ = key &+ ones &* (0x80 - from - 26)
        return (atLeastFrom & ~pastZ & (ones &* 0x80)) >> 2
    }
}

/// What the scanner asks of each scalar below `end` (Latin, Greek, Cyrillic), read from one
/// table instead of a symbol look-up, Unicode properties and case mapping per scalar.
enum SmallScalars {
    static let end: UInt32 = 0x530
    private static let letterBit: UInt32 = 1 << 31
    private static let symbolBit: UInt32 = 1 << 30
    private static let lowerMask: UInt32 = 0x1F_FFFF

    /// Per scalar: `letterBit` when `isLetter`, `symbolBit` when a single-scalar marker, and in
    /// the low bits its lowercase when it is plain (see `plainLower`), else 0.
    private static let table: [UInt32] = (0..<end).map { v in
        guard let u = Unicode.Scalar(v) else { return 0 }
        var facts: UInt32 = 0
        if slowIsLetter(u) { facts |= letterBit }
        if MarkerIDs.symbols[v] != nil { facts |= symbolBit }
        let lower = Array(u.properties.lowercaseMapping.unicodeScalars)
        if isNFCStarter(u), lower.count == 1, lower[0].value < end, isNFCStarter(lower[0]) { facts |= lower[0].value }
        return facts
    }

    /// A starter that NFC leaves as it is. In this range no such scalar composes with the one
    /// before it (only combining marks do, and Hangul and Indic vowels beyond it), so a string
    /// of them is in NFC.
    private static func isNFCStarter(_ u: Unicode.Scalar) -> Bool {
        u.properties.canonicalCombiningClass == .notReordered
            && Array(String(u).precomposedStringWithCanonicalMapping.unicodeScalars) == [u]
    }

    /// `isLetter` of a scalar below `end`.
    @inline(__always) static func isLetter(_ v: UInt32) -> Bool { table[Int(v)] & letterBit != 0 }
    /// Whether a scalar below `end` may be a single-scalar marker (`MarkerIDs.symbols`).
    @inline(__always) static func mayBeSymbol(_ v: UInt32) -> Bool { table[Int(v)] & symbolBit != 0 }

    /// The lowercase of a plain scalar below `end`: an NFC starter whose lowercase
    /// (`String.lowercased()` maps scalar by scalar) is one such scalar. Nil for any other.
    @inline(__always) static func plainLower(_ v: UInt32) -> UInt32? {
        guard v < end else { return nil }
        let lower = table[Int(v)] & lowerMask
        return lower == 0 ? nil : lower
    }
}

/// `isLetter` of kana and CJK ideographs (U+3000 to U+9FFF) as bits, worked out once: Japanese
/// and Chinese lines have many, and each would cost a symbol look-up and a Unicode property.
enum CJKLetters {
    static let range: Range<UInt32> = 0x3000..<0xA000
    private static let bits: [UInt64] = {
        var out = [UInt64](repeating: 0, count: (range.count + 63) / 64)
        for v in range where slowIsLetter(Unicode.Scalar(v)!) {
            let i = Int(v - range.lowerBound)
            out[i / 64] |= 1 << UInt64(i % 64)
        }
        return out
    }()

    /// `isLetter` of `v`, nil when it is outside `range`.
    @inline(__always) static func isLetter(_ v: UInt32) -> Bool? {
        guard range.contains(v) else { return nil }
        let i = Int(v - range.lowerBound)
        return bits[i / 64] >> UInt64(i % 64) & 1 != 0
    }
}

/// A short word of plain scalars (`SmallScalars.plainLower`) as its UTF-8 bytes packed into one
/// integer, first byte lowest, as written and lowercased. Such a word is in NFC, so its bytes
/// equal those of every string it is canonically equivalent to, taken in NFC: the packed tables
/// below find what `String`'s == and hashing find.
struct PackedUTF8 {
    static let maxBytes = 8  // bytes in a UInt64
    private(set) var key: UInt64 = 0
    private(set) var lower: UInt64 = 0
    private var keyBytes: UInt64 = 0
    private var lowerBytes: UInt64 = 0

    /// The packing of `scalars`, nil when one is not plain or they take more than `maxBytes`.
    init?<S: Sequence<Unicode.Scalar>>(_ scalars: S) {
        for u in scalars {
            guard append(u.value) else { return nil }
        }
    }

    /// The packing of a packed ASCII word (`PackedASCII`) of `count` bytes.
    init(ascii key: UInt64, count: Int) {
        self.key = key
        lower = PackedASCII.lower(key)
        keyBytes = UInt64(count)
        lowerBytes = UInt64(count)
    }

    /// Appends the scalar `v`; false when it is not plain or the word grows too long (the
    /// packing is then no longer the word's).
    mutating func append(_ v: UInt32) -> Bool {
        guard let l = SmallScalars.plainLower(v) else { return false }
        return Self.pack(v, into: &key, at: &keyBytes) && Self.pack(l, into: &lower, at: &lowerBytes)
    }

    /// The UTF-8 bytes of `v` (below 0x800: one or two) after the `bytes` already in `packed`.
    private static func pack(_ v: UInt32, into packed: inout UInt64, at bytes: inout UInt64) -> Bool {
        let width: UInt64 = v < 0x80 ? 1 : 2
        guard bytes + width <= UInt64(maxBytes) else { return false }
        let encoded = v < 0x80 ? UInt64(v) : UInt64(0xC0 | v >> 6) | UInt64(0x80 | v & 0x3F) << 8
        packed |= encoded << (8 * bytes)
        bytes += width
        return true
    }
}

/// The string tables that non-ASCII words are looked up in, keyed by `PackedUTF8` (each key
/// by the bytes of its NFC; keys longer than `PackedUTF8.maxBytes` match no packed word).
enum UTF8Words {
    static let exactMarkers = PackedTable(packed(MarkerIDs.exact))
    /// `Markers.anyCase`, then `Markers.withoutDot`, by lower case (as `MarkerIDs.lookup`).
    static let foldedMarkers = PackedTable(packed(MarkerIDs.withoutDot).merging(packed(MarkerIDs.anyCase)) { _, anyCase in anyCase })
    static let units = PackedTable(packed(Dictionary(uniqueKeysWithValues: Markers.units.map { ($0, true) })))
    static let perWords = PackedTable(packed(Dictionary(uniqueKeysWithValues: Associator.perWords.map { ($0, true) })))

    /// `MarkerIDs.lookup` of the word.
    static func marker(_ word: PackedUTF8) -> MarkerID? {
        exactMarkers[word.key] ?? foldedMarkers[word.lower]
    }

    /// `WordInfo(lower:)` of the word's lower case, which has as many scalars as the word.
    static func info(_ word: PackedUTF8, count: Int) -> WordInfo {
        WordInfo(
            isUnit: units[word.lower] != nil, isPer: perWords[word.lower] != nil,
            isX: word.lower == ASCIIWords.x, lowerCount: count)
    }

    private static func packed<V>(_ table: [String: V]) -> [UInt64: V] {
        var out: [UInt64: V] = [:]
        for (key, value) in table {
            let bytes = Array(key.precomposedStringWithCanonicalMapping.utf8)
            guard !bytes.isEmpty, bytes.count <= PackedUTF8.maxBytes else { continue }
            out[bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }] = value
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
        scalars.base.withUnsafeElements(scalars.startIndex..<scalars.endIndex) { run in
            for u in run {
                guard u.value < 0x80 else {
                    ascii = false
                    break
                }
                if shift < 64 { key |= UInt64(u.value) << shift }
                shift += 8
            }
        }
        isASCII = ascii
        self.key = ascii && scalars.count <= PackedASCII.maxLength ? key : nil
        facts = self.key.flatMap { ASCIIWords.facts[PackedASCII.lower($0)] }
        utf8 = ascii ? nil : PackedUTF8(scalars)
    }

    /// The run packed as UTF-8 when it is not ASCII yet short and plain (`PackedUTF8`).
    let utf8: PackedUTF8?

    /// Whether the string tables must answer: not ASCII, or too long to pack yet not too long to match.
    private var needsStrings: Bool { key == nil && (!isASCII || scalars.count <= ASCIIWords.longestUnpacked) }

    /// The marker the letters name (`Markers.lookup`).
    var marker: MarkerID? {
        if let key {
            guard let facts else { return nil }
            if facts.hasExact, let m = ASCIIWords.exactMarkerTable[key] { return m }
            return facts.folded
        }
        if let utf8 { return UTF8Words.marker(utf8) }
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
        if let utf8 { return UTF8Words.info(utf8, count: scalars.count) }
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
    /// The key packed as UTF-8 (`PackedUTF8`), nil when it is too long or not plain.
    private var utf8: PackedUTF8?

    init(_ word: Letters) {
        (isASCII, count) = word.asciiCount
        packed = word.key
        utf8 = word.key.map { PackedUTF8(ascii: $0, count: count) } ?? word.utf8
    }

    mutating func append(_ u: Unicode.Scalar) {
        if utf8 != nil, !utf8!.append(u.value) { utf8 = nil }
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
        if !isASCII, let utf8 { return UTF8Words.marker(utf8) }
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
