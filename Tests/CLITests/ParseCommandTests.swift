import Foundation
import Testing

/// The README's `pricecam parse` examples, with what a person reads in them.
@Suite("parse command")
struct ParseCommandTests {
    static func prices(_ r: CLI.Result) -> [[(amount: String, currency: String?, role: String?)]] {
        r.jsonLines.map { line in
            ((line["prices"] as? [[String: Any]]) ?? []).map {
                (($0["amount"] as? String) ?? "?", $0["currency"] as? String, $0["role"] as? String)
            }
        }
    }

    @Test func readmeExamples() throws {
        let r = try CLI.run(["parse", "--format", "jsonl", "$12.99", "12,50 €", "1.234,56", "¥1,280", "EUR 24,23"])
        #expect(r.status == 0)
        let got = Self.prices(r)
        #expect(got.map { $0.map(\.amount) } == [["12.99"], ["12.50"], ["1234.56"], ["1280"], ["24.23"]])
        #expect(got.map { $0.map(\.currency) } == [["USD"], ["EUR"], [nil], ["JPY"], ["EUR"]])
    }

    @Test func currencyHintResolvesSeparator() throws {
        let r = try CLI.run(["parse", "--format", "jsonl", "--currency-hint", "JPY", "3.350"])
        #expect(Self.prices(r).first?.map(\.amount) == ["3350"])
    }

    @Test func stdinLinesAndTotal() throws {
        let r = try CLI.run(["parse", "--format", "jsonl"], stdin: "Milch 1,19\nSUMME 7,16\nTel. 030 1234567\n")
        let got = Self.prices(r)
        #expect(got.count == 3)
        #expect(got[0].map(\.amount) == ["1.19"])
        #expect(got[1].map(\.amount) == ["7.16"] && got[1].first?.role == "total")
        #expect(got[2].isEmpty)
    }

    @Test("--page reads the lines as one receipt: the total before the payment is marked, not the VAT table's")
    func pageMarksOneTotal() throws {
        let receipt = "Milch 1,19\nBrot 2,49\nSUMME 3,68\nBAR 5,00\nRÜCKGELD 1,32\nMwSt-Betrag 0,24\n"
        let page = try CLI.run(["parse", "--page", "--format", "jsonl"], stdin: receipt)
        #expect(page.status == 0)
        let got = Self.prices(page)
        #expect(got.count == 6)
        #expect(got.flatMap { $0.filter { $0.role == "total" }.map(\.amount) } == ["3.68"])
        #expect(got[2].first?.role == "total")
        // line by line, every total word marks its own line
        let alone = try CLI.run(["parse", "--format", "jsonl"], stdin: receipt)
        #expect(Self.prices(alone).flatMap { $0.filter { $0.role == "total" }.map(\.amount) } == ["3.68", "0.24"])
    }

    @Test func badHintIsUsageError() throws {
        let r = try CLI.run(["parse", "--currency-hint", "1X", "12"])
        #expect(r.status == 2)
    }
}

@Suite("parse command: currency hint and units")
struct ParseHintCommandTests {
    @Test func symbolHint() throws {
        let r = try CLI.run(["parse", "--format", "jsonl", "--currency-hint", "€", "12,50"])
        #expect(r.status == 0)
        #expect(ParseCommandTests.prices(r).first?.map(\.currency) == ["EUR"])
    }

    @Test func markerWordHint() throws {
        let r = try CLI.run(["parse", "--format", "jsonl", "--currency-hint", "Ft", "4 572"])
        #expect(ParseCommandTests.prices(r).first?.map(\.amount) == ["4572.00"])  // the contract writes HUF with its 2 ISO minor units
    }

    @Test func unknownHintNamesValueAndChoices() throws {
        let r = try CLI.run(["parse", "--currency-hint", "XQZ", "12"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("XQZ") && r.stderr.contains("ISO 4217"))
    }

    @Test func evalTakesTheSameHints() throws {
        let bad = try CLI.run(["eval", "Fixtures/clean", "--currency-hint", "XQZ"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("XQZ") && bad.stderr.contains("ISO 4217"))
    }

    @Test func sharedHintNamesCodes() throws {
        let r = try CLI.run(["parse", "--currency-hint", "kr", "12"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("SEK") && r.stderr.contains("NOK"))
    }

    @Test func unitInJSON() throws {
        let r = try CLI.run(["parse", "--format", "jsonl", "$12.50/kg"])
        let p = (r.jsonLines.first?["prices"] as? [[String: Any]])?.first
        #expect(p?["unit"] as? String == "kg")
        #expect(p?["amount"] as? String == "12.50")
    }
}
