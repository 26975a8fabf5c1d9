import ArgumentParser
import Foundation
import OCR
import Pipeline

struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read the prices in every image below a folder, with every core busy.",
        discussion: """
            Examples:
              pricecam batch Fixtures --format jsonl > prices.jsonl
              pricecam batch ~/holiday --jobs 2 --format csv > prices.csv
            Images are found recursively (by extension) and reported in path order.
            A progress bar with rate and ETA is drawn on stderr when it is a terminal.
            """)

    @Argument(help: "Folder to read, recursively.")
    var directory: String

    @Option(name: .shortAndLong, help: "Worker threads, one OCR engine each (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "Do not draw the progress bar.")
    var noProgress = false

    @OptionGroup var output: FormatOptions
    @OptionGroup var ocr: OCROptions
    @OptionGroup var conversion: ConversionOptions

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
    }

    func run() throws {
        let items: [InputItem]
        do {
            items = try Inputs.walk(directory)
        } catch {
            Console.error(error.message)
            throw ExitCode(2)
        }
        if items.isEmpty {
            Console.error("\(directory): no images found (looked for \(GrayImage.fileExtensions.sorted().joined(separator: ", ")))")
        }
        try ImageRun.run(
            items: items, ocr: ocr, format: output.resolved, jobs: jobs,
            progress: !noProgress, conversion: conversion)
    }
}
