/// How a currency symbol or code turns into an ISO 4217 code, given the hint.
enum MarkerKind: Sendable, Hashable {
    /// Always this code (`€`, `zł`, `EUR`).
    case code(String)
    /// A symbol several currencies print (`$`, `£`, `¥`, `kr`, `Rs`): the hint when it is
    /// one of `members`, else `fallback` (nil: the currency stays unknown).
    case shared(fallback: String?, members: [String])
    /// `¢`: hundredths of the `$` currency.
    case cent

    func resolve(hint: String?) -> String? {
        switch self {
        case .code(let c): return c
        case .shared(let fallback, let members):
            if let h = hint, members.contains(h) { return h }
            return fallback
        case .cent: return Markers.dollar.resolve(hint: hint)
        }
    }
}

/// The currency markers the scanner recognises: CLDR's symbols (`CurrencySymbols.swift`,
/// generated) merged with the hand-made table below, which adds what shops print that CLDR
/// does not list, settles shared symbols and leaves out symbols that are common words.
enum Markers {
    /// What a hand-made entry is and why it is there.
    struct Entry {
        let key: String
        let kind: MarkerKind
        /// Also matched in other letter cases (`ZŁ`, `rs.`); else only as written.
        let anyCase: Bool
        init(_ key: String, _ kind: MarkerKind, anyCase: Bool = true) {
            self.key = key
            self.kind = kind
            self.anyCase = anyCase
        }
    }

    static let dollar = kinds["$"] ?? .code("USD")
    /// The currencies `$` stands for.
    static let dollarCurrencies: Set<String> =
        switch dollar {
        case .shared(let fallback, let members): Set(members + [fallback].compactMap { $0 })
        case .code(let c): [c]
        case .cent: []
        }

    /// Added to CLDR's members: currencies whose shops print these symbols though CLDR's
    /// locales write another (kept from pricecam's tables before CLDR: hints for them worked).
    static let moreMembers: [String: [String]] = [
        "$": ["HKD", "BSD", "NAD", "CLP", "COP", "DOP", "NIO", "TOP", "WST", "KID"],
        "£": ["EGP", "LBP", "SYP", "SDG"],
        "kr": ["ISK"], "kr.": ["SEK", "NOK"],
    ]

    /// Hand-made markers. Each line says why it is not (only) CLDR's.
    static let hand: [Entry] = [
        // shared symbols whose usual reading English does not give
        Entry("￥", .shared(fallback: "JPY", members: ["JPY", "CNY"])),  // fullwidth yen: Japanese tags; CNY by hint
        Entry("C$", .shared(fallback: "CAD", members: ["CAD", "NIO"])),  // CLDR's NIO, but Canada prints it far more
        Entry("Rs", .shared(fallback: "INR", members: ["INR", "PKR", "LKR", "NPR", "MUR", "SCR"])),  // India, the biggest user
        Entry("Rs.", .shared(fallback: "INR", members: ["INR", "PKR", "LKR", "NPR", "MUR", "SCR"])),
        Entry("Br", .shared(fallback: "BYN", members: ["BYN", "ETB"]), anyCase: false),  // Ethiopia prints ብር
        Entry("CFA", .shared(fallback: "XOF", members: ["XOF", "XAF"])),  // `F CFA`, `FCFA` split by OCR; XOF's is `F CFA`
        Entry("F.CFA", .shared(fallback: "XOF", members: ["XOF", "XAF"])),
        // not symbols in CLDR, but printed on tags and receipts
        Entry("zl", .code("PLN")), Entry("zt", .code("PLN")),  // zł without the stroke; Tesseract eng reads zt
        Entry("kc", .code("CZK")),  // Kč without the caron
        Entry("kn", .code("HRK")),  // kuna (replaced by EUR in 2023, still on old lists)
        Entry("lei", .code("RON")), Entry("leu", .code("MDL")),
        Entry("sfr", .code("CHF")), Entry("sfr.", .code("CHF")), Entry("fr.", .code("CHF")),  // `Fr` without dot is a word
        Entry("chf.", .code("CHF")),
        Entry("lek", .code("ALL")), Entry("leke", .code("ALL")),  // Lekë without the diaeresis, and the singular
        Entry("din", .code("RSD")), Entry("дин", .code("RSD")),  // Serbian dinar, Latin and Cyrillic
        Entry("р", .code("RUB")), Entry("руб", .code("RUB")), Entry("рубль", .code("RUB")),
        Entry("рубля", .code("RUB")), Entry("рублей", .code("RUB")),  // the ruble before ₽: `р.`, `руб.`, the word
        Entry("грн", .code("UAH")), Entry("тг", .code("KZT")), Entry("тенге", .code("KZT")),
        Entry("лв", .code("BGN")), Entry("лева", .code("BGN")),
        Entry("ман", .code("AZN")),  // manat as Azerbaijani shops abbreviate it
        Entry("сум", .code("UZS")),  // `man`, `som`: English and Nordic words
        Entry("ден", .code("MKD")),
        Entry("BD", .code("BHD"), anyCase: false), Entry("KD", .code("KWD"), anyCase: false),  // Gulf dinars in Latin script
        Entry("DT", .code("TND"), anyCase: false),
        Entry("SR", .code("SAR"), anyCase: false),  // Saudi shops' SR (CLDR: SCR)
        Entry("Dhs", .code("AED")), Entry("Dh", .code("MAD"), anyCase: false),
        Entry("L.E.", .code("EGP")), Entry("E£", .code("EGP")),
        Entry("S/.", .code("PEN")),  // Peru's older sol sign
        Entry("Bs.", .code("BOB")), Entry("Bs.F", .code("VES")),
        Entry("AU$", .code("AUD")), Entry("AUD$", .code("AUD")), Entry("SG$", .code("SGD")), Entry("S$", .code("SGD")),
        Entry("TT$", .code("TTD")), Entry("J$", .code("JMD")), Entry("BZ$", .code("BZD")), Entry("N$", .code("NAD")),
        Entry("FJ$", .code("FJD")), Entry("Bds$", .code("BBD")), Entry("CAD$", .code("CAD")), Entry("Can$", .code("CAD")),
        Entry("Q", .code("GTQ"), anyCase: false), Entry("R", .code("ZAR"), anyCase: false),  // the single letters kept (see `excluded`)
        Entry("euro", .code("EUR")), Entry("euros", .code("EUR")),
        Entry("đ", .code("VND")),  // Vietnamese shops' dong (CLDR: ₫)
        // crypto: not ISO 4217, but priced in shops that take it
        Entry("BTC", .code("BTC")), Entry("XBT", .code("BTC")), Entry("ETH", .code("ETH")), Entry("₿", .code("BTC")),
    ]

