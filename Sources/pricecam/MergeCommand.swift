import ArgumentParser
import Foundation
import Pipeline

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join the outputs of sharded batch runs into one result, in batch's order.",
        discussion: """
            Examples:
              pricecam merge part-*.jsonl --output prices.jsonl
              pricecam merge part-0.csv part-1.csv part-2.csv > prices.csv
            Every input must be JSON Lines (one record per image, as batch --format jsonl
            writes) or every input CSV (batch --format csv, one header each). Records are
            ordered by image path as an unsharded batch orders them; an image found in two
            parts is an error (the shards overlap: check --shard). A summary goes to stderr.
            """)

    @Argument(help: "Shard outputs (.jsonl or .csv).")
    var files: [String]

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the merged result to FILE (renamed into place when complete) instead of stdout.", valueName: "FILE"))
    var output: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("give the shard outputs to merge") }
    }

    func run() throws {
        var parts: [ShardOutput] = []
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else {
                Console.error("\(path): cannot read (check the path; a shard still running leaves only a hidden .partial file)")
                throw ExitCode(2)
            }
            do { parts.append(try ShardOutput(path: path, text: String(decoding: data, as: UTF8.self))) } catch {
                Console.error(error.message)
                throw ExitCode(2)
            }
        }
        let merged: ShardOutput.Merged
        do { merged = try ShardOutput.merge(parts) } catch {
            Console.error(error.message)
            throw ExitCode(2)
        }
        if let output {
            do {
                let file = try OutputFile(path: output)
                file.write(merged.text)
                try file.commit()
            } catch {
                Console.error(error.message)
                throw ExitCode(2)
            }
        } else {
            Console.out(merged.text)
        }
        Console.err(
            "pricecam merge: \(parts.count) part(s): \(merged.images) image(s), \(merged.failed) failed, \(merged.prices) price(s)\n")
    }
}
