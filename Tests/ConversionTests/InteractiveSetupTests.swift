import Foundation
import Testing
@testable import Conversion

private final class Transcript {
    var input: [String]
    var output = ""
    init(_ input: [String]) { self.input = input }
    func flow() -> InteractiveSetup {
        InteractiveSetup(
            readLine: { [self] in input.isEmpty ? nil : input.removeFirst() },
            write: { [self] in output += $0 }, now: { Date(timeIntervalSince1970: 1_000) })
    }
}

@Suite("interactive setup")
struct InteractiveSetupTests {
    @Test func rePromptsUntilValid() {
        let t = Transcript(["", "jp1", "jpy", "t w d", "twd", "1,000.5", "1e3", "0", "0,22"])
        let outcome = t.flow().run()
        #expect(
            outcome
                == .completed(
                    CurrencySettings(
                        currency: "JPY", rate: Decimal(string: "0.22")!, home: "TWD",
                        updatedAt: Date(timeIntervalSince1970: 1_000))))
        #expect(t.output.hasPrefix("Welcome to pricecam."))
        #expect(t.output.contains("currency code is empty"))
        #expect(t.output.contains("currency code \"jp1\" must contain letters A-Z only"))
        #expect(t.output.contains("home currency code \"t w d\" must contain letters A-Z only"))
        #expect(t.output.contains("rate \"1,000.5\" has more than one separator"))
        #expect(t.output.contains("rate \"1e3\" is not a plain decimal number"))
        #expect(t.output.contains("rate \"0\" must be greater than 0"))
        #expect(t.output.contains("how many TWD units is 1 JPY worth"))
        // Currency asked 3 times, home twice, rate 4 times.
        #expect(t.output.components(separatedBy: "Currency the prices are in").count - 1 == 3)
        #expect(t.output.components(separatedBy: "Exchange rate:").count - 1 == 4)
    }

    @Test func homeMayBeLeftUnset() {
        let t = Transcript(["eur", "", "163.4"])
        guard case .completed(let s) = t.flow().run(welcome: false) else { Issue.record("not completed"); return }
        #expect(s.home == nil && s.currency == "EUR" && s.rate == Decimal(string: "163.4")!)
        #expect(!t.output.contains("Welcome"))
    }

    @Test func endOfInputCancels() {
        let t = Transcript(["jpy"])
        #expect(t.flow().run() == .cancelled)
    }

    @Test func presetsAreNotAskedAgainButBadPresetsAre() {
        let t = Transcript(["0.5"])
        guard case .completed(let s) = t.flow().run(presetCurrency: "usd", presetRate: "-1", presetHome: "gbp") else {
            Issue.record("not completed"); return
        }
        #expect(
            s
                == CurrencySettings(
                    currency: "USD", rate: Decimal(string: "0.5")!, home: "GBP", updatedAt: Date(timeIntervalSince1970: 1_000)))
        #expect(!t.output.contains("Currency the prices are in"))
        #expect(t.output.contains("rate \"-1\" must be greater than 0"))
    }

    @Test func enterKeepsDefaults() {
        let old = CurrencySettings(currency: "JPY", rate: Decimal(string: "0.21")!, home: "TWD", updatedAt: .distantPast, maxRateAgeDays: 7)
        let t = Transcript(["", "", ""])
        guard case .completed(let s) = t.flow().run(welcome: false, defaults: old) else { Issue.record("not completed"); return }
        #expect(s.currency == "JPY" && s.home == "TWD" && s.rate == Decimal(string: "0.21")! && s.maxRateAgeDays == 7)
        #expect(s.updatedAt == Date(timeIntervalSince1970: 1_000))
    }

    @Test func summaryShowsAnExample() {
        let s = CurrencySettings(currency: "JPY", rate: Decimal(string: "0.22")!, home: "TWD", updatedAt: .distantPast)
        let text = InteractiveSetup.summary(s, savedTo: "/x/settings.toml")
        #expect(text.contains("Saved to /x/settings.toml"))
        #expect(text.contains("1 JPY = 0.22 TWD"))
        #expect(text.contains("1,000 JPY = 220.00 TWD"))
    }
}
