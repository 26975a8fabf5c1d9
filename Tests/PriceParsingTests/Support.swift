import Foundation
import Testing
@testable import PriceParsing

/// One hand-written expectation: the text, the hinted currency, and what a person
/// reads there. `expect` lists prices separated by ` | `, each `AMOUNT CUR [flags]`
/// with CUR an ISO code or `-` for unknown and flags from
/// `amb,range,neg,rep,bare` (exact set); an empty `expect` means "no price".
struct Case: Sendable, CustomTestStringConvertible {
    let input: String
    let hint: String?
    let expect: String
    let policy: BareNumberPolicy

    init(_ input: String, _ expect: String, hint: String? = nil, policy: BareNumberPolicy = .decimals) {
        self.input = input
        self.expect = expect
        self.hint = hint
        self.policy = policy
    }

    var testDescription: String { "\"\(input)\"" + (hint.map { " hint \($0)" } ?? "") + " → \(expect.isEmpty ? "none" : expect)" }
}

struct Expected: Equatable, CustomStringConvertible {
    var amount: Decimal
    var currency: String?
    var flags: Set<String>

    var description: String { "\(amount) \(currency ?? "-") \(flags.sorted().joined(separator: ","))" }

    static let flagNames: [String: String] = [
        "amb": "ambiguousSeparator", "range": "range", "neg": "negative", "rep": "repaired", "bare": "bareNumber",
    ]

    static func parse(_ spec: String) -> [Expected] {
        guard !spec.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        return spec.components(separatedBy: " | ").map { item in
            let parts = item.split(separator: " ").map(String.init)
            let amount = Decimal(string: parts[0], locale: Locale(identifier: "en_US_POSIX"))!
            let cur = parts.count > 1 && parts[1] != "-" ? parts[1] : nil
            let flags = parts.count > 2 ? Set(parts[2].split(separator: ",").map { flagNames[String($0)]! }) : []
            return Expected(amount: amount, currency: cur, flags: flags)
        }
    }

    init(amount: Decimal, currency: String?, flags: Set<String>) {
        self.amount = amount
        self.currency = currency
        self.flags = flags
    }

    init(_ m: PriceMatch) {
        self.init(amount: m.amount, currency: m.currency, flags: Set(m.flags.names))
    }
}

func check(_ c: Case, sourceLocation: SourceLocation = #_sourceLocation) {
    let parser = PriceParser(options: ParserOptions(currencyHint: c.hint, bareNumbers: c.policy))
    let got = parser.parse(text: c.input).map(Expected.init)
    let want = Expected.parse(c.expect)
    #expect(got == want, "\(c.testDescription)", sourceLocation: sourceLocation)
}
