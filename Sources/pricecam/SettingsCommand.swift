import ArgumentParser
import Conversion
import Foundation
import History
import Pipeline
import Server

struct Settings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show or change the currency settings.",
        subcommands: [Show.self, Set.self],
        defaultSubcommand: Show.self
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the stored settings (the default).")

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() throws {
            let paths = PricecamPaths.current()
            guard let s = try loadSettingsOrExit(paths) else {
                Console.err(ConversionOptions.gateMessage(paths: paths))
                throw ExitCode(2)
            }
            if json {
                Console.out(JSON.object(SettingsJSON.fields(s, file: paths.settingsFile)).serialized() + "\n")
                return
            }
            Console.out(Self.describe(s, path: paths.settingsFile))
        }

        static func describe(_ s: CurrencySettings, path: String, now: Date = Date()) -> String {
            let days = Int(now.timeIntervalSince(s.updatedAt) / 86_400)
            let stale = RateAge.staleWarning(updatedAt: s.updatedAt, now: now, maxDays: s.maxRateAgeDays) != nil
            return """
                currency      \(s.currency)
                rate          1 \(s.currency) = \(Money.exact(s.rate)) \(s.home ?? "home-currency units")
                home          \(s.home ?? "(not set)")
                rate set      \(SettingsFile.formatDate(s.updatedAt)) (\(days) day\(days == 1 ? "" : "s") ago\(stale ? ", older than \(s.maxRateAgeDays) days" : ""))
                max rate age  \(s.maxRateAgeDays) days
                history       \(Self.history(path: path))
                file          \(path)

                """
        }

        /// The settings file's history line for people: a URL without its password.
        static func history(path: String) -> String {
            let line: String?
            do { line = try SettingsFile.history(path: path) } catch { return "(the file cannot be read)" }
            guard let stored = line else { return "(default: history.sqlite in the data directory)" }
            return (try? HistoryLocation.parse(stored).description) ?? "\(stored) (not a valid location)"
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change one or more settings (same validation as setup).",
            discussion: "Setting --rate also records the time the rate was set."
        )

        @OptionGroup var values: CurrencyArguments

        @Flag(name: .customLong("clear-home"), help: "Remove the home currency.")
        var clearHome = false

        @Option(
            name: .customLong("history"),
            help: ArgumentHelp(
                "Where the history lives from now on: postgres://USER[:PASS]@HOST:PORT/DB or a SQLite file (--history on a command and $PRICECAM_HISTORY still win). The file is readable by you alone; a password can also come from the environment instead.",
                valueName: "LOCATION"))
        var history: String?

        @Flag(name: .customLong("clear-history"), help: "Keep the history in the default SQLite file again.")
        var clearHistory = false

        func run() throws {
            let (currency, rate, home) = (values.currency, values.rate, values.home)
            if values.isEmpty && !clearHome && history == nil && !clearHistory {
                failSettings(
                    "nothing to change: give --currency, --rate, --home, --clear-home, --max-rate-age-days, --history or --clear-history")
            }
            if clearHome && home != nil { failSettings("--home and --clear-home cannot be used together") }
            if clearHistory && history != nil { failSettings("--history and --clear-history cannot be used together") }
            if let history {
                do { _ = try HistoryLocation.parse(history) } catch { failSettings(error.description) }
                if history.isEmpty { failSettings("--history needs a location; use --clear-history to go back to the default") }
            }
            let paths = PricecamPaths.current()
            guard var s = try loadSettingsOrExit(paths) else {
                failSettings(
                    "no settings to change yet (\(paths.settingsFile) does not exist); run first:\n  pricecam setup --currency \(currency.map { $0.uppercased() } ?? "JPY") --rate \(rate ?? "0.22")"
                )
            }
            do {
                if let currency { s.currency = try CurrencyCode.validate(currency, field: "currency") }
                if let rate {
                    s.rate = try ExchangeRate.validate(rate)
                    s.updatedAt = Date()
                }
                if let home { s.home = try CurrencyCode.validate(home, field: "home currency") }
                if clearHome { s.home = nil }
                if let maxRateAgeDays = values.maxRateAgeDays { s.maxRateAgeDays = try RateAge.validateDays(maxRateAgeDays) }
            } catch {
                failSettings(error.description)
            }
            if currency != nil && rate == nil {
                Console.err(
                    "pricecam: warning: the currency changed but the rate did not; check it with `pricecam settings` or set it with --rate\n"
                )
            }
            try saveSettingsOrExit(s, paths: paths, history: history != nil || clearHistory ? .some(history) : nil)
            Console.out(Show.describe(s, path: paths.settingsFile))
        }
    }
}
