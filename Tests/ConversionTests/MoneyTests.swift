import Foundation
import Testing
@testable import Conversion

private func dec(_ s: String) -> Decimal { Decimal(string: s, locale: Locale(identifier: "en_US_POSIX"))! }

@Suite("money")
struct MoneyTests {
    @Test(arguments: [("JPY", 0), ("USD", 2), ("KWD", 3), ("EUR", 2), ("jpy", 0), ("XYZ", 2), ("CLF", 4), ("TWD", 2)])
    func minorUnits(_ code: String, _ digits: Int) { #expect(MinorUnits.of(code) == digits) }

    @Test func minorUnitsOfNilAndKnown() {
        #expect(MinorUnits.of(nil) == 2)
        #expect(MinorUnits.isKnown("KWD"))
        #expect(!MinorUnits.isKnown("ABCDEF"))
    }

    @Test(arguments: [
        ("1280", 0, "1280"), ("12.5", 2, "12.50"), ("-5", 2, "-5.00"), ("2.675", 2, "2.68"),
        ("2.665", 2, "2.67"), ("-2.675", 2, "-2.68"), ("0.5", 0, "1"), ("1.5", 0, "2"), ("2.5", 0, "3"),
        ("1234567.891", 2, "1234567.89"), ("0.0005", 3, "0.001"), ("-0.001", 2, "0.00"), ("7", 3, "7.000"),
    ])
    func plain(_ value: String, _ digits: Int, _ expected: String) {
        #expect(Money.plain(dec(value), minorUnits: digits) == expected)
    }

    @Test(arguments: [
        ("1234.5", 2, "1,234.50"), ("1234567.891", 2, "1,234,567.89"), ("999", 0, "999"),
        ("1000", 0, "1,000"), ("-1234567", 0, "-1,234,567"), ("100000", 3, "100,000.000"), ("0.5", 2, "0.50"),
    ])
    func grouped(_ value: String, _ digits: Int, _ expected: String) {
        #expect(Money.grouped(dec(value), minorUnits: digits) == expected)
    }

    @Test func exact() {
        #expect(Money.exact(dec("0.22")) == "0.22")
        #expect(Money.exact(dec("10000")) == "10000")
        #expect(Money.exact(dec("0.0001")) == "0.0001")
    }
}

@Suite("converter")
struct ConverterTests {
    @Test func jpyToTwdRoundsToCents() {
        let c = Converter(currency: "JPY", rate: dec("0.22"), home: "TWD")
        // 1280 × 0.22 = 281.6 → 281.60
        #expect(c.convert(1280, currency: "JPY") == ConvertedAmount(value: dec("281.6"), rate: dec("0.22"), target: "TWD"))
        #expect(c.convert(1280, currency: "JPY")?.plain == "281.60")
        // 1 × 0.0275 = 0.0275 → half-up to 0.03
        #expect(Converter(currency: "JPY", rate: dec("0.0275"), home: "USD").convert(1, currency: nil)?.plain == "0.03")
    }

    @Test func nilCurrencyIsAssumedAndOtherCurrencyIsNotConverted() {
        let c = Converter(currency: "jpy", rate: dec("0.22"), home: nil)
        #expect(c.convert(100, currency: nil)?.value == dec("22"))
        #expect(c.convert(100, currency: "jpy")?.value == dec("22"))
        #expect(c.convert(100, currency: "EUR") == nil)
    }

    @Test func roundsToHomeMinorUnits() {
        // 12.34 EUR × 163.457 = 2017.05938 → JPY 0 digits → 2017
        #expect(Converter(currency: "EUR", rate: dec("163.457"), home: "JPY").convert(dec("12.34"), currency: "EUR")?.value == dec("2017"))
        // 10 USD × 0.30712 = 3.0712 → KWD 3 digits → 3.071
        #expect(Converter(currency: "USD", rate: dec("0.30712"), home: "KWD").convert(10, currency: nil)?.value == dec("3.071"))
        // unknown home → 2 digits: 3.0712 → 3.07
        #expect(Converter(currency: "USD", rate: dec("0.30712"), home: "ZZZ").convert(10, currency: nil)?.grouped == "3.07")
    }

    @Test func decimalIsExactWhereDoubleIsNot() {
        // 0.1 × 3 in Double is 0.30000000000000004; with Decimal it is exactly 0.3.
        let c = Converter(currency: "USD", rate: dec("0.1"), home: "EUR")
        #expect(c.convert(3, currency: nil)?.value == dec("0.3"))
        #expect(
            Converter(currency: "JPY", rate: dec("0.0067"), home: "USD").convert(dec("12345678"), currency: nil)?.grouped == "82,716.04")
    }
}
