import Conversion
import Foundation
import Geometry
import History
import Pipeline
import PriceParsing
import Testing

@Suite("a converted price as a history row")
struct PriceHistoryTests {
    static func match(_ text: String) throws -> PriceMatch {
        let line = TextLine(words: [TextWord(text: text, box: Box(x: 10, y: 20, width: 30, height: 40), confidence: 0.9)])
        return try #require(PriceParser(options: ParserOptions(currencyHint: "JPY")).parse(line).first)
    }

    @Test func everyFieldComesFromTheMatchAndItsConversion() throws {
        let m = try Self.match("¥1,280")
        let converted = ConvertedAmount(value: Decimal(string: "7.81")!, rate: Decimal(string: "0.0061")!, target: "EUR")
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        let row = try #require(HistoryEntry(PricedMatch(match: m, conversion: converted), source: "menu.jpg", runID: "run-1", time: time))
        #expect(row.source == "menu.jpg" && row.runID == "run-1" && row.time == time)
        #expect(row.rawText == m.text && row.amount == Decimal(1280) && row.currency == "JPY")
        #expect(row.rate == Decimal(string: "0.0061")! && row.converted == Decimal(string: "7.81")! && row.home == "EUR")
        #expect(row.confidence == m.confidence && row.box == m.box?.array)
    }

    @Test func aPriceNotConvertedMakesNoRow() throws {
        #expect(HistoryEntry(PricedMatch(match: try Self.match("¥1,280"), conversion: nil), source: "a", runID: "r") == nil)
    }
}
