import Foundation
import Geometry
import Testing
@testable import PriceParsing

/// Menus in currencies printed without a minor unit (CLDR cashDigits 0): the layout makes a
/// bare whole number a price (`MenuPrices`).
@Suite struct MenuPriceTests {
    func amounts(_ lines: [String], _ currency: String) -> [Decimal] {
        PriceParser(options: ParserOptions(currencyHint: currency)).parse(lines: lines.map(TextLine.init(text:))).map(\.amount)
            .sorted()
    }

    static func d(_ s: String) -> Decimal { Decimal(string: s, locale: Locale(identifier: "en_US_POSIX"))! }

    /// (lines, currency, the prices the menu prints) from the menus' own text.
    static let menus: [([String], String, [String])] = [
        // Traditional Chinese, TWD: dish then price; sizes; market price; a dish number
        (["牛肉麵 180", "A12. 紅燒牛肉麵 220", "小 120 大 150", "龍蝦 時價", "湯類", "營業時間 11:00-21:00"], "TWD", ["120", "150", "180", "220"]),
        (["牛肉麵180", "台北市信義路五段7號", "電話 02-2345-6789", "2樓 No. 12"], "TWD", ["180"]),
        // counts of pieces: the prices after them, not the counts
        (["Dumplings 6 pcs 120 / 10 pcs 180", "煎餃 6個 90"], "TWD", ["90", "120", "180"]),
        // English on a TWD menu: calories, a set for two, sizes
        (["Beef noodles (350 kcal) 180", "Set for 2 people 1280", "S 120 / L 150", "Since 1998"], "TWD", ["120", "150", "180", "1280"]),
        // Czech, CZK: rows end with the price; options by glass and bottle
        (["Svíčková na smetaně 245", "Plzeň 0,5 l 59", "Víno sklenka 89 / láhev 420", "Stůl 12"], "CZK", ["59", "89", "245", "420"]),
        // Vietnamese, VND (no minor unit): đ read as d; the house number after Số is none
        (["Chè ba màu 20.000d", "Phở bò 45.000 đ", "Số 12 phố Hàng Bạc"], "VND", ["20000", "45000"]),
        // Swedish, SEK
        (["Köttbullar med potatismos 149", "Kaffe 35", "Öppet 11-22"], "SEK", ["35", "149"]),
    ]

    @Test(arguments: menus) func menu(_ m: ([String], String, [String])) {
        #expect(amounts(m.0, m.1) == m.2.map(Self.d).sorted(), "\(m.0)")
    }

    /// Two-minor-unit currencies keep today's rule: a bare whole number in a row is no price
    /// (a quantity, an article number), decimals are.
    @Test func twoDigitCurrenciesAreUnchanged() {
        #expect(amounts(["Pizza Margherita 8", "Pasta 12,50"], "EUR") == [Self.d("12.50")])
        #expect(amounts(["Burger 15", "Fries 4.50"], "USD") == [Self.d("4.50")])
    }

    @Test func printedDigitsComeFromCLDR() {
        #expect(Currencies.printedDigits("TWD") == 0)
        #expect(Currencies.printedDigits("czk") == 0)
        #expect(Currencies.printedDigits("EUR") == 2)
        #expect(Currencies.printedDigits("JPY") == 0)
        #expect(Currencies.printedDigits("KWD") == 3)
    }
}
