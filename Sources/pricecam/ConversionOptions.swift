import ArgumentParser
import Conversion
import Foundation
import History
import Pipeline

#if canImport(Glibc)
    import Glibc
#endif

/// Conversion and history flags shared by `scan`, `batch` and `live`.
///
///     @OptionGroup var conversion: ConversionOptions
///     ...
///     let prepared = try conversion.prepare(interactiveSetupAllowed: true)  // gate, stale-rate warning, history
///     ExtractionSettings(..., converter: prepared.converter), ParserOptions(currencyHint: prepared.currencyHint, ...)
///     prepared.history?.record(result)  // per ImageResult, or record(price, source:) per live price
///     let historyOK = prepared.history?.finish() ?? true                    // false → exit 1
struct ConversionOptions: ParsableArguments {
    /// Given with --rate: this run converts with them and nothing is stored.
    @OptionGroup var values: CurrencyArguments

    @Flag(name: .customLong("no-convert"), help: "Extract prices only: no conversion, no settings needed, no history.")
    var noConvert = false

    @Flag(name: .customLong("no-history"), help: "Do not append converted prices to the history.")
    var noHistory = false

    @OptionGroup var historyLocation: HistoryOption

    func validate() throws {
        let (currency, rate, home) = (values.currency, values.rate, values.home)
        if noConvert && (currency != nil || rate != nil || home != nil) {
            throw ValidationError("--no-convert cannot be combined with --currency, --rate or --home")
        }
        if (currency == nil) != (rate == nil) {
            throw ValidationError("--currency and --rate go together: give both to convert this run without stored settings")
        }
        if home != nil && currency == nil {
            throw ValidationError(
                "--home needs --currency and --rate; to change the stored home currency use `pricecam settings set --home CODE`")
        }
        if let days = values.maxRateAgeDays {
            do { _ = try RateAge.validateDays(days) } catch { throw ValidationError(error.description) }
        }
    }

    /// Decides how this run converts and records:
    /// - `--no-convert`: extraction only (no converter, no history, no settings needed).
    /// - `--currency/--rate` (and `--home`): converts with them; the settings file is not read or written.
    /// - otherwise the stored settings. None stored: on a terminal (stdin and stderr are TTYs, and
    ///   `interactiveSetupAllowed`) the setup flow runs on stderr and saves them; else the exact
    ///   setup command goes to stderr and this throws `ExitCode(2)`. A broken settings file: message, `ExitCode(2)`.
    /// - warns once (stderr) when the stored rate is older than the maximum age.
    /// - opens the history (`--history`, `PRICECAM_HISTORY`, else the SQLite default) unless `--no-history` or `--no-convert`. When it cannot be opened: a
    ///   warning on stderr, the run goes on, and `history.finish()` returns false if anything was converted.
    func prepare(interactiveSetupAllowed: Bool) throws -> PreparedConversion {
        let runID = HistoryRecorder.newRunID()
        let location = try historyLocation.location()
        if noConvert { return PreparedConversion(converter: nil, history: nil, runID: runID) }
        let converter: Converter
        if let currency = values.currency, let rate = values.rate {
            do {
                converter = Converter(settings: try CurrencySettings.validated(currency: currency, rate: rate, home: values.home))
            } catch {
                throw ValidationError(error.description)
            }
        } else {
            let paths = PricecamPaths.current()
            let settings: CurrencySettings
            if let stored = try loadSettingsOrExit(paths) {
                settings = stored
            } else if interactiveSetupAllowed && Console.isInteractive {
                guard let s = try runInteractiveSetup(paths: paths, output: Console.err) else { throw ExitCode(2) }
                settings = s
            } else {
                Console.err(Self.gateMessage(paths: paths))
                throw ExitCode(2)
            }
            if let warning = RateAge.staleWarning(updatedAt: settings.updatedAt, maxDays: values.maxAge() ?? settings.maxRateAgeDays) {
                Console.err("pricecam: warning: \(warning)\n")
            }
            converter = Converter(settings: settings)
        }
        if noHistory { return PreparedConversion(converter: converter, history: nil, runID: runID) }
        do {
            let store = try location.open()
            return PreparedConversion(
                converter: converter,
                history: HistorySession(recorder: HistoryRecorder(store: store, runID: runID)), runID: runID)
        } catch {
            Console.err(
                "pricecam: warning: history is off for this run; the output is not affected, but the exit code will be 1 if prices were converted (use --no-history to skip history): \(error.description)\n"
            )
            return PreparedConversion(converter: converter, history: HistorySession(unavailableWithRunID: runID), runID: runID)
        }
    }

    static func gateMessage(paths: PricecamPaths) -> String {
        """
        pricecam: no currency settings yet (\(paths.settingsFile) does not exist).
        Set the currency the prices are in and the exchange rate to your home currency, e.g.:
          pricecam setup --currency JPY --rate 0.22
          pricecam setup --currency JPY --rate 0.22 --home TWD
        (--rate is how many home-currency units 1 unit is worth). Or convert this run only with
        --currency JPY --rate 0.22, or extract prices without converting with --no-convert.

        """
    }
}

/// What `ConversionOptions.prepare` decided for one run.
struct PreparedConversion {
    /// nil with --no-convert.
    var converter: Converter?
    /// nil with --no-history or --no-convert. `finish()` it at the end: false → exit 1.
    var history: HistorySession?
    var runID: String
    /// The currency the prices are expected in (for the parser): the converter's currency.
    var currencyHint: String? { converter?.currency }
}

extension HistorySession {
    /// Records every converted price of one image result (source: the file path).
    func record(_ result: ImageResult) {
        for p in result.prices { record(p, source: result.file) }
    }
}

/// Loads the stored settings; a broken file prints its error and exits 2.
func loadSettingsOrExit(_ paths: PricecamPaths) throws -> CurrencySettings? {
    do {
        return try SettingsFile.load(path: paths.settingsFile)
    } catch {
        Console.err("pricecam: error: \(error.description)\n")
        throw ExitCode(2)
    }
}

/// Runs the interactive flow and saves the result; nil when cancelled (message printed).
func runInteractiveSetup(
    paths: PricecamPaths, output: @escaping (String) -> Void, presetCurrency: String? = nil,
    presetRate: String? = nil, presetHome: String? = nil, defaults: CurrencySettings? = nil,
    maxRateAgeDays: Int? = nil
) throws -> CurrencySettings? {
    let flow = InteractiveSetup(readLine: { Swift.readLine(strippingNewline: true) }, write: output)
    switch flow.run(
        welcome: defaults == nil, presetCurrency: presetCurrency, presetRate: presetRate,
        presetHome: presetHome, defaults: defaults)
    {
    case .cancelled:
        output("pricecam: setup cancelled; nothing was saved.\n")
        return nil
    case .completed(var settings):
        if let maxRateAgeDays { settings.maxRateAgeDays = maxRateAgeDays }
        try saveSettingsOrExit(settings, paths: paths)
        output(InteractiveSetup.summary(settings, savedTo: paths.settingsFile))
        return settings
    }
}

/// Saves `settings`; the file's `history` line is kept, or replaced by `history` when given
/// (`.some(nil)` removes it).
func saveSettingsOrExit(_ settings: CurrencySettings, paths: PricecamPaths, history: String?? = nil) throws {
    do {
        if let history {
            try SettingsFile.save(settings, history: history, path: paths.settingsFile)
        } else {
            try SettingsFile.save(settings, path: paths.settingsFile)
        }
    } catch {
        Console.err("pricecam: error: \(error.description)\n")
        throw ExitCode(2)
    }
}
