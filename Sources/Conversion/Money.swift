public import Foundation
import PriceParsing

/// ISO 4217 minor units (digits after the decimal point). Unknown codes: 2.
/// One table serves parsing and conversion: `PriceParsing.Currencies`.
public enum MinorUnits {
    /// Minor units of `code` (case-insensitive); 2 for unknown codes and nil.
    public static func of(_ code: String?) -> Int {
        guard let code else { return 2 }
        return Currencies.minorUnits(code)
    }

    public static func isKnown(_ code: String) -> Bool { Currencies.isKnown(code) }
}

/// Exact Decimal rounding and formatting. No floating point anywhere.
public enum Money {
    /// Rounds to `minorUnits` digits, half away from zero ("half-up":
    /// 2.675 → 2.68, -2.675 → -2.68, 0.5 JPY → 1).
    public static func round(_ value: Decimal, minorUnits: Int) -> Decimal {
        var input = value
        var result = Decimal()
        NSDecimalRound(&result, &input, minorUnits, .plain)
        return result
    }

    /// The exact value as a plain string ("0.22", "1280", "-5.5"): for rates and amounts as read.
    public static func exact(_ value: Decimal) -> String {
        digits(value)
    }

    /// Rounded to `minorUnits`, padded, '.' decimal point, no grouping: "1280", "12.50", "-5.00".
    public static func plain(_ value: Decimal, minorUnits: Int) -> String {
        let (neg, int, frac) = split(round(value, minorUnits: minorUnits), minorUnits: minorUnits)
        return (neg ? "-" : "") + int + (frac.isEmpty ? "" : "." + frac)
    }

    /// Like `plain` with ',' grouping every three digits: "1,234.50".
    public static func grouped(_ value: Decimal, minorUnits: Int) -> String {
        let (neg, int, frac) = split(round(value, minorUnits: minorUnits), minorUnits: minorUnits)
        var groupedInt = ""
        for (i, ch) in int.enumerated() {
            if i > 0 && (int.count - i) % 3 == 0 { groupedInt.append(",") }
            groupedInt.append(ch)
        }
        return (neg ? "-" : "") + groupedInt + (frac.isEmpty ? "" : "." + frac)
    }

    /// Digits after the decimal point in the exact form (12.50 → 1 as Decimal normalises, 1280 → 0).
    public static func fractionDigits(_ value: Decimal) -> Int {
        let text = digits(value)
        guard let dot = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: dot, to: text.endIndex) - 1
    }

    private static func digits(_ value: Decimal) -> String {
        // Decimal.description is locale-independent ('.' point, no grouping).
        value.description
    }

    private static func split(_ value: Decimal, minorUnits: Int) -> (Bool, String, String) {
        var text = digits(value)
        var negative = false
        if text.hasPrefix("-") { negative = true; text.removeFirst() }
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        let int = pieces.isEmpty || pieces[0].isEmpty ? "0" : String(pieces[0])
        var frac = pieces.count > 1 ? String(pieces[1]) : ""
        if frac.count < minorUnits { frac += String(repeating: "0", count: minorUnits - frac.count) }
        if frac.count > minorUnits { frac = String(frac.prefix(minorUnits)) }
        if negative && int == "0" && frac.allSatisfy({ $0 == "0" }) { negative = false }
        return (negative, int, frac)
    }
}

/// A converted amount: the value in the home currency, the rate used, the home currency code.
public struct ConvertedAmount: Sendable, Equatable {
    public var value: Decimal
    public var rate: Decimal
    public var target: String?

    public init(value: Decimal, rate: Decimal, target: String?) {
        self.value = value
        self.rate = rate
        self.target = target
    }

    /// `value` formatted for JSON/CSV: plain, rounded to the home currency's minor units.
    public var plain: String { Money.plain(value, minorUnits: MinorUnits.of(target)) }
    /// `value` formatted for tables, with grouping.
    public var grouped: String { Money.grouped(value, minorUnits: MinorUnits.of(target)) }
}

/// Converts amounts in `currency` to the home currency: amount × rate, rounded
/// half away from zero to the home currency's ISO 4217 minor units (2 when unknown or unset).
public struct Converter: Sendable {
    public let currency: String
    public let rate: Decimal
    public let home: String?

    public init(currency: String, rate: Decimal, home: String?) {
        self.currency = currency.uppercased()
        self.rate = rate
        self.home = home?.uppercased()
    }

    public init(settings: CurrencySettings) {
        self.init(currency: settings.currency, rate: settings.rate, home: settings.home)
    }

    /// nil when the price's currency is known and differs from `currency` (then
    /// it is reported unconverted); a price with nil currency is assumed to be in `currency`.
    public func convert(_ amount: Decimal, currency priceCurrency: String?) -> ConvertedAmount? {
        if let priceCurrency, priceCurrency.uppercased() != currency { return nil }
        let value = Money.round(amount * rate, minorUnits: MinorUnits.of(home))
        return ConvertedAmount(value: value, rate: rate, target: home)
    }
}
