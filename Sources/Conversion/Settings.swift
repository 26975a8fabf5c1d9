public import Foundation

/// The user's currency settings: prices are in `currency`; one unit of it is
/// worth `rate` units of the home currency (`home`, optional).
public struct CurrencySettings: Sendable, Equatable {
    public var currency: String
    public var rate: Decimal
    public var home: String?
    /// When the rate was last set.
    public var updatedAt: Date
    /// Warn when the rate is older than this many days.
    public var maxRateAgeDays: Int

    public init(currency: String, rate: Decimal, home: String?, updatedAt: Date, maxRateAgeDays: Int = RateAge.defaultMaxDays) {
        self.currency = currency
        self.rate = rate
        self.home = home
        self.updatedAt = updatedAt
        self.maxRateAgeDays = maxRateAgeDays
    }

    /// Validates raw user input (flags, prompts) and builds settings.
    public static func validated(
        currency: String, rate: String, home: String?, updatedAt: Date = Date(),
        maxRateAgeDays: Int = RateAge.defaultMaxDays
    ) throws(SettingsValidationError) -> CurrencySettings {
        let code = try CurrencyCode.validate(currency, field: "currency")
        let value = try ExchangeRate.validate(rate)
        var homeCode: String?
        if let home, !home.trimmingCharacters(in: .whitespaces).isEmpty {
            homeCode = try CurrencyCode.validate(home, field: "home currency")
        }
        return CurrencySettings(currency: code, rate: value, home: homeCode, updatedAt: updatedAt, maxRateAgeDays: maxRateAgeDays)
    }

    /// The non-interactive command that stores these settings.
    public var setupCommand: String {
        var s = "pricecam setup --currency \(currency) --rate \(Money.exact(rate))"
        if let home { s += " --home \(home)" }
        return s
    }
}
