import ArgumentParser
import Conversion
import Foundation
import History
import Pipeline
import Server

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List, export, clear and summarise the conversion history.",
        discussion:
            "The history lives in $PRICECAM_HOME/history.sqlite, else $XDG_DATA_HOME/pricecam/history.sqlite (~/.local/share/pricecam), or where --history (or $PRICECAM_HISTORY) says: a SQLite file or postgres://USER[:PASS]@HOST:PORT/DB.",
        subcommands: [List.self, Export.self, Clear.self, Stats.self, Check.self, StressAppend.self],
        defaultSubcommand: List.self
    )

    /// The history at `option`'s location; nil when `createIfMissing` is false and there is no SQLite file yet.
    static func open(_ option: HistoryOption, createIfMissing: Bool = true) throws -> (any HistoryBackend)? {
        let location = try option.location()
        if !createIfMissing && !location.mayExist { return nil }
        do { return try location.open() } catch {
            failSettings(error.description)
        }
    }

    static func attempt<T>(_ body: () throws -> T) -> T {
        do { return try body() } catch let error as HistoryError { failSettings(error.description) } catch {
            failSettings("\(error)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show converted prices, newest first (the default).")

        @OptionGroup var location: HistoryOption

        @Option(help: "At most this many rows (default 50; 0 for all).")
        var limit = 50

        @Option(
            help: ArgumentHelp(
                "Only rows at or after this time: 2025-05-01, 2025-05-01T09:30:00Z, or an age like 7d, 12h, 30m.", valueName: "WHEN"))
        var since: String?

        @Option(help: ArgumentHelp("Only rows whose source (file path or device#frame) contains this text.", valueName: "TEXT"))
        var source: String?

        @Option(help: "table, jsonl or csv (default: table on a terminal, jsonl otherwise).")
        var format: OutputFormat?

        func validate() throws {
            if limit < 0 { throw ValidationError("--limit must be 0 or more") }
            if let since, HistoryFormat.parseSince(since) == nil {
                throw ValidationError("--since \"\(since)\" is not a date (2025-05-01, 2025-05-01T09:30:00Z) or an age (7d, 12h, 30m)")
            }
        }

        func run() throws {
            let query = HistoryQuery(limit: limit == 0 ? nil : limit, since: since.flatMap { HistoryFormat.parseSince($0) }, source: source)
            let rows =
                try HistoryCommand.open(location, createIfMissing: false).map { store in HistoryCommand.attempt { try store.list(query) } }
                ?? []
            switch format ?? .default() {
            case .jsonl: Console.out(rows.map { HistoryFormat.jsonLine($0) + "\n" }.joined())
            case .csv: Console.out(HistoryFormat.csvHeader + "\n" + rows.map { HistoryFormat.csvLine($0) + "\n" }.joined())
            case .table: Console.out(HistoryFormat.table(rows))
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the whole history to FILE: CSV (.csv) or JSON Lines (.jsonl, .ndjson, .json).")

        @OptionGroup var location: HistoryOption

        @Argument(help: "Output file; the extension picks the format. Written atomically.")
        var file: String

        func validate() throws {
            if HistoryFormat.exportFormat(file) == nil {
                throw ValidationError("cannot tell the format of \"\(file)\": use a .csv, .jsonl, .ndjson or .json file name")
            }
        }

        func run() throws {
            let rows =
                try HistoryCommand.open(location, createIfMissing: false).map { store in HistoryCommand.attempt { try store.list() } } ?? []
            let ordered = rows.reversed()  // oldest first in files
            let text: String
            switch HistoryFormat.exportFormat(file)! {
            case .csv: text = HistoryFormat.csvHeader + "\n" + ordered.map { HistoryFormat.csvLine($0) + "\n" }.joined()
            default: text = ordered.map { HistoryFormat.jsonLine($0) + "\n" }.joined()
            }
            do { try AtomicFile.write(Data(text.utf8), to: file) } catch {
                failSettings("cannot write \(file): \(error.problem)")
            }
            Console.err("pricecam: exported \(rows.count) row(s) to \(file)\n")
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete every row (asks first, unless --yes).")

        @OptionGroup var location: HistoryOption

        @Flag(name: [.short, .long], help: "Do not ask.")
        var yes = false

        func run() throws {
            guard let store = try HistoryCommand.open(location, createIfMissing: false) else {
                Console.err("pricecam: the history is empty (no database yet)\n")
                return
            }
            let count = HistoryCommand.attempt { try store.count() }
            if !yes {
                guard Console.isInteractive else {
                    failSettings("history clear deletes \(count) row(s) from \(store.location); confirm with --yes when not on a terminal")
                }
                Console.err("Delete all \(count) row(s) from \(store.location)? [y/N] ")
                let answer = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
                guard answer == "y" || answer == "yes" else {
                    Console.err("pricecam: nothing deleted\n")
                    return
                }
            }
            let deleted = HistoryCommand.attempt { try store.clear() }
            Console.err("pricecam: deleted \(deleted) row(s)\n")
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Counts and sums by currency.")

        @OptionGroup var location: HistoryOption

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() throws {
            let stats =
                try HistoryCommand.open(location, createIfMissing: false).map { store in HistoryCommand.attempt { try store.stats() } }
                ?? HistoryStats(count: 0, runs: 0, first: nil, last: nil, byCurrency: [])
            Console.out(json ? HistoryFormat.statsJSON(stats) + "\n" : HistoryFormat.statsTable(stats))
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the history (SQLite's integrity check; on PostgreSQL, that the table reads back) and count the rows.")

        @OptionGroup var location: HistoryOption

        func run() throws {
            guard let store = try HistoryCommand.open(location, createIfMissing: false) else {
                Console.out("ok 0 (no database yet)\n")
                return
            }
            let result = HistoryCommand.attempt { try store.integrityCheck() }
            let count = HistoryCommand.attempt { try store.count() }
            Console.out("\(result) \(count) rows" + (store.checkNote.map { " (\($0))" } ?? "") + "\n")
            if result != "ok" { throw ExitCode(1) }
        }
    }

    /// Appends synthetic rows through the same recorder as batch. For the
    /// crash and concurrency tests in Tests/CLITests/HistoryCLITests.swift; not listed in help.
    struct StressAppend: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "_stress-append", shouldDisplay: false)

        @OptionGroup var location: HistoryOption
        @Option var rows = 1000
        @Option var chunk = 200
        @Option(name: .customLong("run")) var runID: String
        @Option(name: .customLong("delay-us")) var delayMicroseconds = 0

        func run() throws {
            let store = try HistoryCommand.open(location)!
            let recorder = HistoryRecorder(store: store, runID: runID, chunkSize: chunk, flushInterval: 3600)
            let conv = Decimal(string: "0.22")!
            for i in 0..<rows {
                let amount = Decimal(i)
                recorder.record(
                    source: "stress/\(i).png", rawText: "¥\(i)", amount: amount, currency: "JPY",
                    converted: ConvertedAmount(value: amount * conv, rate: conv, target: "TWD"),
                    confidence: 0.5, box: [i, 0, 1, 1])
                if delayMicroseconds > 0 { usleep(useconds_t(delayMicroseconds)) }
            }
            if !recorder.finish() { throw ExitCode(1) }
        }
    }
}
