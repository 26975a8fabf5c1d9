import Foundation
import Geometry
import Testing
@testable import PriceParsing

/// A price shown with and without tax keeps both amounts, each with its role, the one in
/// larger type first; prices that are no such pair get no role.
@Suite struct TaxPairTests {
    static func word(_ text: String, x: Int, y: Int, h: Int) -> TextWord { ProminenceTests.word(text, x: x, y: y, h: h) }

    static func parsed(_ lines: [TextLine], hint: String? = "JPY") -> [(amount: Decimal, role: PriceRole?)] {
        PriceParser(options: ParserOptions(currencyHint: hint)).parse(lines: lines).map { ($0.amount, $0.role) }
    }

    @Test("a Japanese tag: small 税込 line above the big 本体 price; the big one comes first")
    func japaneseTag() {
        let lines = [
            TextLine(words: [Self.word("税込", x: 60, y: 10, h: 9), Self.word("429円", x: 90, y: 10, h: 9)]),
            TextLine(words: [Self.word("本体", x: 10, y: 30, h: 9), Self.word("398円", x: 50, y: 24, h: 28)]),
        ]
        let out = Self.parsed(lines)
        #expect(out.map(\.amount) == [398, 429])
        #expect(out.map(\.role) == [PriceRole.taxExcluded, .taxIncluded])
    }

    @Test("a tag whose tax-included price is the big one lists it first")
    func includedLarger() {
        let lines = [
            TextLine(words: [
                Self.word("12,50", x: 10, y: 10, h: 10), Self.word("€", x: 50, y: 10, h: 10), Self.word("HT", x: 64, y: 10, h: 10),
            ]),
            TextLine(words: [
                Self.word("15,00", x: 10, y: 26, h: 30), Self.word("€", x: 110, y: 26, h: 30), Self.word("TTC", x: 130, y: 40, h: 10),
            ]),
        ]
        let out = Self.parsed(lines, hint: "EUR")
        #expect(out.map(\.amount) == [15, 12.5])
        #expect(out.map(\.role) == [PriceRole.taxIncluded, .taxExcluded])
    }

    @Test("a pair whose partner stands apart in reading order moves without costing the next pair its roles")
    func twoTags() {
        let lines = [
            TextLine(words: [Self.word("本体", x: 10, y: 10, h: 10), Self.word("100円", x: 40, y: 10, h: 10)]),
            TextLine(words: [Self.word("本体", x: 500, y: 10, h: 10), Self.word("1000円", x: 530, y: 10, h: 10)]),
            TextLine(words: [Self.word("税込", x: 10, y: 30, h: 10), Self.word("108円", x: 40, y: 24, h: 30)]),
            TextLine(words: [Self.word("税込", x: 500, y: 30, h: 10), Self.word("1080円", x: 530, y: 30, h: 10)]),
        ]
        let out = Self.parsed(lines)
        #expect(out.map(\.amount) == [108, 100, 1000, 1080])
        #expect(out.map(\.role) == [PriceRole.taxIncluded, .taxExcluded, .taxExcluded, .taxIncluded])
    }

    @Test("one text line with both (pricecam parse) keeps its order and marks both")
    func plainText() {
        let out = PriceParser(options: ParserOptions(currencyHint: "JPY")).parse(lines: [TextLine(text: "本体 398円 税込 429円")])
        #expect(out.map(\.amount) == [398, 429])
        #expect(out.map(\.role) == [PriceRole.taxExcluded, .taxIncluded])
    }

    @Test(
        "no pair: a tax word on one line only, amounts no tax rate apart, or tags far apart",
        arguments: [
            ["Total excl GST 28.58", "Cash 30.30"],
            ["本体 398円", "税込 998円"],
            ["incl. VAT 10.00", "excl. VAT 10.00"],
        ])
    func noPair(_ texts: [String]) {
        let lines = texts.enumerated().map { i, t in
            TextLine(
                words: t.split(separator: " ").enumerated().map { j, w in Self.word(String(w), x: 10 + 60 * j, y: 10 + 14 * i, h: 10) })
        }
        #expect(Self.parsed(lines, hint: "MYR").allSatisfy { $0.role == nil || $0.role == .total })
    }

    @Test("two tags' prices a tax rate apart but a shelf apart are no pair")
    func farApart() {
        let lines = [
            TextLine(words: [Self.word("本体", x: 10, y: 10, h: 10), Self.word("398円", x: 40, y: 10, h: 10)]),
            TextLine(words: [Self.word("税込", x: 900, y: 400, h: 10), Self.word("429円", x: 930, y: 400, h: 10)]),
        ]
        #expect(Self.parsed(lines).allSatisfy { $0.role == nil })
    }
}
