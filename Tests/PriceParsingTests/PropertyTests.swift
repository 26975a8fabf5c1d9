import Foundation
import PropertyBased
import Testing
@testable import PriceParsing

/// Any amount, written in any grouping/decimal style with a symbol or code on
/// either side, parses back to the same amount.
@Suite struct RoundTripPropertyTests {
    /// How a person writes thousands and decimals.
    enum Style: CaseIterable, Sendable {
        case us  // 1,234,567.89
        case de  // 1.234.567,89
        case fr  // 1 234 567,89 (no-break space)
        case frThin  // 1 234 567,89 (narrow no-break space)
        case ch  // 1'234'567.89
        case chCurly  // 1’234’567.89
        case indian  // 12,34,567.89
        case plainDot  // 1234567.89
        case plainComma  // 1234567,89

        var group: String {
            switch self {
            case .us, .indian: ","
            case .de: "."
            case .fr: "\u{00A0}"
            case .frThin: "\u{202F}"
            case .ch: "'"
            case .chCurly: "’"
            case .plainDot, .plainComma: ""
            }
        }
        var decimal: String {
            switch self {
            case .us, .ch, .chCurly, .indian, .plainDot: "."
            default: ","
            }
        }
    }

    static func format(units: UInt64, cents: Int, style: Style) -> String {
        let digits = Array(String(units))
        var groups: [String] = []
        var end = digits.count
        var size = 3
        while end > 0 {
            let start = max(0, end - size)
            groups.insert(String(digits[start..<end]), at: 0)
            end = start
            if style == .indian { size = 2 }
        }
        let whole = style.group.isEmpty ? String(digits) : groups.joined(separator: style.group)
        return whole + style.decimal + (cents < 10 ? "0" : "") + String(cents)
    }

    /// Markers with the code they mean, each usable before or after the number.
    static let markers: [(String, String)] = [
        ("$", "USD"), ("€", "EUR"), ("£", "GBP"), ("₹", "INR"), ("CHF", "CHF"), ("USD", "USD"), ("eur", "EUR"),
        ("zł", "PLN"), ("R$", "BRL"), ("HK$", "HKD"), ("Fr.", "CHF"), ("₺", "TRY"), ("GBP", "GBP"), ("₽", "RUB"),
    ]

    @Test func decimalAmountsRoundTrip() async {
        await propertyCheck(
            count: 2000,
            input: Gen.uint64(in: 0...9_999_999_999), Gen.int(in: 0...99), Gen<Style>.case,
            Gen.int(in: 0..<RoundTripPropertyTests.markers.count), Gen.int(in: 0...3)
        ) { units, cents, style, mi, placement in
            let number = Self.format(units: units, cents: cents, style: style)
            let (sym, code) = Self.markers[mi]
            let text: String
            switch placement {
            case 0: text = sym + number
            case 1: text = sym + " " + number
            case 2: text = number + sym
            default: text = number + " " + sym
            }
            let want = Decimal(units) + Decimal(cents) / 100
            let got = PriceParser().parse(text: "Artikel " + text + " A")
            #expect(got.count == 1, "\(text)")
            #expect(got.first?.amount == want, "\(text)")
            #expect(got.first?.currency == code, "\(text)")
            #expect(got.first?.flags.contains(.ambiguousSeparator) == false, "\(text)")
        }
    }

    @Test func wholeAmountsInZeroMinorCurrencies() async {
        let yen: [(String, String)] = [("¥", "JPY"), ("円", "JPY"), ("₩", "KRW"), ("원", "KRW"), ("JPY", "JPY"), ("₫", "VND")]
        await propertyCheck(
            count: 1000,
            input: Gen.uint64(in: 0...999_999_999), Gen.element(of: [",", "."]), Gen.int(in: 0..<yen.count), Gen.bool
        ) { units, sep, yi, before in
            let digits = Array(String(units))
            var groups: [String] = []
            var end = digits.count
            while end > 0 {
                let start = max(0, end - 3)
                groups.insert(String(digits[start..<end]), at: 0)
                end = start
            }
            let number = groups.joined(separator: sep ?? ",")
            let (sym, code) = yen[yi]
            let text = before ? sym + number : number + sym
            let got = PriceParser().parse(text: text)
            #expect(got.map(\.amount) == [Decimal(units)], "\(text)")
            #expect(got.first?.currency == code, "\(text)")
        }
    }

    @Test func negativesKeepTheirAmount() async {
        await propertyCheck(count: 500, input: Gen.uint64(in: 0...999_999), Gen.int(in: 1...99), Gen.bool) {
            units, cents, leading in
            let number = Self.format(units: units, cents: cents, style: .de)
            let text = leading ? "-" + number + " €" : number + "- €"
            let got = PriceParser().parse(text: "Rabatt " + text)
            let want = -(Decimal(units) + Decimal(cents) / 100)
            #expect(got.map(\.amount) == [want], "\(text)")
            #expect(got.first?.flags.contains(.negative) == true, "\(text)")
        }
    }

    /// Whatever the input, the parser returns, and every match is consistent.
    @Test func arbitraryTextNeverCrashes() async {
        let alphabet: [Character] = Array("0123456789.,'’ -–$€£¥kKrRsS:/%OolIB|E\u{00A0}\u{202F}¢円+()xg")
        await propertyCheck(count: 3000, input: Gen.element(of: alphabet).map { $0 ?? " " }.array(of: 0...40)) { chars in
            let text = String(chars)
            for m in PriceParser(options: ParserOptions(bareNumbers: .all)).parse(text: text) {
                #expect(!m.text.isEmpty)
                #expect(m.confidence >= 0 && m.confidence <= 1)
                if m.amount < 0 { #expect(m.flags.contains(.negative)) }
                if m.flags.contains(.negative) { #expect(m.amount <= 0) }  // `-0,00` stays zero
            }
        }
    }
}
