public import ArgumentParser
import Conversion
import Foundation
import OCR
import Pipeline
import PriceParsing

extension OutputFormat: ExpressibleByArgument {}
extension BareNumberPolicy: ExpressibleByArgument {}

/// How images are read: tessdata, limits, workers.
struct OCROptions: ParsableArguments, Sendable {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Folder holding eng.traineddata.",
            discussion: "Default: $PRICECAM_TESSDATA, then the project's models/, then the system tessdata folder."))
    var tessdata: String?

    @Option(name: .long, help: "Tesseract page segmentation mode (6: one block of text, suits frames and receipts; 11: sparse text).")
    var psm: Int = 6

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Largest image held in memory, in pixels (width × height), checked from the header before decoding.",
            discussion:
                "A JPEG or PNG over it is decoded at 1/2, 1/4 or 1/8 of its size (boxes stay in the file's pixels); other formats, and interlaced PNGs, are refused."
        ))
    var maxPixels: Int = ImageLimits.default.maxPixels

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How prices without a currency sign are treated: never, decimals, all.",
            discussion:
                "decimals (default): 2,59 is a price, a lone 579 on a tag is too; all: any plain number that is not a date, time, phone number, percentage or quantity."
        ))
    var bareNumbers: BareNumberPolicy = .decimals

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Languages to read besides English: auto, eng, or codes joined by + (fra, ru, japanese, chi_sim+kor).",
            discussion:
                "auto (default): English, plus the model of the script the currency's country writes in when English cannot read it (JPY: jpn, RUB: rus, THB: tha, KRW: kor, CNY: chi_sim, INR: hin, UAH: ukr, BGN: bul...); a model that is not installed is skipped with a warning. Named languages must be installed (scripts/bootstrap.sh --langs). Total keywords of every listed language (docs/GUIDE.md, Languages) match whatever models are loaded."
        ))
    var lang: String = "auto"

    func validate() throws {
        if lang != "auto" {
            for part in lang.split(separator: "+", omittingEmptySubsequences: false)
            where String(part) != "eng" && Language.named(String(part)) == nil {
                throw ValidationError(
                    "--lang: unknown language '\(part)'; use auto, eng, or one of: \(Language.all.map(\.tesseract).joined(separator: ", ")) (joined by +)"
                )
            }
        }
        guard (0...13).contains(psm) else { throw ValidationError("--psm must be between 0 and 13, got \(psm)") }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive, got \(maxPixels)") }
    }

    /// The Tesseract language setting for shops pricing in `currency` (see `--lang`).
    func language(currency: String?) -> String {
        if lang == "auto" { return (["eng"] + Language.scriptModels(for: currency)).joined(separator: "+") }
        var models = ["eng"]
        for part in lang.split(separator: "+") {
            let model = String(part) == "eng" ? "eng" : Language.named(String(part))?.tesseract ?? String(part)
            if !models.contains(model) { models.append(model) }
        }
        return models.joined(separator: "+")
    }

    /// The OCR configuration, or a settings error (exit 2) naming what was tried. With
    /// `--lang auto` a script model that is not installed is left out with a warning.
    /// `recognizer`: whether the run reads with the line recogniser, so its models must be
    /// installed (live frames never use it; `--accuracy no-recognizer` measures without it).
    func configuration(currency: String? = nil, recognizer: Bool = true) throws -> OCRConfiguration {
        let wanted = language(currency: currency)
        let priceModel = Tessdata.locatePriceModel(explicit: tessdata)
        let detectorModel: String
        let recognizerModels: String?
        do {
            detectorModel = try Tessdata.locateDetectorModel()
            recognizerModels = recognizer ? try Tessdata.locateRecognizerModels() : nil
        } catch {
            Console.error("\(error)")
            throw ExitCode(2)
        }
        do {
            return OCRConfiguration(
                tessdata: try Tessdata.locate(explicit: tessdata, language: wanted), language: wanted, pageSegmentationMode: psm,
                priceModel: priceModel, detectorModel: detectorModel, recognizerModels: recognizerModels)
        } catch {
            if lang == "auto", wanted != "eng", let dir = try? Tessdata.locate(explicit: tessdata) {
                let missing = Tessdata.models(wanted).filter { $0 != "eng" }
                Console.error(
                    "warning: reading \(currency ?? "") prices in English only: \(missing.map { "\($0).traineddata" }.joined(separator: ", ")) is not installed (apt-get install \(missing.map { "tesseract-ocr-\($0)" }.joined(separator: " ")), or scripts/bootstrap.sh --langs)"
                )
                return OCRConfiguration(
                    tessdata: dir, language: "eng", pageSegmentationMode: psm, priceModel: priceModel, detectorModel: detectorModel,
                    recognizerModels: recognizerModels)
            }
            Console.error("\(error)")
            throw ExitCode(2)
        }
    }

    var limits: ImageLimits {
        ImageLimits(maxPixels: maxPixels, maxFileBytes: ImageLimits.default.maxFileBytes)
    }

    /// What a worker reads with, for prices in `currency` (the parser's hint and `--lang
    /// auto`'s models): the one place the CLI and the server build it.
    /// `live`: for live frames, which never use the line recogniser (its models are then not needed).
    func extraction(currency: String?, converter: Converter?, accuracy: AccuracyOptions = AccuracyOptions(), live: Bool = false) throws
        -> ExtractionSettings
    {
        ExtractionSettings(
            ocr: try configuration(currency: currency, recognizer: accuracy.recognizer && !live),
            parser: ParserOptions(currencyHint: currency, bareNumbers: bareNumbers),
            converter: converter, limits: limits, accuracy: accuracy)
    }
}

