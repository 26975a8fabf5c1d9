public import Conversion
public import Foundation
import History
public import Pipeline

/// The settings as JSON: `pricecam settings show --json` and `GET /api/v1/settings`.
public enum SettingsJSON {
    /// The fields of `settings show --json`, in its order.
    public static func fields(_ s: CurrencySettings, file: String) -> [(String, JSON)] {
        [
            ("currency", .string(s.currency)),
            ("rate", .string(Money.exact(s.rate))),
            ("home", .optional(s.home)),
            ("updated_at", .string(SettingsFile.formatDate(s.updatedAt))),
            ("max_rate_age_days", .int(s.maxRateAgeDays)),
            ("file", .string(file)),
        ]
    }

    /// The API's object: `configured` first, then the fields and the stale-rate warning (or null).
    public static func api(_ s: CurrencySettings?, file: String, now: Date = Date()) -> JSON {
        guard let s else { return .object([("configured", .bool(false))]) }
        let warning = RateAge.staleWarning(updatedAt: s.updatedAt, now: now, maxDays: s.maxRateAgeDays)
        return .object([("configured", .bool(true))] + fields(s, file: file) + [("stale_warning", .optional(warning))])
    }
}
