import ArgumentParser
import Conversion
import Foundation
import History

struct Setup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Set the currency the prices are in and the exchange rate (first run).",
        discussion: """
            On a terminal without flags: asks for each value, explains and re-asks on bad
            input, shows a summary.
            With --currency and --rate: stores them without asking (for scripts).
            Currency codes: letters only, at most 20, upper-cased (jpy → JPY).
            Rate: home-currency units per 1 unit of --currency, 0.0001 to 10000, written
            0.22 or 0,22.
            """
    )

    @OptionGroup var values: CurrencyArguments

    @Flag(help: "Replace a settings file that cannot be read (it is never replaced otherwise).")
    var force = false

    func run() throws {
        let paths = PricecamPaths.current()
        var existing: CurrencySettings?
        if force {
            existing = try? SettingsFile.load(path: paths.settingsFile)
        } else {
            existing = try loadSettingsOrExit(paths)
        }
        let maxAge = values.maxAge()
        let home = values.home
        if let currency = values.currency, let rate = values.rate {
            let settings: CurrencySettings
            do {
                settings = try CurrencySettings.validated(
                    currency: currency, rate: rate, home: home,
                    maxRateAgeDays: maxAge ?? existing?.maxRateAgeDays ?? RateAge.defaultMaxDays)
            } catch {
                failSettings(error.description)
            }
            try saveSettingsOrExit(settings, paths: paths)
            Console.out(InteractiveSetup.summary(settings, savedTo: paths.settingsFile))
            return
        }
        guard Console.isInteractive else {
            failSettings(
                """
                setup needs --currency and --rate when not run on a terminal, e.g.:
                  pricecam setup --currency JPY --rate 0.22 --home TWD
                """)
        }
        guard
            try runInteractiveSetup(
                paths: paths, output: Console.out, presetCurrency: values.currency, presetRate: values.rate,
                presetHome: home, defaults: existing, maxRateAgeDays: maxAge) != nil
        else { throw ExitCode(2) }
    }
}

/// Prints `pricecam: error: message` and exits 2 (settings and usage errors).
func failSettings(_ message: String) -> Never {
    Console.err("pricecam: error: \(message)\n")
    Foundation.exit(2)
}
