import ArgumentParser
import Foundation
import Geometry
import Pipeline
import PriceParsing

struct Parse: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find the prices in lines of text (no OCR).",
        discussion: """
            Examples:
              pricecam parse '$12.99' '12,50 €' 'EUR 24,23'
              pricecam parse --currency-hint JPY '¥1,280  3.350'
              printf 'Milch 1,19\\nSUMME 7,16\\n' | pricecam parse --format jsonl
              pricecam parse --page < receipt.txt    # one receipt: its total is marked
            With no TEXT, reads lines from stdin. JSON Lines: one object per input line,
            {"line": "...", "prices": [...]}, price fields as in the scan contract.
            Each line is read alone unless --page is given: then the lines are one page,
            and its context (the total keyword line the words, the order of the lines and
            the arithmetic choose; tax pairs) marks the roles, as for a scanned receipt.
            """)

    @Argument(help: "Lines of text; stdin is read when none are given.")
    var text: [String] = []

    @Option(
        name: .long,
        help:
            "The currency the prices are probably in (resolves 1.234 vs 1,234 and bare numbers): an ISO 4217 code (EUR), a symbol (€, $) or a marker word (zł, руб.)."
    )
    var currencyHint: String?

    @Option(name: .long, help: "How numbers without a currency sign are treated: never, decimals, all.")
    var bareNumbers: BareNumberPolicy = .decimals

    @Flag(name: .long, help: "Read the lines as one page (a receipt's text, in order): the total is chosen among them.")
    var page = false

    @OptionGroup var output: FormatOptions

    /// The hint as an ISO code; nil when none was given.
    func hintCode() throws -> String? { try CurrencyHint.validated(currencyHint) }

    func validate() throws {
        _ = try hintCode()
    }

    func run() throws {
        let parser = PriceParser(options: ParserOptions(currencyHint: try hintCode(), bareNumbers: bareNumbers))
        let format = output.resolved
        if format == .csv { Console.out("line,text,amount,currency,confidence,flags\n") }
        if format == .table { Console.out("PRICE               AMOUNT        CUR   FLAGS\n") }
        func handle(_ line: String, _ prices: [PricedMatch]) {
            switch format {
            case .jsonl:
                Console.out(JSON.object([("line", .string(line)), ("prices", .array(prices.map(PriceJSON.object)))]).serialized() + "\n")
            case .csv:
                for p in prices {
                    Console.out(
                        CSV.row([
                            line, p.match.text, ContractMoney.amount(p.match.amount, currency: p.match.currency),
                            p.match.currency ?? "", String(format: "%.2f", p.match.confidence),
                            p.match.flags.names.joined(separator: " "),
                        ]))
                }
            case .table:
                Console.out("# \(line)\n")
                for p in prices {
                    Console.out(
                        p.match.text.padding(toLength: 20, withPad: " ", startingAt: 0)
                            + ContractMoney.amount(p.match.amount, currency: p.match.currency).padding(
                                toLength: 14, withPad: " ", startingAt: 0)
                            + (p.match.currency ?? "?").padding(toLength: 6, withPad: " ", startingAt: 0)
                            + p.match.flags.names.joined(separator: ",") + "\n")
                }
            }
        }
        var lines = text
        if text.isEmpty {
            if page {
                while let line = readLine(strippingNewline: true) { lines.append(line) }
            } else {
                // Line by line as they come (a pipe answers each line at once).
                while let line = readLine(strippingNewline: true) { handle(line, Self.prices(parser, [line])[0]) }
                return
            }
        }
        if page {
            for (line, prices) in zip(lines, Self.prices(parser, lines)) { handle(line, prices) }
        } else {
            for line in lines { handle(line, Self.prices(parser, [line])[0]) }
        }
    }

    /// The prices of `lines` read as one page, by line.
    static func prices(_ parser: PriceParser, _ lines: [String]) -> [[PricedMatch]] {
        parser.parseByLine(lines: lines.map(TextLine.init(text:))).map { $0.map { PricedMatch(match: $0, conversion: nil) } }
    }
}

extension CurrencyHint {
    /// `--currency-hint` as an ISO code (nil when not given), or a usage error naming the
    /// value and what is accepted.
    static func validated(_ hint: String?) throws -> String? {
        guard let hint else { return nil }
        switch code(for: hint) {
        case .success(let code): return code
        case .failure(let f): throw ValidationError("--currency-hint: \(f)")
        }
    }
}
