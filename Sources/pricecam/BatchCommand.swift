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
            Prices are converted with the stored settings; --currency and --rate convert
            this run with those instead, and store nothing.

            Across machines (docs/GUIDE.md, "Scaling out"): `--shard i/N` reads one of N
            disjoint parts (0 <= i < N) chosen by a hash of each image's path relative to
            the folder, so every node agrees without coordination; `--output FILE` writes
            the results to FILE only once complete; `pricecam merge` joins the parts.
              pricecam batch photos --shard 0/3 --format jsonl --output part-0.jsonl
              find photos -name '*.jpg' |
                pricecam batch --files-from - --shard 1/3 --output part-1.jsonl
            """)

    @Argument(help: "Folder to read, recursively (or give --files-from).")
    var directory: String?

    @Option(
        name: .customLong("files-from"),
        help: ArgumentHelp("Read the image paths from FILE, one per line, instead of walking a folder ('-': stdin).", valueName: "FILE"))
    var filesFrom: String?

    @Option(help: ArgumentHelp("Read only part i of N (0 <= i < N), split by a stable hash of each path.", valueName: "i/N"))
    var shard: String?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the results to FILE (renamed into place when complete) instead of stdout.", valueName: "FILE"))
    var output: String?

    @Option(name: .shortAndLong, help: "Worker threads, one OCR engine each (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "Do not draw the progress bar.")
    var noProgress = false

    @OptionGroup var format: FormatOptions
    @OptionGroup var ocr: OCROptions
    @OptionGroup var conversion: ConversionOptions

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        if (directory == nil) == (filesFrom == nil) { throw ValidationError("give a folder or --files-from FILE (one of them)") }
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard must be i/N with 0 <= i < N (e.g. 0/3, 1/3, 2/3), got \(shard)")
        }
    }

    func run() throws {
        var items: [InputItem]
        let root: String?
        do {
            if let filesFrom {
                items = Inputs.list(try Self.readList(filesFrom))
                root = nil
            } else {
                items = try Inputs.walk(directory!)
                root = directory
            }
        } catch {
            Console.error(error.message)
            throw ExitCode(2)
        }
        let source = directory ?? filesFrom!
        if items.isEmpty {
            Console.error("\(source): no images found (looked for \(GrayImage.fileExtensions.sorted().joined(separator: ", ")))")
        }
        if let shard = shard.flatMap(Shard.init(parsing:)) {
            let all = items.count
            items = shard.select(items, root: root)
            Console.err("pricecam batch: shard \(shard): \(items.count) of \(all) image(s)\n")
        }
        var file: OutputFile?
        if let output {
            do { file = try OutputFile(path: output) } catch {
                Console.error(error.message)
                throw ExitCode(2)
            }
        }
        try ImageRun.run(
            items: items, ocr: ocr, format: format.resolved(forFile: output), jobs: jobs,
            progress: !noProgress, conversion: conversion, output: file)
    }

    /// The list file's text ('-': stdin).
    static func readList(_ path: String) throws(InputFailure) -> String {
        if path == "-" {
            return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputFailure(code: "not_found", message: "\(path): cannot read the list of images (--files-from); check the path")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
