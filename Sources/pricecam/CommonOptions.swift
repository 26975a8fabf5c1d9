import ArgumentParser
import Foundation
import OCR
import Pipeline
import PriceParsing

extension OutputFormat: ExpressibleByArgument {}
extension BareNumberPolicy: ExpressibleByArgument {}

/// How images are read: tessdata, limits, workers.
struct OCROptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Folder holding eng.traineddata.",
        discussion: "Default: $PRICECAM_TESSDATA, then the project's models/, then the system tessdata folder."))
    var tessdata: String?

    @Option(name: .long, help: "Tesseract page segmentation mode (6: one block of text, suits frames and receipts; 11: sparse text).")
    var psm: Int = 6

    @Option(name: .long, help: "Largest image accepted, in pixels (width × height), checked before decoding.")
    var maxPixels: Int = ImageLimits.default.maxPixels

    @Option(name: .long, help: ArgumentHelp("How prices without a currency sign are treated: never, decimals, all.",
        discussion: "decimals (default): 2,59 is a price, a lone 579 on a tag is too; all: any plain number that is not a date, time, phone number, percentage or quantity."))
    var bareNumbers: BareNumberPolicy = .decimals

    func validate() throws {
        guard (0...13).contains(psm) else { throw ValidationError("--psm must be between 0 and 13, got \(psm)") }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive, got \(maxPixels)") }
    }

    /// The OCR configuration, or a settings error (exit 2) naming what was tried.
    func configuration() throws -> OCRConfiguration {
        do {
            return OCRConfiguration(tessdata: try Tessdata.locate(explicit: tessdata), pageSegmentationMode: psm)
        } catch {
            Console.error("\(error)")
            throw ExitCode(2)
        }
    }

    var limits: ImageLimits {
        ImageLimits(maxPixels: maxPixels, maxFileBytes: ImageLimits.default.maxFileBytes)
    }
}

struct FormatOptions: ParsableArguments {
    @Option(name: .long, help: "Output format: table, jsonl or csv (default: table on a terminal, jsonl otherwise).")
    var format: OutputFormat?

    var resolved: OutputFormat { format ?? .default() }
}

enum Console {
    static func error(_ message: String) {
        StandardOutput.err("pricecam: " + message + "\n")
    }

    static func out(_ text: String) {
        StandardOutput.out(text)
    }
}
