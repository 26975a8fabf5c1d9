public import Foundation

/// Why a currency code or an exchange rate was refused. Each rule has its own
/// message, written for the person typing the value.
public enum SettingsValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    case codeEmpty(field: String)
    case codeNotLetters(field: String, value: String)
    case codeTooLong(field: String, value: String)
    case rateEmpty
    case rateTwoSeparators(String)
    case rateNotDecimal(String)
    case rateNotPositive(String)
    case rateOutOfRange(String)
    case maxAgeInvalid(String)

    public var description: String {
        switch self {
        case .codeEmpty(let field):
            return "\(field) code is empty: enter a currency code such as JPY or EUR"
        case .codeNotLetters(let field, let value):
            return "\(field) code \"\(value)\" must contain letters A-Z only (no digits, spaces or symbols), e.g. JPY"
        case .codeTooLong(let field, let value):
            return "\(field) code \"\(value)\" is \(value.count) characters long: at most \(CurrencyCode.maxLength) letters"
        case .rateEmpty:
            return "rate is empty: enter how many home-currency units one unit is worth, e.g. 0.22"
        case .rateTwoSeparators(let value):
            return
                "rate \"\(value)\" has more than one separator: write it without grouping, with one '.' or ',' as decimal point, e.g. 1000.5"
        case .rateNotDecimal(let value):
            return
                "rate \"\(value)\" is not a plain decimal number: use digits with at most one '.' or ',' (e.g. 0.22 or 0,22); no exponents, signs, NaN or infinity"
        case .rateNotPositive(let value):
            return "rate \"\(value)\" must be greater than 0"
        case .rateOutOfRange(let value):
            return
                "rate \"\(value)\" is out of range: it must be between \(ExchangeRate.minimumText) and \(ExchangeRate.maximumText) inclusive"
        case .maxAgeInvalid(let value):
            return "maximum rate age \"\(value)\" must be a whole number of days between 1 and 36500"
        }
    }
}

/// Currency code rule: non-empty, letters A-Z only, at most 20 characters; upper-cased.
public enum CurrencyCode {
    public static let maxLength = 20

    /// Returns the trimmed, upper-cased code, or throws the rule it breaks.
    /// `field` names the value in messages ("currency", "home currency").
    public static func validate(_ raw: String, field: String = "currency") throws(SettingsValidationError) -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { throw .codeEmpty(field: field) }
        let isASCIILetter: (Unicode.Scalar) -> Bool = { ("A"..."Z").contains($0) || ("a"..."z").contains($0) }
        guard trimmed.unicodeScalars.allSatisfy(isASCIILetter) else {
            throw .codeNotLetters(field: field, value: trimmed)
        }
        if trimmed.unicodeScalars.count > maxLength { throw .codeTooLong(field: field, value: trimmed) }
        return trimmed.uppercased()
    }
}

/// Exchange rate rule: a plain decimal (`0.22` or `0,22`), > 0, within 0.0001...10000.
/// Parsed without any floating point.
public enum ExchangeRate {
    public static let minimumText = "0.0001"
    public static let maximumText = "10000"
    public static let minimum = Decimal(sign: .plus, exponent: -4, significand: 1)
    public static let maximum = Decimal(10000)

    public static func validate(_ raw: String) throws(SettingsValidationError) -> Decimal {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { throw .rateEmpty }
        var body = Substring(text)
        var negative = false
        if body.first == "-" || body.first == "\u{2212}" {
            negative = true
            body = body.dropFirst()
        }
        let separators = body.filter { $0 == "." || $0 == "," }.count
        if separators > 1 {
            if body.allSatisfy({ $0 == "." || $0 == "," || ("0"..."9").contains($0) }) {
                throw .rateTwoSeparators(text)
            }
            throw .rateNotDecimal(text)
        }
        // Exact pattern: digits, optionally one separator followed by digits.
        let parts = body.split(
            separator: separators == 1 ? (body.contains(",") ? "," : ".") : "\u{0}",
            omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        guard parts.allSatisfy(isDigits) else { throw .rateNotDecimal(text) }
        let normalized = parts.joined(separator: ".")
        guard let value = Decimal(string: normalized, locale: Locale(identifier: "en_US_POSIX")) else {
            throw .rateNotDecimal(text)
        }
        if negative || value <= 0 { throw .rateNotPositive(text) }
        if value < minimum || value > maximum { throw .rateOutOfRange(text) }
        return value
    }
}

/// The age after which a stored rate draws a warning.
public enum RateAge {
    public static let defaultMaxDays = 30

    public static func validateDays(_ raw: String) throws(SettingsValidationError) -> Int {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
            text.count <= 5, let days = Int(text), (1...36500).contains(days)
        else { throw .maxAgeInvalid(text) }
        return days
    }

    /// The warning to print when `updatedAt` is older than `maxDays` at `now`, else nil.
    public static func staleWarning(updatedAt: Date, now: Date = Date(), maxDays: Int) -> String? {
        let age = now.timeIntervalSince(updatedAt)
        guard age > Double(maxDays) * 86_400 else { return nil }
        let days = Int(age / 86_400)
        return
            "the stored exchange rate was set \(days) days ago (older than \(maxDays) days); update it with `pricecam settings set --rate NEW_RATE`"
    }
}
