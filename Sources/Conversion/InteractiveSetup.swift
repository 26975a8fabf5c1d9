public import Foundation

/// The first-run conversation: welcome, prompts, a validation message and a
/// re-prompt on bad input, and a summary. Input and output are injected so the
/// flow can be tested without a terminal.
public struct InteractiveSetup {
    /// Reads one line (without the newline); nil at end of input.
    public var readLine: () -> String?
    /// Writes text as is (prompts have no newline).
    public var write: (String) -> Void
    public var now: () -> Date

    public init(readLine: @escaping () -> String?, write: @escaping (String) -> Void, now: @escaping () -> Date = Date.init) {
        self.readLine = readLine
        self.write = write
        self.now = now
    }

    public enum Outcome: Equatable, Sendable {
        case completed(CurrencySettings)
        /// Input ended before every answer was given.
        case cancelled
    }

    /// Runs the flow. `preset` values (from flags) are validated and not asked again.
    public func run(
        welcome: Bool = true, presetCurrency: String? = nil, presetRate: String? = nil,
        presetHome: String? = nil, defaults: CurrencySettings? = nil
    ) -> Outcome {
        if welcome {
            write(
                """
                Welcome to pricecam.
                Before converting, pricecam needs the currency the prices are in and
                the exchange rate to your home currency. You can change them any time
                with `pricecam settings set`.


                """)
        }
        guard
            let currency = ask(
                prompt: "Currency the prices are in (ISO code, e.g. JPY)" + hint(defaults?.currency) + ": ",
                preset: presetCurrency, fallback: defaults?.currency,
                validate: { raw throws(SettingsValidationError) in try CurrencyCode.validate(raw, field: "currency") })
        else { return .cancelled }

        let homeAnswer: String?? = askOptional(
            prompt: "Your home currency (ISO code, e.g. TWD; Enter to leave unset)" + hint(defaults?.home) + ": ",
            preset: presetHome, fallback: defaults?.home)
        guard let home = homeAnswer else { return .cancelled }

        let homeName = home ?? "home-currency"
        guard
            let rate = ask(
                prompt: "Exchange rate: how many \(homeName) units is 1 \(currency) worth (e.g. 0.22)"
                    + hint(defaults.map { Money.exact($0.rate) }) + ": ",
                preset: presetRate, fallback: defaults.map { Money.exact($0.rate) },
                validate: { raw throws(SettingsValidationError) in try ExchangeRate.validate(raw) })
        else { return .cancelled }

        let settings = CurrencySettings(
            currency: currency, rate: rate, home: home, updatedAt: now(),
            maxRateAgeDays: defaults?.maxRateAgeDays ?? RateAge.defaultMaxDays)
        return .completed(settings)
    }

    /// The summary printed after saving.
    public static func summary(_ s: CurrencySettings, savedTo path: String) -> String {
        let home = s.home ?? "home currency"
        return """

            Saved to \(path):
              prices in      \(s.currency)
              home currency  \(s.home ?? "(not set)")
              rate           1 \(s.currency) = \(Money.exact(s.rate)) \(home)
              example        1,000 \(s.currency) = \(Money.grouped(Converter(settings: s).convert(1000, currency: nil)!.value, minorUnits: MinorUnits.of(s.home))) \(home)

            """
    }

    private func hint(_ value: String?) -> String {
        value.map { " [\($0)]" } ?? ""
    }

    private func ask<T>(
        prompt: String, preset: String?, fallback: String?,
        validate: (String) throws(SettingsValidationError) -> T
    ) -> T? {
        if let preset {
            do { return try validate(preset) } catch { write("  \(error.description)\n") }
        }
        while true {
            write(prompt)
            guard var line = readLine() else { write("\n"); return nil }
            if line.trimmingCharacters(in: .whitespaces).isEmpty, let fallback { line = fallback }
            do { return try validate(line) } catch { write("  \(error.description)\n") }
        }
    }

    /// Outer nil: cancelled. Inner nil: left unset.
    private func askOptional(prompt: String, preset: String?, fallback: String?) -> String?? {
        if let preset {
            if preset.trimmingCharacters(in: .whitespaces).isEmpty { return .some(nil) }
            do { return .some(try CurrencyCode.validate(preset, field: "home currency")) } catch { write("  \(error.description)\n") }
        }
        while true {
            write(prompt)
            guard let line = readLine() else { write("\n"); return nil }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return .some(fallback) }
            if trimmed == "-" { return .some(nil) }
            do { return .some(try CurrencyCode.validate(trimmed, field: "home currency")) } catch { write("  \(error.description)\n") }
        }
    }
}