    /// CLDR symbols left out: single letters are tax classes, row letters and OCR repairs
    /// (`S12.99` → `$`, `12,99 E` → `€`) far more often than `D`, `K`, `L`, `P` currencies;
    /// `Le` is the French article.
    static let excluded: Set<String> = ["D", "E", "G", "K", "L", "P", "S", "ر", "Le"]

    /// Symbol (as written, or lowercased for any-case entries) → kind, for keys that are
    /// one scalar which is not a letter (`€`, `₸`), and keys that start with a letter.
    static let kinds: [String: MarkerKind] = {
        var out: [String: MarkerKind] = [:]
        for (sym, fallback, members) in CLDRSymbols.table where !excluded.contains(sym) {
            let all = Array(Set(members + (moreMembers[sym] ?? []))).sorted()
            out[sym] = all.count == 1 ? .code(all[0]) : .shared(fallback: fallback, members: all)
        }
        for e in hand { out[e.key] = e.kind }
        return out
    }()

    /// CLDR's two-letter symbols that shops and OCR write in any case (`FT`, `rp`); the others
    /// (`KM`, `Br`, `DA`, `FC`) match only as written: in lower case they are words or units.
    static let anyCaseCLDR: Set<String> = ["Ft", "Rp", "RM", "kr", "Kč", "zł"]

    /// Which keys match in any letter case: CLDR's that cannot be mistaken for a word (three or
    /// more scalars, or holding a symbol, or not in Latin script) and the hand-made any-case ones.
    static let anyCase: [String: MarkerKind] = {
        var out: [String: MarkerKind] = [:]
        for (key, kind) in kinds {
            let scalars = Array(key.unicodeScalars)
            let latinLetters = scalars.allSatisfy { $0.value < 0x250 && $0.properties.isAlphabetic }
            if scalars.count >= 3 || !latinLetters || anyCaseCLDR.contains(key) { out[key.lowercased()] = kind }
        }
        for e in hand where e.anyCase { out[e.key.lowercased()] = e.kind }
        for e in hand where !e.anyCase { out[e.key.lowercased()] = nil }
        return out
    }()

    /// `лв.`, `ل.س.`: CLDR writes these abbreviations with a final dot that shops often drop
    /// (CLDR's only: the hand-made `fr.` needs its dot, `Fr` is a word).
    static let withoutDot: [String: MarkerKind] = {
        var out: [String: MarkerKind] = [:]
        for (sym, _, _) in CLDRSymbols.table where sym.hasSuffix(".") && sym.unicodeScalars.count >= 3 {
            if let kind = kinds[sym] { out[String(sym.dropLast()).lowercased()] = kind }
        }
        return out
    }()

    /// The marker a word (letters, possibly with `.`, `/`, `$` and symbols inside) names.
    @inline(__always) static func lookup(_ word: String) -> MarkerKind? {
        lookup(word, lower: word.lowercased())
    }

    /// Same, with the word's lower case already at hand (the scanner's hot path).
    @inline(__always) static func lookup(_ word: String, lower: String) -> MarkerKind? {
        if let k = kinds[word] { return k }
        return anyCase[lower] ?? withoutDot[lower]
    }

