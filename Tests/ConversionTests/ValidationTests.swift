import Foundation
import Testing
@testable import Conversion

private func dec(_ s: String) -> Decimal { Decimal(string: s, locale: Locale(identifier: "en_US_POSIX"))! }

@Suite("currency code rule")
struct CurrencyCodeTests {
    @Test(arguments: [
        ("jpy", "JPY"), ("JPY", "JPY"), (" eur ", "EUR"), ("Usd", "USD"),
        (String(repeating: "a", count: 20), String(repeating: "A", count: 20)),
    ])
    func accepted(_ input: String, _ expected: String) throws {
        #expect(try CurrencyCode.validate(input) == expected)
    }

    @Test func emptyIsRejected() {
        #expect(throws: SettingsValidationError.codeEmpty(field: "currency")) { try CurrencyCode.validate("") }
        #expect(throws: SettingsValidationError.codeEmpty(field: "currency")) { try CurrencyCode.validate("   ") }
    }

    @Test(arguments: ["JP1", "J PY", "€", "US$", "ÄBC", "jp-y", "１２"])
    func nonLettersAreRejected(_ input: String) {
        #expect(throws: SettingsValidationError.codeNotLetters(field: "currency", value: input)) { try CurrencyCode.validate(input) }
    }

    @Test func twentyOneLettersAreRejected() {
        let code = String(repeating: "b", count: 21)
        #expect(throws: SettingsValidationError.codeTooLong(field: "currency", value: code)) { try CurrencyCode.validate(code) }
    }

    @Test func messagesNameTheRule() {
        #expect(SettingsValidationError.codeEmpty(field: "home currency").description.hasPrefix("home currency code is empty"))
        #expect(SettingsValidationError.codeNotLetters(field: "currency", value: "J1").description.contains("letters A-Z only"))
        #expect(
            SettingsValidationError.codeTooLong(field: "currency", value: String(repeating: "A", count: 21)).description
                .contains("21 characters long: at most 20"))
    }
}

@Suite("exchange rate rule")
struct ExchangeRateTests {
    @Test(arguments: [
        ("0.22", "0.22"), ("0,22", "0.22"), ("0.0001", "0.0001"), ("10000", "10000"),
        ("10000.0", "10000"), ("1", "1"), (" 7.5 ", "7.5"), ("0001.50", "1.5"), ("9999.9999", "9999.9999"),
    ])
    func accepted(_ input: String, _ expected: String) throws {
        #expect(try ExchangeRate.validate(input) == dec(expected))
    }

    @Test(arguments: ["1,000.5", "1.000,5", "1.2.3", "0,,5"])
    func twoSeparatorsAreRejected(_ input: String) {
        #expect(throws: SettingsValidationError.rateTwoSeparators(input)) { try ExchangeRate.validate(input) }
    }

    @Test(arguments: ["1e3", "NaN", "nan", "∞", "inf", "+1", "0x10", ".5", "5.", "abc", "1 000", "０.５", "1_000"])
    func nonDecimalsAreRejected(_ input: String) {
        #expect(throws: SettingsValidationError.rateNotDecimal(input)) { try ExchangeRate.validate(input) }
    }

    @Test func emptyIsRejected() {
        #expect(throws: SettingsValidationError.rateEmpty) { try ExchangeRate.validate("") }
        #expect(throws: SettingsValidationError.rateEmpty) { try ExchangeRate.validate("  ") }
    }

    @Test(arguments: ["-0.22", "-1", "0", "0.0", "0,000"])
    func nonPositiveIsRejected(_ input: String) {
        #expect(throws: SettingsValidationError.rateNotPositive(input)) { try ExchangeRate.validate(input) }
    }

    @Test(arguments: ["0.00009", "10000.0001", "10001", "0.00001", "99999"])
    func outOfRangeIsRejected(_ input: String) {
        #expect(throws: SettingsValidationError.rateOutOfRange(input)) { try ExchangeRate.validate(input) }
    }

    @Test func rangeMessageGivesBounds() {
        #expect(
            SettingsValidationError.rateOutOfRange("0.00009").description
                == "rate \"0.00009\" is out of range: it must be between 0.0001 and 10000 inclusive")
    }

    @Test func settingsValidatedUppercasesHome() throws {
        let s = try CurrencySettings.validated(currency: "jpy", rate: "0,22", home: "twd", updatedAt: Date(timeIntervalSince1970: 0))
        #expect(s == CurrencySettings(currency: "JPY", rate: dec("0.22"), home: "TWD", updatedAt: Date(timeIntervalSince1970: 0)))
        #expect(s.setupCommand == "pricecam setup --currency JPY --rate 0.22 --home TWD")
        #expect(throws: SettingsValidationError.codeNotLetters(field: "home currency", value: "T1")) {
            try CurrencySettings.validated(currency: "JPY", rate: "1", home: "T1")
        }
        #expect(try CurrencySettings.validated(currency: "JPY", rate: "1", home: "").home == nil)
    }
}

@Suite("stale rate")
struct RateAgeTests {
    @Test func warnsOnlyAfterMaxAge() {
        let now = Date(timeIntervalSince1970: 100 * 86_400)
        #expect(RateAge.staleWarning(updatedAt: Date(timeIntervalSince1970: 70 * 86_400), now: now, maxDays: 30) == nil)
        let w = RateAge.staleWarning(updatedAt: Date(timeIntervalSince1970: 69 * 86_400), now: now, maxDays: 30)
        #expect(w?.contains("31 days ago") == true)
        #expect(RateAge.staleWarning(updatedAt: Date(timeIntervalSince1970: 95 * 86_400), now: now, maxDays: 3) != nil)
    }

    @Test(arguments: [("30", 30), ("1", 1), ("36500", 36500)])
    func validDays(_ input: String, _ expected: Int) throws { #expect(try RateAge.validateDays(input) == expected) }

    @Test(arguments: ["0", "-3", "1.5", "", "36501", "x"])
    func invalidDays(_ input: String) { #expect(throws: SettingsValidationError.self) { try RateAge.validateDays(input) } }
}
