public import Foundation
#if canImport(Geometry)
    public import Geometry  // (absent when the parser is compiled alone: scripts/bench-parse.sh)
#endif

/// What is special about a match, for callers that want to show or filter it.
public struct PriceFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `1.234` or `1,234` whose separator could be decimal or grouping and
    /// neither the text nor the currency settled it.
    public static let ambiguousSeparator = PriceFlags(rawValue: 1 << 0)
    /// One end of a range such as `€10–20` or `$10 - $20`.
    public static let range = PriceFlags(rawValue: 1 << 1)
    /// A negative amount (`-€5.00`, `€5.00-`).
    public static let negative = PriceFlags(rawValue: 1 << 2)
    /// OCR damage was repaired inside the number (`1O,50` → `10,50`).
    public static let repaired = PriceFlags(rawValue: 1 << 3)
    /// No currency symbol or code was next to the number.
    public static let bareNumber = PriceFlags(rawValue: 1 << 4)

    /// Names of the set flags, in a stable order, for JSON and tables.
    public var names: [String] {
        var out: [String] = []
        if contains(.ambiguousSeparator) { out.append("ambiguousSeparator") }
        if contains(.range) { out.append("range") }
        if contains(.negative) { out.append("negative") }
        if contains(.repaired) { out.append("repaired") }
        if contains(.bareNumber) { out.append("bareNumber") }
        return out
    }
}

/// What a price means on its page, when the context says so.
public enum PriceRole: String, Sendable, Hashable, Codable {
    /// The amount to pay on a receipt (next to "Total", "Summe", "合計", ...).
    case total
    /// The price with tax of a pair shown with and without it (税込, TTC, brutto).
    case taxIncluded
    /// The price without tax of such a pair (本体, HT, netto).
    case taxExcluded

    /// How the table output names it.
    public var label: String {
        switch self {
        case .total: "total"
        case .taxIncluded: "tax incl."
        case .taxExcluded: "tax excl."
        }
    }
}

/// One price found in text.
public struct PriceMatch: Sendable, Hashable {
    /// The text the price was read from, as seen (`¥1,280`, `12,50 €`).
    public var text: String
    /// The exact amount (negative for discounts).
    public var amount: Decimal
    /// ISO 4217 code when it can be known, else nil.
    public var currency: String?
    /// The symbol or code as seen in the text (`¥`, `EUR`, `zł`), else nil.
    public var marker: String?
    /// Union of the boxes of the words the price was read from.
    public var box: Box?
    /// 0...1: OCR confidence combined with how unambiguous the parse was.
    public var confidence: Double
    public var flags: PriceFlags
    public var role: PriceRole?
    /// What the price is per, as written after it (`kg` in `$12.50/kg`, `100 g`), else nil.
    public var unit: String?

    public init(
        text: String, amount: Decimal, currency: String? = nil, marker: String? = nil,
        box: Box? = nil, confidence: Double = 1, flags: PriceFlags = [], role: PriceRole? = nil,
        unit: String? = nil
    ) {
        self.text = text
        self.amount = amount
        self.currency = currency
        self.marker = marker
        self.box = box
        self.confidence = confidence
        self.flags = flags
        self.role = role
        self.unit = unit
    }
}

/// When a number with no currency symbol or code counts as a price.
public enum BareNumberPolicy: String, Sendable, CaseIterable {
    /// Never: only numbers with a symbol or code are prices.
    case never
    /// Numbers with decimals (`2,59`, `12.99`) are prices; whole numbers are
    /// prices too when the hinted currency has no minor units (JPY `579`)
    /// or when the line holds nothing but that number (a shelf tag).
    case decimals
    /// Every number that is not rejected as a date, time, phone number,
    /// percentage, quantity or long digit run.
    case all
}

public struct ParserOptions: Sendable, Hashable {
    /// ISO 4217 code of the currency the prices are probably in (the stored
    /// settings' currency); used when the text names none and to resolve separators.
    public var currencyHint: String?
    public var bareNumbers: BareNumberPolicy

    public init(currencyHint: String? = nil, bareNumbers: BareNumberPolicy = .decimals) {
        self.currencyHint = currencyHint
        self.bareNumbers = bareNumbers
    }
}