/// `--accuracy LIST` of the measuring commands (`eval`, `live`): steps switched off for an
/// ablation; every other command reads with all of them.
struct AccuracyOption: ParsableArguments, Sendable {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "For measurements: accuracy steps to switch off, comma-separated (default: none).",
            discussion: "One of \(AccuracyOptions.switches.joined(separator: ", ")).", valueName: "list"))
    var accuracy = ""

    func validate() throws {
        do { _ = try AccuracyOptions(switches: accuracy) } catch { throw ValidationError(error.description) }
    }

    var options: AccuracyOptions { (try? AccuracyOptions(switches: accuracy)) ?? AccuracyOptions() }
}

struct FormatOptions: ParsableArguments {
    @Option(name: .long, help: "Output format: table, jsonl or csv (default: table on a terminal, jsonl otherwise).")
    var format: OutputFormat?

    var resolved: OutputFormat { format ?? .default() }

    /// With an output file: the format asked for, else its extension's (.csv: CSV), else JSON Lines.
    func resolved(forFile path: String?) -> OutputFormat {
        guard let path else { return resolved }
        return format ?? ((path as NSString).pathExtension.lowercased() == "csv" ? .csv : .jsonl)
    }
}

/// The CLI's terminal: every line pricecam writes goes through here (to `StandardOutput`,
/// which survives a closed pipe).
enum Console {
    /// stdin and stderr are terminals: a person can answer prompts.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 }
    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }

    /// A message for the user on stderr, as `pricecam: message`.
    static func error(_ message: String) {
        StandardOutput.err("pricecam: " + message + "\n")
    }

    /// Text to stderr as it is (prompts, progress, a live header).
    static func err(_ text: String) {
        StandardOutput.err(text)
    }

    static func out(_ text: String) {
        StandardOutput.out(text)
    }
}

/// `--currency`, `--rate`, `--home` and `--max-rate-age-days`, the same for every command:
/// `setup` and `settings set` store them, `scan`, `batch` and `live` convert one run with
/// them and store nothing. One set of names, help and validation (`CurrencySettings`'s).
struct CurrencyArguments: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Currency the prices are in (e.g. JPY).", valueName: "CODE"))
    var currency: String?

    @Option(help: ArgumentHelp("Home-currency units per 1 unit of --currency (e.g. 0.22 or 0,22).", valueName: "RATE"))
    var rate: String?

    @Option(help: ArgumentHelp("Your home currency (optional, e.g. TWD).", valueName: "CODE"))
    var home: String?

    @Option(
        name: .customLong("max-rate-age-days"),
        help: ArgumentHelp("Warn when the rate is older than this many days (1 to 36500; default 30).", valueName: "DAYS"))
    var maxRateAgeDays: String?

    /// `--max-rate-age-days` as a number, or a settings error (exit 2) saying what is accepted.
    func maxAge() -> Int? {
        guard let maxRateAgeDays else { return nil }
        do { return try RateAge.validateDays(maxRateAgeDays) } catch { failSettings(error.description) }
    }

    var isEmpty: Bool { currency == nil && rate == nil && home == nil && maxRateAgeDays == nil }
}
