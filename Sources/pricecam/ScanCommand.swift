import ArgumentParser
import Foundation
import Pipeline

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read the prices in one or more image files.",
        discussion: """
            Examples:
              pricecam scan Fixtures/clean/tag_0001.png
              pricecam scan menu.jpg receipt.png --format jsonl
            Each image gives one record, in the order given; an unreadable file gives an
            error record and a message on stderr, the others are still read (exit code 1).
            Prices are converted with the stored settings; --currency and --rate convert
            this run with those instead, and store nothing.
            """)

    @Argument(help: "Image files (PNG, JPEG, TIFF, BMP, PNM, WebP).")
    var images: [String]

    @Option(name: .shortAndLong, help: "Worker threads, one OCR engine each (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var output: FormatOptions
    @OptionGroup var ocr: OCROptions
    @OptionGroup var conversion: ConversionOptions

    func validate() throws {
        guard !images.isEmpty else { throw ValidationError("give at least one image file (or use `pricecam batch DIR` for a folder)") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
    }

    func run() throws {
        try ImageRun.run(
            items: Inputs.explicit(images), ocr: ocr, format: output.resolved, jobs: jobs,
            progress: false, conversion: conversion)
    }
}
