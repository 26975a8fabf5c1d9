import ArgumentParser
import Foundation
import Pipeline
import PriceParsing
import Synchronization

struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Score price extraction against a folder's gt.json.",
        discussion: """
            Prints, per set and overall: total recall (share of images whose total
            was found among the prices read), total marked (share of images whose
            price marked as the total, "role": "total", is the total: the amount a
            user converts first) and precision/recall/F1 over amounts (multiset match
            of decimal values; only images whose gt.json lists amounts count). An
            entry's "currency" (ISO 4217) is given to the parser as that shop's stored
            settings would, so a folder mixing countries scores in one run;
            --currency-hint covers entries without.
            Examples:
              pricecam eval Fixtures/receipts-intl
              pricecam eval Fixtures            (every Fixtures/*/gt.json is a set)
              pricecam eval Fixtures/clean --misses
              pricecam batch DIR/img --format jsonl > found.jsonl
              pricecam eval DIR --found found.jsonl
            """)

    @Argument(help: "Folder with a gt.json (keys relative to its img/ or to itself), or a folder whose subfolders have one.")
    var directory: String

    @Option(name: .shortAndLong, help: "Worker threads, one OCR engine each (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "Print the JSON summary instead of a table.")
    var json = false

    @Flag(name: .long, help: "List the images whose total or amounts were missed.")
    var misses = false

    @Option(
        name: .long,
        help:
            "Currency hint for the parser (an ISO 4217 code, a symbol or a marker word, as for parse) for images whose gt.json entry has no \"currency\" (an entry's own currency is used as that shop's stored settings would give it)."
    )
    var currencyHint: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Score what another run found instead of reading the images: a JSON Lines file of batch records (file, prices, error), or a folder of `parse --format jsonl` outputs named <image>.jsonl (a peer engine's text through pricecam's parser).",
            valueName: "path"))
    var found: String?

    @OptionGroup var ocr: OCROptions

    @OptionGroup var accuracy: AccuracyOption

    func validate() throws {
        _ = try CurrencyHint.validated(currencyHint)
    }

    func run() throws {
        let sets: [EvaluationSet]
        do {
            sets = try EvaluationSet.discover(directory)
        } catch {
            Console.error("\(error)")
            throw ExitCode(2)
        }
        let entries = sets.flatMap(\.entries)
        var readings: [FoundReadings.Reading]
        var seconds = 0.0
        if let found {
            do {
                readings = try FoundReadings.load(found, for: entries.map(\.path))
            } catch {
                Console.error("\(error)")
                throw ExitCode(2)
            }
        } else {
            (readings, seconds) = try read(entries)
        }
        var rows: [(String, Score)] = []
        var overall = Score()
        var missLines: [String] = []
        var offset = 0
        for set in sets {
            var score = Score()
            for (i, entry) in set.entries.enumerated() {
                let r = readings[offset + i]
                let found = r.amounts
                score.add(truth: entry.truth, found: found, marked: r.markedTotal, failed: r.failed)
                if misses {
                    let missedTotal = entry.truth.total.map { !found.contains($0) } ?? false
                    // a price marked on another amount (an image with nothing marked, a tag or a
                    // frame, counts in the rate but is not listed)
                    let misMarked = entry.truth.total.map { !missedTotal && r.markedTotal != nil && r.markedTotal != $0 } ?? false
                    let missedAmounts = entry.truth.amounts.map { Set($0) != Set(found) } ?? false
                    if missedTotal || misMarked || missedAmounts || r.failed {
                        let want =
                            entry.truth.amounts.map { $0.map { "\($0)" }.joined(separator: " ") }
                            ?? "total \(entry.truth.total.map { "\($0)" } ?? "-")"
                        missLines.append(
                            "\(entry.path): want [\(want)] got [\(found.map { "\($0)" }.joined(separator: " "))]"
                                + (missedTotal ? " total \(entry.truth.total.map { "\($0)" } ?? "") missed" : "")
                                + (misMarked ? " total marked on \(r.markedTotal.map { "\($0)" } ?? "")" : "")
                                + (r.error.map { " error: \($0)" } ?? ""))
                    }
                }
            }
            offset += set.entries.count
            overall.merge(score)
            rows.append((set.name, score))
        }
        let msPerImage = entries.isEmpty || found != nil ? 0 : seconds * 1000 / Double(entries.count)
        if json {
            var objects = rows.map { Self.json(name: $0.0, score: $0.1) }
            objects.append(Self.json(name: "all", score: overall))
            Console.out(
                JSON.object([("sets", .array(objects)), ("ms_per_image", .fixed(msPerImage, 1)), ("jobs", .int(jobs))]).serialized() + "\n")
        } else {
            Console.out(Self.tableHeader())
            for (name, score) in rows { Console.out(Self.tableRow(name: name, score: score)) }
            if rows.count > 1 { Console.out(Self.tableRow(name: "all", score: overall)) }
            if found == nil { Console.out(String(format: "%.1f ms per image wall time with %d job(s)\n", msPerImage, jobs)) }
        }
        for line in missLines { Console.err(line + "\n") }
    }

    /// Reads every entry's image with OCR, each with its shop's currency from gt.json (as that
    /// shop's stored settings would give), else with --currency-hint: one batch per currency.
    func read(_ entries: [(path: String, truth: EvaluationSet.Truth)]) throws -> ([FoundReadings.Reading], Double) {
        let hint = try CurrencyHint.validated(currencyHint)
        let currencies = entries.map { $0.truth.currency ?? hint }
        var byCurrency: [String?: [Int]] = [:]
        for (i, c) in currencies.enumerated() { byCurrency[c, default: []].append(i) }
        var results = [ImageResult?](repeating: nil, count: entries.count)
        var seconds = 0.0
        // One set of nets per worker for every currency's batch (`NetShelf`).
        let shelf = NetShelf()
        for (currency, indices) in byCurrency.sorted(by: { ($0.key ?? "") < ($1.key ?? "") }) {
            let settings = try ocr.extraction(currency: currency, converter: nil, accuracy: accuracy.options)
            let collected = ResultsBox(count: indices.count)
            do {
                let summary = try BatchRunner(settings: settings, jobs: jobs, shelf: shelf).run(
                    indices.map { InputItem.image(path: entries[$0].path) }
                ) {
                    collected.append($0)
                }
                seconds += summary.seconds
            } catch {
                Console.error("\(error)")
                throw ExitCode(2)
            }
            for (k, i) in indices.enumerated() { results[i] = collected.results[k] }
        }
        return (
            results.map { r in
                FoundReadings.Reading(
                    amounts: r?.prices.map(\.match.amount) ?? [], markedTotal: r?.prices.first { $0.match.role == .total }?.match.amount,
                    failed: r?.error != nil, error: r?.error?.message)
            }, seconds
        )
    }

    static func fmt(_ v: Double?) -> String { v.map { String(format: "%.3f", $0) } ?? "-" }

    static func tableHeader() -> String {
        "set".padding(toLength: 24, withPad: " ", startingAt: 0)
            + "images  failed  total-recall        total-marked        amount-P  amount-R  amount-F1\n"
    }

    static func tableRow(name: String, score s: Score) -> String {
        let totals = s.totalsExpected > 0 ? "\(fmt(s.totalRecall)) (\(s.totalsFound)/\(s.totalsExpected))" : "-"
        let marked = s.totalsExpected > 0 ? "\(fmt(s.totalMarkedRate)) (\(s.totalsMarked)/\(s.totalsExpected))" : "-"
        return name.padding(toLength: 24, withPad: " ", startingAt: 0)
            + String(format: "%6d  %6d  ", s.images, s.failed)
            + totals.padding(toLength: 20, withPad: " ", startingAt: 0)
            + marked.padding(toLength: 20, withPad: " ", startingAt: 0)
            + fmt(s.precision).padding(toLength: 10, withPad: " ", startingAt: 0)
            + fmt(s.recall).padding(toLength: 10, withPad: " ", startingAt: 0)
            + fmt(s.f1) + "\n"
    }

    static func json(name: String, score s: Score) -> JSON {
        .object([
            ("set", .string(name)), ("images", .int(s.images)), ("failed", .int(s.failed)),
            ("total_recall", s.totalRecall.map { .fixed($0, 4) } ?? .null),
            ("totals_found", .int(s.totalsFound)), ("totals_expected", .int(s.totalsExpected)),
            ("total_marked", s.totalMarkedRate.map { .fixed($0, 4) } ?? .null), ("totals_marked", .int(s.totalsMarked)),
            ("amount_precision", s.precision.map { .fixed($0, 4) } ?? .null),
            ("amount_recall", s.recall.map { .fixed($0, 4) } ?? .null),
            ("amount_f1", s.f1.map { .fixed($0, 4) } ?? .null),
        ])
    }
}

/// Collects results (they arrive serially, in order).
final class ResultsBox: Sendable {
    private let collected: Mutex<[ImageResult]>

    init(count: Int) {
        var results: [ImageResult] = []
        results.reserveCapacity(count)
        collected = Mutex(results)
    }

    var results: [ImageResult] { collected.withLock { $0 } }

    func append(_ r: ImageResult) {
        collected.withLock { $0.append(r) }
    }
}
