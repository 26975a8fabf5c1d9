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

    /// A reference word makes the whole number after it a reference (`© 2024`, `No. 12`), never
    /// one printed with a decimal part: money (a receipt's row where OCR read a mark as `©`,
    /// sroie-dev 006).
    @Test func aDecimalAfterAReferenceWordIsMoney() {
        #expect(amounts(["70697 1 6.00 © 6.00 6.00"], "MYR") == ["6.00", "6.00", "6.00"].map(Self.d))
        #expect(amounts(["Menu © 2024", "Beef noodles 180"], "TWD") == [Self.d("180")])
    }

    /// A bare number after a marked one is looked for past the marked one's words: the `59`
    /// after `Pivo` is the beer's price, not the `59` of `59 Kč` after `Tel` read again.
    @Test func aBareNumberIsFoundPastAMarkedOne() {
        #expect(amounts(["Tel 59 Kč Pivo 59"], "CZK") == ["59", "59"].map(Self.d))
        #expect(amounts(["Tel 59 Kč Pivo 59 Kč"], "CZK") == ["59", "59"].map(Self.d))
    }

    /// Digits OCR read in a dot leader (a word of dots a few px tall) are no price; a price
    /// whose word box took in the leader's dots (wide, but as tall as the row's text) is, and
    /// so is a price beside a headline three times its height.
    @Test func digitsReadInDotsAreNone() {
        let leader = Self.row([("Clam", 83, 69), ("chowder", 163, 116)], y: 267, h: 23)
        var flat = leader
        flat.words.append(TextWord(text: "2.2", box: Box(x: 302, y: 287, width: 47, height: 4), confidence: 0.5))
        #expect(amounts([flat], "USD") == [])
        flat.words[2].box = nil  // no box: text as given
        #expect(amounts([flat], "USD") == [Self.d("2.2")])
        var wide = Self.row([("Apfelstrudel", 80, 158), ("Kuchen", 260, 90)], y: 706, h: 32)
        wide.words.append(TextWord(text: "8,50", box: Box(x: 359, y: 706, width: 450, height: 35), confidence: 0.9))
        #expect(amounts([wide], "EUR") == [Self.d("8.50")])
        let headline = TextLine(words: [
            TextWord(text: "SALE", box: Box(x: 10, y: 0, width: 300, height: 90), confidence: 0.9),
            TextWord(text: "NOW", box: Box(x: 320, y: 0, width: 220, height: 90), confidence: 0.9),
            TextWord(text: "$4.99", box: Box(x: 560, y: 60, width: 80, height: 28), confidence: 0.9),
        ])
        #expect(amounts([headline], "USD") == [Self.d("4.99")])
    }

    /// Two-minor-unit currencies keep today's rule: a bare whole number in a row is no price
    /// (a quantity, an article number), decimals are.
    @Test func twoDigitCurrenciesAreUnchanged() {
        #expect(amounts(["Pizza Margherita 8", "Pasta 12,50"], "EUR") == [Self.d("12.50")])
        #expect(amounts(["Burger 15", "Fries 4.50"], "USD") == [Self.d("4.50")])
    }

    /// A row of words, each (text, left, width) on baseline `y`, `h` tall.
    static func row(_ words: [(String, Int, Int)], y: Int, h: Int = 30) -> TextLine {
        TextLine(words: words.map { TextWord(text: $0.0, box: Box(x: $0.1, y: y, width: $0.2, height: h), confidence: 0.9) })
    }

    func amounts(_ lines: [TextLine], _ currency: String) -> [Decimal] {
        PriceParser(options: ParserOptions(currencyHint: currency)).parse(lines: lines).map(\.amount).sorted()
    }

    /// A match's words, and where the line's next match is looked for: after them, unless
    /// more digits follow in the same word.
    @Test func wordRangeMovesPastTheMatch() {
        let words = ["Flammkuchen", "Klein", "28", "Groß", "8"]
        #expect(MenuPrices.wordRange(of: "28", in: words, from: 0).map { [$0.first, $0.last, $0.next] } == [2, 2, 3])
        #expect(MenuPrices.wordRange(of: "8", in: words, from: 3).map { [$0.first, $0.last, $0.next] } == [4, 4, 5])
        let glued = ["Tea", "120/150"]
        #expect(MenuPrices.wordRange(of: "120", in: glued, from: 0).map { [$0.first, $0.last, $0.next] } == [1, 1, 1])
        #expect(MenuPrices.wordRange(of: "150", in: glued, from: 1).map { [$0.first, $0.last, $0.next] } == [1, 1, 2])
        #expect(
            MenuPrices.wordRange(of: "1 234,50", in: ["Sum", "1", "234,50"], from: 0).map { [$0.first, $0.last, $0.next] } == [1, 2, 3])
        #expect(MenuPrices.wordRange(of: "8", in: words, from: 5) == nil)
    }

    /// In any currency, a whole number that ends a row in the column of the page's marked whole
    /// prices is one (OCR lost its `¥`); out of the column, or beside a column of decimals, not.
    @Test func columnOfWholePrices() {
        let menu = [
            Self.row([("回锅肉", 100, 120), ("38元", 740, 60)], y: 100),
            Self.row([("扬州炒饭", 100, 160), ("¥42", 742, 58)], y: 150),
            Self.row([("麻婆豆腐", 100, 160), ("37", 765, 34)], y: 200),
            Self.row([("鱼香肉丝", 100, 160), ("54", 365, 34)], y: 250),
        ]
        #expect(amounts(menu, "CNY") == ["37", "38", "42"].map(Self.d))
        let receipt = [
            Self.row([("Milch", 100, 100), ("2,50", 740, 60)], y: 100), Self.row([("Brot", 100, 80), ("3,10", 740, 60)], y: 150),
            Self.row([("Artikel", 100, 120), ("12", 766, 34)], y: 200),
        ]
        #expect(amounts(receipt, "EUR") == ["2.50", "3.10"].map(Self.d))
    }

    /// A menu in a currency with cents that prints its prices as bare whole numbers: three or
    /// more rows ending in a whole number of two or more digits whose right edges line up are a
    /// price column, a one-digit number in it too; fewer, one-digit numbers alone, numbers of
    /// five digits, or a column that also holds decimals (a receipt's) are not.
    @Test func columnOfUnmarkedWholePrices() {
        let dishes = [("Bruschetta", "9"), ("Spaghetti carbonara", "14"), ("Lasagne al forno", "16"), ("Tiramisù", "12")]
        func menu(_ prices: [String], right: Int = 800) -> [TextLine] {
            zip(dishes, prices).enumerated().map { (k, d) in
                let w = 17 * d.1.count
                return Self.row([(d.0.0, 100, 14 * d.0.0.count), (".....", 420, 200), (d.1, right - w, w)], y: 100 + 50 * k)
            }
        }
        #expect(amounts(menu(dishes.map(\.1)), "EUR") == ["9", "12", "14", "16"].map(Self.d))
        #expect(amounts(menu(dishes.map(\.1)), "USD") == ["9", "12", "14", "16"].map(Self.d))
        // a row of options the column ends: each option's price
        var sizes = menu(dishes.map(\.1))
        sizes.append(
            Self.row(
                [
                    ("Mac", 100, 50), ("and", 160, 50), ("cheese", 220, 90), ("Small", 560, 80), ("8", 650, 17), ("Large", 700, 80),
                    ("17", 766, 34),
                ], y: 300))
        #expect(amounts(sizes, "USD") == ["8", "9", "12", "14", "16", "17"].map(Self.d))
        // the option's price holds the row's last one (`Klein 28 Groß 8`), or a one-digit
        // row end after it (fixture menus de_1, de_2)
        for (first, last) in [("28", "8"), ("18", "31")] {
            var options = menu(dishes.map(\.1))
            options.append(
                Self.row(
                    [
                        ("Flammkuchen", 100, 150), ("Klein", 560, 70), (first, 640, 17 * first.count), ("Groß", 700, 60),
                        (last, 800 - 17 * last.count, 17 * last.count),
                    ], y: 300))
            #expect(amounts(options, "EUR") == (["9", "12", "14", "16", first, last].map(Self.d)).sorted(), "Klein \(first) Groß \(last)")
        }
        // ... not when the row's last number is no column's
        sizes[3].words[2].text = "12,50"
        #expect(amounts(sizes, "USD").contains(Self.d("8")) == false)
        // one-digit values lined up make no column (a header block: `Kasse 5`, `Bediener 2`)
        let header = [("Kasse", "5"), ("Bediener", "2"), ("Terminal", "1")].enumerated().map { (k, d) in
            Self.row([(d.0, 100, 120), (d.1, 780, 17)], y: 100 + 50 * k)
        }
        #expect(amounts(header, "EUR") == [])
        // two rows make no column
        #expect(amounts(Array(menu(dishes.map(\.1)).prefix(3)), "EUR") == [])
        // five digits: a reference number, not a dish's price
        #expect(amounts(menu(["9", "14", "16", "12345"]), "EUR") == [])
        // a decimal in the column: a receipt's column; its whole numbers are counts
        #expect(amounts(menu(["9", "14", "16", "12,50"]), "EUR") == [Self.d("12.50")])
        // not lined up: numbers inside ragged text
        let ragged = zip(dishes, ["11", "14", "16", "12"]).enumerated().map { (k, d) in
            Self.row([(d.0.0, 100, 14 * d.0.0.count), (d.1, 120 + 14 * d.0.0.count, 34)], y: 100 + 50 * k)
        }
        #expect(amounts(ragged, "EUR") == [])
    }

    @Test func optionBeforeAMarkedPrice() {
        #expect(amounts(["酸辣汤 小份 93 大份 91元"], "CNY") == ["91", "93"].map(Self.d))
        // no marked price on the row: the bare numbers are not taken in a currency printed with decimals
        #expect(amounts(["酸辣汤 小份 93 大份 91"], "CNY") == [])
    }

    /// A year or a house number before its CJK reference word, even printed large.
    @Test func referenceEndingAfterTheNumber() {
        #expect(amounts(["創業 1998 年", "牛肉麵 180"], "TWD") == [Self.d("180")])
        let tall = [
            Self.row([("牛肉麵", 100, 90), ("¥180", 700, 60)], y: 100, h: 24),
            Self.row([("創業", 100, 50), ("1998", 155, 50), ("年", 210, 24)], y: 150, h: 24),
        ]
        var big = tall
        big[1].words[1].box = Box(x: 155, y: 140, width: 60, height: 48)
        #expect(amounts(big, "CNY") == [Self.d("180")])
    }

    /// A reference word of its own read unsurely is no reference: a shelf photo's packaging
    /// read `間` at 0 between two tags' prices left both taken for references. Read surely, the
    /// same words still make references; a reference glued to its number stays one however
    /// it was read (the number's own word).
    @Test func anUnsureReferenceWordIsNone() {
        func line(_ words: [(String, Double)]) -> TextLine {
            TextLine(words: words.map { TextWord(text: $0.0, confidence: $0.1) })
        }
        let shelf = [line([("35", 0.86), ("35", 0.92), ("99", 0.9), ("|", 0.95), ("39", 0.92), ("間", 0), ("79", 0.92)])]
        #expect(amounts(shelf, "JPY") == ["35", "35", "39", "79", "99"].map(Self.d))
        var sure = shelf
        sure[0].words[5].confidence = 0.9
        #expect(amounts(sure, "JPY") == ["35", "35", "99"].map(Self.d))
        #expect(
            amounts([line([("No.", 0.3), ("12", 0.9)]), line([("Beef", 0.9), ("noodles", 0.9), ("180", 0.9)])], "TWD")
                == ["12", "180"].map(Self.d))
        #expect(
            amounts([line([("No.", 0.9), ("12", 0.9)]), line([("Beef", 0.9), ("noodles", 0.9), ("180", 0.9)])], "TWD")
                == [Self.d("180")])
        #expect(amounts([line([("創業", 0.9), ("1998年", 0.2)]), line([("牛肉麵", 0.9), ("180", 0.9)])], "TWD") == [Self.d("180")])
    }

    /// A house number among prices in the tens of thousands is none.
    @Test func tinyNumbersAmongLargePrices() {
        let menu = ["불고기 25000", "비빔밥 9500", "김치찌개 8000", "냉면 22000", "갈비 30000", "서울시 중구 명동 12"]
        #expect(amounts(menu, "KRW") == ["8000", "9500", "22000", "25000", "30000"].map(Self.d))
        // a short page says nothing about its prices' range
        #expect(amounts(["명동 12", "불고기 25000"], "KRW") == ["12", "25000"].map(Self.d))
    }

    /// A row's item number (`23.`, `7)`) before its dish and price is no price, in currencies
    /// that take every bare whole number too; a row whose one number it is keeps it.
    @Test func itemNumberBeforeTheDish() {
        #expect(amounts(["23. 김치찌개 (390 kcal) 9,500", "69. 된장찌개 18,000"], "KRW") == ["9500", "18000"].map(Self.d))
        #expect(amounts(["7) ラーメン 890", "12. 餃子 450円"], "JPY") == ["450", "890"].map(Self.d))
        #expect(amounts(["3. Phở bò 45.000đ"], "VND") == [Self.d("45000")])
        #expect(amounts(["3. Milk 1.99", "4. Bread 2.49"], "EUR") == ["1.99", "2.49"].map(Self.d))
        // alone on its row, or with no text after it, the number is left to the other rules
        #expect(amounts(["Bibimbap", "9500."], "KRW") == [Self.d("9500")])
        #expect(amounts(["12. 9500"], "KRW") == ["12", "9500"].map(Self.d))
        // a frame or bullet read as punctuation before the number
        #expect(amounts(["(61. 된장찌개 25,000", "^&18. 제육볶음 20,000"], "KRW") == ["20000", "25000"].map(Self.d))
    }

    /// A number that opens a parenthesis before the row's price is a note on the dish, its
    /// unit read or not; at the row's end it is left to the other rules.
    @Test func noteBeforeThePrice() {
        #expect(amounts(["된장찌개 (390 <!) 18,000", "비빔밥 (320 3!@ 28,500"], "KRW") == ["18000", "28500"].map(Self.d))
        #expect(amounts(["餃子 (6 個) 450", "ラーメン (500g) 890"], "JPY") == ["450", "890"].map(Self.d))
        #expect(amounts(["Bánh mì (12000)"], "VND") == [Self.d("12000")])
    }

    @Test func printedDigitsComeFromCLDR() {
        #expect(Currencies.printedDigits("TWD") == 0)
        #expect(Currencies.printedDigits("czk") == 0)
        #expect(Currencies.printedDigits("EUR") == 2)
        #expect(Currencies.printedDigits("JPY") == 0)
        #expect(Currencies.printedDigits("KWD") == 3)
    }
}
