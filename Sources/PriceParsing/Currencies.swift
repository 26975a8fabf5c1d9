/// The ISO 4217 currency catalog: which codes exist and how many minor units
/// (digits after the decimal separator) each one has.
///
/// The list holds the active ISO 4217 currencies (list one, 2024) including the
/// supranational XAF/XOF/XPF/XCD/XDR, but not the precious metals, bond units,
/// the testing code XTS or "no currency" XXX: those never label a price.
public enum Currencies {
    /// Minor units of an ISO 4217 code (case-insensitive): JPY and KRW 0,
    /// KWD/BHD/OMR/JOD/TND/LYD/IQD 3, CLF and UYW 4, unknown codes 2.
    public static func minorUnits(_ code: String) -> Int {
        exceptions[code.uppercased()] ?? 2
    }

    /// The digits after the decimal separator that prices in `code` are printed with: CLDR's
    /// `cashDigits` where it differs from ISO 4217 (TWD, CZK, SEK: 0), else the minor units.
    public static func printedDigits(_ code: String) -> Int {
        let c = code.uppercased()
        return CLDRCashDigits.table[c] ?? minorUnits(c)
    }

    /// Whether `code` (case-insensitive) is an ISO 4217 currency code.
    public static func isKnown(_ code: String) -> Bool {
        codes.contains(code.uppercased())
    }

    /// Every known code, uppercase.
    public static let allCodes: Set<String> = codes

    static let exceptions: [String: Int] = [
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0,
        "PYG": 0, "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0,
        "XPF": 0,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "CLF": 4, "UYW": 4,
    ]

    static let codes: Set<String> = [
        "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN",
        "BAM", "BBD", "BDT", "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BOV",
        "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHE", "CHF",
        "CHW", "CLF", "CLP", "CNY", "COP", "COU", "CRC", "CUC", "CUP", "CVE",
        "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD",
        "FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD",
        "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD",
        "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD",
        "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA",
        "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MXV",
        "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB",
        "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB",
        "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SLL",
        "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT",
        "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "USN",
        "UYI", "UYU", "UYW", "UZS", "VED", "VES", "VND", "VUV", "WST", "XAF",
        "XCD", "XCG", "XDR", "XOF", "XPF", "YER", "ZAR", "ZMW", "ZWG", "ZWL",
    ]
}