    /// Scalars that follow a letter inside some key (`$` of `R$`, `.` of `Fr.`, `/` of `S/`):
    /// the scanner tries a longer marker only when one of these comes right after a word.
    static let continuations: Set<UInt32> = {
        var out: Set<UInt32> = []
        for key in Array(kinds.keys) + Array(anyCase.keys) {
            let sc = Array(key.unicodeScalars)
            for i in sc.indices.dropFirst() where sc[i - 1].properties.isAlphabetic && !sc[i].properties.isAlphabetic {
                out.insert(sc[i].value)
            }
        }
        return out
    }()

    /// Longest key, in scalars: bounds the scanner's look-ahead.
    static let longestKey = max(kinds.keys.map(\.unicodeScalars.count).max() ?? 1, withoutDot.keys.map(\.unicodeScalars.count).max() ?? 1)

    /// Single-scalar symbols that are not letters.
    static let symbols: [UInt32: MarkerKind] = {
        var out: [UInt32: MarkerKind] = [:]
        for (key, kind) in kinds {
            let sc = Array(key.unicodeScalars)
            if sc.count == 1, !sc[0].properties.isAlphabetic { out[sc[0].value] = kind }
        }
        out[0xFF04] = dollar  // ＄ fullwidth
        out[0xFFE1] = kinds["£"]  // ￡ fullwidth
        out[0xFFE6] = .code("KRW")  // ￦ fullwidth
        out[0x20A8] = kinds["Rs"]  // ₨ the rupee sign
        out[0xFDFC] = .code("IRR")  // ﷼ the rial sign
        out[0xA2] = .cent  // ¢
        return out
    }()

    /// Single CJK characters that are currency markers (not CLDR symbols: the unit words).
    static let cjk: [UInt32: MarkerKind] = [
        0x5186: .code("JPY"),  // 円
        0x5143: .shared(fallback: "CNY", members: ["CNY", "TWD", "HKD"]),  // 元 (TWD and HKD write it too)
        0xC6D0: .code("KRW"),  // 원
        0x5713: .shared(fallback: "CNY", members: ["CNY", "TWD", "HKD"]),  // 圓
    ]

    /// ISO codes that are also common words; they count only in upper case.
    static let wordLikeCodes: Set<String> = [
        "all", "top", "cup", "pen", "try", "mad", "bob", "gel", "mop", "sos", "bam",
        "lak", "amd", "ern", "bov", "cve", "mur", "szl", "tmt", "yer", "std", "che",
    ]

    /// Letters Tesseract's stock Latin models put for another in receipt faces, in lower case:
    /// a condensed or dot-matrix `M` read `H`, `N` or `W` (`RH43.40` for `RM43.40` on a
    /// Malaysian receipt). Only markers printed before the number are repaired this way
    /// (`gluedWordAllowed`); letters glued after a number make it a quantity.
    static let misreadLetters: [Character: [Character]] = ["m": ["h", "n", "w"]]

    /// Two-letter markers with one letter misread (`misreadLetters`), lower case, to the
    /// currencies they may stand for: a word that is no marker, no unit, read only when the
    /// user's stored currency is one of those (`rh` is nothing on its own, `RM` with the
    /// Malaysian ringgit in the settings).
    static let misreadTwoLetter: [String: Set<String>] = {
        var out: [String: Set<String>] = [:]
        for (key, kind) in anyCase {
            let letters = Array(key)
            guard letters.count == 2, letters.allSatisfy(\.isLetter) else { continue }
            let codes: [String] =
                switch kind {
                case .code(let c): [c]
                case .shared(_, let members): members
                case .cent: []
                }
            for i in 0..<2 {
                for other in misreadLetters[letters[i]] ?? [] {
                    var variant = letters
                    variant[i] = other
                    let word = String(variant)
                    guard lookup(word) == nil, !units.contains(word) else { continue }
                    out[word, default: []].formUnion(codes)
                }
            }
        }
        return out
    }()

    /// Whether `word` is a two-letter marker of the currency `code` (upper case) with a letter
    /// misread (`misreadTwoLetter`: `RH` for MYR's `RM`).
    static func isMisreadMarker(_ word: String, of code: String) -> Bool {
        misreadTwoLetter[word.lowercased()]?.contains(code) ?? false
    }

    /// The currencies `¥` stands for (CLDR: the yen and the yuan).
    static let yenCurrencies: Set<String> = ["JPY", "CNY"]

    /// Unit words (lowercased) that make the number before them a quantity.
    static let units: Set<String> = [
        "g", "gr", "grams", "gram", "kg", "mg", "l", "lt", "ltr", "liter", "litre", "ml", "cl", "dl",
        "m", "cm", "mm", "km", "oz", "lb", "lbs", "pcs", "pc", "pce", "pces", "stk", "st", "stück",
        "stck", "x", "pk", "pack", "kcal", "cal", "kj", "w", "kw", "kwh", "v", "mah", "gb", "mb",
        "tb", "kb", "h", "min", "sek", "sec", "qm", "stuks", "szt", "ks", "db", "hz", "mhz",
        "ghz", "fl", "gal", "pt", "qt", "tbsp", "tsp", "cups", "pieces", "piece", "pkg", "dz",
        "l.", "st.", "stk.", "kgs", "mm²", "m²", "m2", "m3", "uds", "ud", "шт", "г", "кг", "мл", "л",
    ]
}
