/// How a currency symbol or code turns into an ISO 4217 code, given the hint.
enum MarkerKind: Sendable, Hashable {
    /// Always this code (`€`, `zł`, `EUR`).
    case code(String)
    /// `$`: USD unless the hint is another dollar-sign currency.
    case dollar
    /// `¥`, `￥`: JPY unless the hint is CNY.
    case yen
    /// `元`: CNY unless the hint is TWD or HKD (both also written 元).
    case yuan
    /// `kr`: the hint when it is SEK, NOK, DKK or ISK, else unknown.
    case krona
    /// `£`: GBP unless the hint is another pound currency.
    case pound
    /// `Rs`, `₨`: INR unless the hint is another rupee currency.
    case rupee
    /// `¢`: hundredths of the dollar currency.
    case cent

    func resolve(hint: String?) -> String? {
        switch self {
        case .code(let c): return c
        case .dollar, .cent:
            if let h = hint, Markers.dollarFamily.contains(h) { return h }
            return "USD"
        case .yen: return hint == "CNY" ? "CNY" : "JPY"
        case .yuan: return (hint == "TWD" || hint == "HKD") ? hint : "CNY"
        case .krona:
            if let h = hint, ["SEK", "NOK", "DKK", "ISK"].contains(h) { return h }
            return nil
        case .pound:
            if let h = hint, ["EGP", "LBP", "SYP", "SSP", "SDG", "GIP", "FKP", "SHP"].contains(h) { return h }
            return "GBP"
        case .rupee:
            if let h = hint, ["PKR", "LKR", "NPR", "MUR", "SCR"].contains(h) { return h }
            return "INR"
        }
    }
}

enum Markers {
    static let dollarFamily: Set<String> = [
        "USD", "CAD", "AUD", "NZD", "SGD", "HKD", "TWD", "MXN", "ARS", "CLP", "COP",
        "BSD", "BBD", "BZD", "BMD", "BND", "KYD", "FJD", "GYD", "JMD", "LRD", "NAD",
        "SBD", "SRD", "TTD", "XCD", "UYU", "DOP", "CUP", "NIO", "TOP", "WST", "KID",
    ]

    /// Single-scalar symbols that are not letters.
    static let symbols: [UInt32: MarkerKind] = [
        0x24: .dollar,            // $
        0xFF04: .dollar,          // ＄
        0x20AC: .code("EUR"),     // €
        0xA3: .pound,             // £
        0xFFE1: .pound,           // ￡
        0xA5: .yen,               // ¥
        0xFFE5: .yen,             // ￥
        0x20B9: .code("INR"),     // ₹
        0x20A9: .code("KRW"),     // ₩
        0xFFE6: .code("KRW"),     // ￦
        0x20AB: .code("VND"),     // ₫
        0x20BD: .code("RUB"),     // ₽
        0x20BA: .code("TRY"),     // ₺
        0x20B4: .code("UAH"),     // ₴
        0x20AA: .code("ILS"),     // ₪
        0x0E3F: .code("THB"),     // ฿
        0x20B1: .code("PHP"),     // ₱
        0x20A6: .code("NGN"),     // ₦
        0x20A1: .code("CRC"),     // ₡
        0x20B2: .code("PYG"),     // ₲
        0x20B8: .code("KZT"),     // ₸
        0x20BC: .code("AZN"),     // ₼
        0x20BE: .code("GEL"),     // ₾
        0x09F3: .code("BDT"),     // ৳
        0x20AD: .code("LAK"),     // ₭
        0x20AE: .code("MNT"),     // ₮
        0x20B5: .code("GHS"),     // ₵
        0x20A8: .rupee,           // ₨
        0xFDFC: .code("IRR"),     // ﷼
        0xA2: .cent,              // ¢
    ]

    /// Single CJK characters that are currency markers.
    static let cjk: [UInt32: MarkerKind] = [
        0x5186: .code("JPY"),     // 円
        0x5143: .yuan,            // 元
        0xC6D0: .code("KRW"),     // 원
        0x5713: .yuan,            // 圓
    ]

    /// Letter words (lowercased) that are markers, excluding ISO codes.
    static let words: [String: MarkerKind] = [
        "zł": .code("PLN"), "zl": .code("PLN"), "zt": .code("PLN"),  // zt: how Tesseract's eng model reads zł
        "kč": .code("CZK"), "kc": .code("CZK"),
        "kr": .krona, "kn": .code("HRK"), "ft": .code("HUF"), "lei": .code("RON"),
        "rp": .code("IDR"), "rs": .rupee, "rm": .code("MYR"), "sfr": .code("CHF"),
        "лв": .code("BGN"), "руб": .code("RUB"), "грн": .code("UAH"), "тг": .code("KZT"),
        "ден": .code("MKD"), "дин": .code("RSD"),
    ]

    /// Words that are markers only when written with their trailing dot.
    static let dotted: [String: MarkerKind] = [
        "fr.": .code("CHF"), "sfr.": .code("CHF"), "rs.": .rupee, "kr.": .krona,
        "р.": .code("RUB"), "руб.": .code("RUB"), "грн.": .code("UAH"), "дин.": .code("RSD"),
    ]

    /// Letter prefixes in front of `$` (lowercased, without the `$`).
    static let dollarPrefixed: [String: MarkerKind] = [
        "r": .code("BRL"), "hk": .code("HKD"), "nt": .code("TWD"), "us": .code("USD"),
        "c": .code("CAD"), "ca": .code("CAD"), "a": .code("AUD"), "au": .code("AUD"),
        "s": .code("SGD"), "sg": .code("SGD"), "nz": .code("NZD"), "mx": .code("MXN"),
        "rd": .code("DOP"), "tt": .code("TTD"), "j": .code("JMD"), "bz": .code("BZD"),
        "n": .code("NAD"), "fj": .code("FJD"), "bds": .code("BBD"), "ec": .code("XCD"),
    ]

    /// ISO codes that are also common words; they count only in upper case.
    static let wordLikeCodes: Set<String> = [
        "all", "top", "cup", "pen", "try", "mad", "bob", "gel", "mop", "sos", "bam",
        "lak", "amd", "ern", "bov", "cve", "mur", "szl", "tmt", "yer", "std", "che",
    ]

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
