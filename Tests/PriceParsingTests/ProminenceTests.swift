import Foundation
import Geometry
import Testing
@testable import PriceParsing

/// A number much taller than the words around it is a tag's price, sign or not; a lone
/// bare digit is no price.
@Suite struct ProminenceTests {
    /// A word at (x, y) of height h, about 0.6 h wide per character.
    static func word(_ text: String, x: Int, y: Int, h: Int, confidence: Double = 0.95) -> TextWord {
        TextWord(text: text, box: Box(x: x, y: y, width: max(1, text.count * h * 6 / 10), height: h), confidence: confidence)
    }

    static func amounts(_ lines: [TextLine], hint: String? = nil, policy: BareNumberPolicy = .decimals) -> [Decimal] {
        PriceParser(options: ParserOptions(currencyHint: hint, bareNumbers: policy)).parse(lines: lines).map(\.amount)
    }

    // A shelf rail read as one line: two tags' prices, each 26 px tall, between product names 8 px tall.
    static let rail: [TextLine] = [
        TextLine(words: [word("Choco", x: 10, y: 10, h: 8), word("Mochi", x: 50, y: 10, h: 8), word("Ramune", x: 210, y: 10, h: 8)]),
        TextLine(words: [word("149", x: 60, y: 30, h: 26), word("35", x: 260, y: 30, h: 26)]),
        TextLine(words: [word("4901234", x: 10, y: 62, h: 8), word("4909876", x: 210, y: 62, h: 8)]),
    ]

    @Test("a number far taller than the words around it is a price without a sign or a hint")
    func railPrices() {
        #expect(Self.amounts(Self.rail) == [149, 35])
        #expect(Self.amounts(Self.rail, policy: .never).isEmpty, "never means never")
    }

    @Test("numbers as tall as their words stay subject to the bare-number policy")
    func receiptLine() {
        let line = TextLine(words: [
            Self.word("Milk", x: 10, y: 10, h: 20), Self.word("2", x: 80, y: 10, h: 20), Self.word("149", x: 120, y: 10, h: 20),
        ])
        #expect(Self.amounts([line]).isEmpty)
        #expect(Self.amounts([line], hint: "JPY") == [149], "JPY has no minor units: a whole number is a price")
    }

    @Test("stands: taller than factor (1.6) × the median neighbour (12 px)", arguments: [(18, false), (20, true), (12, false)])
    func stands(_ c: (Int, Bool)) {
        let around = (0..<5).map { Box(x: 10 + 40 * $0, y: 100, width: 30, height: 12) }
        let box = Box(x: 90, y: 120, width: 40, height: c.0)
        #expect(Prominence.stands(box, out: around + [box]) == c.1, "height \(c.0)")
    }

    static let loneDigits: [Case] = [
        Case("7", ""),
        Case("4", "", hint: "JPY"),
        Case("€5", "5 EUR"),
        Case("5,00", "5.00 - bare"),
        Case("12", "12 - bare"),
        Case("7", "7 - bare", policy: .all),
    ]

    @Test("a lone bare digit is no price under the default policy", arguments: loneDigits)
    func loneDigit(_ c: Case) {
        check(c)
    }
}
