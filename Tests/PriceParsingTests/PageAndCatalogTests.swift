import Foundation
import Geometry
import Testing
@testable import PriceParsing

@Suite struct CurrencyCatalogTests {
    static let minor: [(String, Int)] = [
        ("JPY", 0), ("KRW", 0), ("jpy", 0), ("VND", 0), ("ISK", 0), ("CLP", 0), ("KWD", 3), ("BHD", 3), ("OMR", 3),
        ("JOD", 3), ("TND", 3), ("LYD", 3), ("IQD", 3), ("EUR", 2), ("USD", 2), ("GBP", 2), ("CHF", 2), ("INR", 2),
        ("XYZ", 2), ("", 2), ("CLF", 4),
    ]
    @Test(arguments: minor) func minorUnits(_ c: (String, Int)) {
        #expect(Currencies.minorUnits(c.0) == c.1, "\(c.0)")
    }

    static let known: [(String, Bool)] = [
        ("EUR", true), ("usd", true), ("JPY", true), ("TWD", true), ("KWD", true), ("XAF", true), ("XYZ", false),
        ("EU", false), ("EURO", false), ("XXX", false), ("XTS", false), ("ABC", false), ("", false),
    ]
    @Test(arguments: known) func isKnown(_ c: (String, Bool)) {
        #expect(Currencies.isKnown(c.0) == c.1, "\(c.0)")
    }
}

@Suite struct PageTotalTests {
    func totals(_ lines: [String], hint: String? = nil) -> [Decimal] {
        PriceParser(options: ParserOptions(currencyHint: hint)).parse(lines: lines.map(TextLine.init(text:)))
            .filter { $0.role == .total }.map(\.amount)
    }

    static let receipts: [([String], String?)] = [
        (["Milch 2,59", "Brot 2,59", "Summe 5,18"], "5.18"),
        (["Milch 2,59 A", "Butter 2,59 A", "zu zahlen 7,16", "Bar 10,00", "Rückgeld 2,84"], "7.16"),
        (["ARTIKEL 1,99", "TOTAL 12,50"], "12.50"),
        (["ARTIKEL 1,99", "T0TAL 12,50"], "12.50"),
        (["ARTIKEL 1,99", "TOTA1 12,50"], "12.50"),
        (["ARTIKEL 1,99", "5UMME EUR 12,50"], "12.50"),
        // a keyword OCR read in two pieces (a line's box read alone)
        (["Ara toplam 36,06", "KDV 10% 3,28", "TOP LAM 36,06", "Nakit 40,00", "Para üstü 3,94"], "36.06"),
        (["ARTIKEL 1,99", "TOP LAM 36,06", "Kart 50,00"], "36.06"),
        (["Gesamtbetrag", "23,40 €"], "23.40"),
        (["Zwischensumme 10,00", "Rabatt -1,00", "Gesamt 9,00"], "9.00"),
        (["Subtotal $10.00", "Tax $0.80", "Total $10.80"], "10.80"),
        (["TOTAL TTC 15,60 €"], "15.60"),
        (["Totale EUR 8,00"], "8.00"),
        (["Totaal € 8,00"], "8.00"),
        (["Suma PLN 8,00"], "8.00"),
        (["Итого 350,00 ₽"], "350.00"),
        (["ラーメン ¥850", "合計 ¥1,280"], "1280"),
        (["合计 ¥38"], "38"),
        (["총액 12,000원"], "12000"),
        (["Betrag 4,50"], "4.50"),
        (["Total 579"], "579"),
        // A total line below the payment is not the amount paid (a second Summe after the
        // cash line is the change or a summary).
        (["Summe 5,18", "Bar 10,00", "Summe 4,82"], "5.18"),
        (["Milch 2,59", "Brot 1,99"], nil),
        (["Total", "Danke"], nil),
    ]

    /// Receipts that repeat the total word on lines that are not the total: the words, the
    /// position before the payment and the arithmetic decide (`TotalChoice`).
    static let choices: [([String], String?)] = [
        // the VAT table below the payment says Total, and Betrag
        (
            [
                "Milch 2,59", "Brot 1,99", "ZU ZAHLEN EURO 4,58", "BARGELD 10,00", "ZURUCK 5,42", "MWST Netto MWST-BETRAG BRUTTO",
                "A 7,00% 4,28 0,30 4,58",
            ], "4.58"
        ),
        // excluding and including tax, then a tax summary with its own Total
        (
            [
                "Item 40.00", "Total Sales (Excluding GST) : 42.20", "Discount : 0.00", "Total GST : 2.53", "Rounding 0.00",
                "Total Sales (Inclusive of GST) : 44.73", "CASH : 50.00", "Change : 5.27", "GST SUMMARY", "SR 6 42.20 2.53",
                "Total : 42.20 2.53",
            ], "44.73"
        ),
        // two totals of one size: cash less change says which
        (["Total 0.00", "Total Sales : 327.00", "Total 12.00", "CASH : 350.00", "Change : 23.00"], "327.00"),
        // no cash: the lines above add up to the total, the subtotal is not it
        (["Sub Total RM 68.87", "Service Charge RM 0.00", "GST 6% RM 4.13", "TOTAL RM 73.00", "Total Qty 3"], "73.00"),
        (["Subtotal 10.00", "Total incl. VAT 12.00"], "12.00"),
        (["Subtotal 10.00", "Tax 0.80", "Total 10.80", "Total Items 3"], "10.80"),
        // a card payment repeats the total
        (["Summe 18,01", "Steuer 1,20", "Netto 16,81", "Total 3,00", "EC-Karte 18,01"], "18.01"),
        // the total word misread: cash less change finds the total above the payment
        (["Milch 2,59", "T0TL 7,16", "Bar 10,00", "Rückgeld 2,84", "Summe MwSt 0,47"], "7.16"),
        // the cash handed over (misread, no change read) is an item's price: not the total
        (["Kabel 14.00", "Stecker 3.00", "TOTAL 16.00", "CASH 14.00", "CHANGE o.0c"], "16.00"),
        // the rounded total right above an exact cash payment
        (["Total Sales 27.28", "Rounding Adjustment 0.02", "Rounding 27.30", "CASH 27.30", "CHANGE «00"], "27.30"),
        // only a line that names the tax: no total rather than a wrong one
        (["Slice Cake 8.70", "(Total included GST @ 6%: 1.42)"], nil),
        // the total's amount unread: the cash on the next line is not it
        (["BRILLENPUTZTUCH €1,95 A", "Total Poh", "Bar €2,00", "Rückgeld (Bar) 0,05"], "1.95"),
        // the total's amount unread, a tax line's zero on the next line: not the amount to pay
        (["Nasi Lemak RM 8.50", "Total Amount:", "GST 0% RM0.00", "Rounding RM0.02"], nil),
        // ... nor the VAT table's total below the payment, which has the amount paid
        (["BRILLENPUTZTUCH €1,95 A", "Total Poh", "Bar €2,00", "Rückgeld (Bar) 0,05", "MwSt Total 1,64 0,31 1,95"], "1.95"),
        // the cash word misread: the line right above the change is the money handed over
        (["Sub Total RM 68.87", "GST 6% RM 4.13", "TOP: RM 73.00", "CAL g RM 73.00", "CHANGE: RM 0.00"], "73.00"),
        (["Total 8.70", "Fea Total 777870", "ASH 10.00", "CHANGE 1.30"], "8.70"),
        // the tax word on the total: net and tax above add up to it, so the tax is in it
        (
            [
                "Total (Excluding GST): 28.58", "GST payable (6%): 1.72", "Totale(inctusive of GST): 30.30", "CASH : 50.60",
                "CHANGE : 19.70",
            ], "30.30"
        ),
        // the final total after subtotals that add up: the payment decides
        (
            [
                "Total 0% supplies: 27.45", "Total 6% supplies (excl. GST): 21.84", "GST 1.31", "Total 6% supplies (Inc. GST): 23.15",
                "TOTAL: 50.60", "CASH : 50.60",
            ], "50.60"
        ),
        // accents misread (`Espéces`): cash less change still repairs the total read `1,31`
        (["Baguette 5,38", "Sous-total 21,31", "TOTAL TTC 7a 1,31", "Espéces 50,00", "Rendu 28,69"], "21.31"),
        // the tax's own 合計 after the payment
        (["ラーメン ¥850", "合計 ¥1,280", "お預り ¥2,000", "お釣 ¥720", "消費税合計 ¥116"], "1280"),
        // a total line without an amount right over the payment, no change: the payment is it
        (["PPF P7 1.000 50 99.00", "TOTAL AMOUNT", "CASH RM 50.00", "Thank You"], "50.00"),
        // ... nor under a subtotal's name
        (["PPF P7 1.000 50 99.00", "SUBTOTAL", "CASH RM 50.00"], nil),
        // a total line whose amount OCR lost, over cash and change: the amount paid is put on it
        (["PPF P7 1.000 50 99.00", "TOTAL AMOUNT", "CASH RM 50.00", "CHANGE RM 4.00"], "46.00"),
        (["2 27755 5.80 11.60", "Total incl aeive GST: =)", "CASH “20.00", "Change 9.55"], "10.45"),
        // ... not on a line that names another amount, nor when the total line has an amount
        (["PPF P7 1.000 50 99.00", "SUBTOTAL", "CASH RM 50.00", "CHANGE RM 4.00"], nil),
        (["Item 12.00", "TOTAL 12.00", "CASH 20.00", "CHANGE 9.55"], "12.00"),
        // cash printed as a credit: its size is what was handed over (not `Fee Total 9.60`)
        (["Total 9.90", "Fee Total 9.60", "Cash -20.00", "CHANGE 10.10"], "9.90"),
        (["Total 9.90", "Fee Total 9.60", "Cash 20.00", "CHANGE -10.10"], "9.90"),
        // what a loyalty card saved is another amount
        (["Item 4.50", "Total 4.50", "Total Savings 1.20"], "4.50"),
        // a zero on a later total line of the same score is no amount to pay ...
        (["Item 4.50", "TOTAL 4.50", "Voucher Total 0.00"], "4.50"),
        (["Voucher Total 0.00", "TOTAL 4.50"], "4.50"),
        // ... unless nothing else is
        (["Void", "TOTAL 0.00"], "0.00"),
        // ... nor when its amount is on the next line (the change misread: 16.00 for 10.00)
        (["2 x 95.00 190.00 SR", "Total (Inclusive of GST): e000", "(190. 00", "CASH : 200.00", "CHANGE : 16.00"], "190.00"),
    ]

    @Test(arguments: choices) func choice(_ r: ([String], String?)) {
        let want = r.1.map { [Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX"))!] } ?? []
        #expect(totals(r.0) == want, "\(r.0)")
    }

    @Test(arguments: receipts) func total(_ r: ([String], String?)) {
        let want = r.1.map { [Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX"))!] } ?? []
        #expect(totals(r.0) == want, "\(r.0)")
    }

    @Test("the page confirms a total printed again, paid, or the sum of the lines above; never a zero")
    func confirmsTotal() {
        let parser = PriceParser(options: ParserOptions(currencyHint: "MYR"))
        func confirms(_ lines: [String], _ amount: String, line: Int) -> Bool {
            parser.confirmsTotal(Decimal(string: amount)!, line: line, of: lines.map(TextLine.init(text:)))
        }
        #expect(confirms(["Item 4.50", "TOTAL 9.90", "VISA 9.90"], "9.90", line: 1))
        #expect(confirms(["Item 4.50", "TOTAL 9.90", "CASH 20.00", "CHANGE 10.10"], "9.90", line: 1))
        #expect(confirms(["Subtotal 9.34", "GST 0.56", "TOTAL 9.90"], "9.90", line: 2))
        #expect(!confirms(["Subtotal 9.34", "GST 0.56", "TOTAL 9.90"], "9.80", line: 2))
        #expect(!confirms(["Item 4.50", "TOTAL 9.90", "CASH 20.00", "CHANGE 10.00"], "9.90", line: 1))
        #expect(!confirms(["Discount 0.00", "TOTAL 0.00", "Change 0.00"], "0", line: 1))
    }

    @Test func tallerTotalWins() {
        func line(_ words: [(String, Int)], y: Int, h: Int) -> TextLine {
            TextLine(words: words.map { TextWord(text: $0.0, box: Box(x: $0.1, y: y, width: 40, height: h), confidence: 0.9) })
        }
        let page = [
            line([("TOTAL", 10), ("12,50", 200)], y: 100, h: 60),
            line([("Total", 10), ("inkl.", 60), ("MwSt", 110), ("0,80", 200)], y: 200, h: 20),
        ]
        let ms = PriceParser().parse(lines: page)
        #expect(ms.filter { $0.role == .total }.map(\.amount) == [Decimal(string: "12.50")!])
        #expect(ms.first?.box == Box(x: 200, y: 100, width: 40, height: 60))
    }

    @Test("a later total of the same score read under a third as surely gives way; within that ratio the later stays")
    func surerTotalWins() {
        func page(final: Double) -> [TextLine] {
            [
                ("Total 3.00", 0.9), ("Round Adj 0.00", 0.9), ("Final Total 3.60", final), ("CASH 3.06", 0.85),
                ("CHANGE 0.00", 0.9),
            ].map { t, c in TextLine(words: t.split(separator: " ").map { TextWord(text: String($0), confidence: c) }) }
        }
        let parser = PriceParser(options: ParserOptions(currencyHint: "MYR"))
        #expect(parser.parse(lines: page(final: 0.2)).filter { $0.role == .total }.map(\.amount) == [Decimal(string: "3.00")!])
        #expect(parser.parse(lines: page(final: 0.4)).filter { $0.role == .total }.map(\.amount) == [Decimal(string: "3.60")!])
    }

    @Test func boxesAndConfidenceComeFromTheWordsUsed() {
        let line = TextLine(words: [
            TextWord(text: "Milch", box: Box(x: 0, y: 0, width: 50, height: 20), confidence: 0.99),
            TextWord(text: "€", box: Box(x: 100, y: 0, width: 10, height: 20), confidence: 0.5),
            TextWord(text: "2,59", box: Box(x: 115, y: 2, width: 40, height: 20), confidence: 0.9),
        ])
        let m = PriceParser().parse(line)
        #expect(m.count == 1)
        #expect(m[0].box == Box(x: 100, y: 0, width: 55, height: 22))
        #expect(m[0].marker == "€")
        #expect(m[0].text == "€ 2,59")
        #expect(abs(m[0].confidence - (0.5 * 0.7 + 0.5 * 0.5)) < 1e-9)
        let ambiguous = PriceParser().parse(text: "€1.234")
        #expect(ambiguous[0].confidence < 0.7)
    }

    @Test func wideGapDoesNotJoinGroups() {
        // "3 199,00" where the 3 is a quantity far to the left on the image
        let line = TextLine(words: [
            TextWord(text: "3", box: Box(x: 0, y: 0, width: 10, height: 20)),
            TextWord(text: "199,00", box: Box(x: 300, y: 0, width: 60, height: 20)),
        ])
        #expect(PriceParser().parse(line).map(\.amount) == [Decimal(string: "199.00")!])
        #expect(PriceParser().parse(text: "3 199,00").map(\.amount) == [Decimal(string: "3199.00")!])
    }
}

@Suite struct ScaleTests {
    /// A 1 MB line of mixed receipt text parses completely (no timing assertion:
    /// figures belong to scripts/bench-parser.sh).
    @Test func oneMegabyteLine() {
        let unit = "Milch 1,5 L 2,59 € 25.12.2018 17:37 +49 30 1234567 1.234,56 € -0,50 19% x2 "
        var text = ""
        text.reserveCapacity(1_100_000)
        while text.utf8.count < 1_000_000 { text += unit }
        let ms = PriceParser().parse(text: text)
        let repeats = text.utf8.count / unit.utf8.count
        #expect(ms.count == repeats * 3)
    }

    @Test func oneMegabyteOfDigitsAndSeparators() {
        let text = String(repeating: "1,2.3 4'5", count: 120_000)
        _ = PriceParser(options: ParserOptions(bareNumbers: .all)).parse(text: text)
        let digits = String(repeating: "9", count: 1_000_000)
        #expect(PriceParser().parse(text: "€" + digits).isEmpty)
        let oes = "1" + String(repeating: "O", count: 1_000_000)
        _ = PriceParser().parse(text: oes)
    }

    /// Linearity, loosely: 8× the input must not cost 64× the time.
    @Test func roughlyLinear() {
        let unit = "Brot 1,99 € Käse 3,49 € 12:30 "
        func time(_ n: Int) -> Double {
            let text = String(repeating: unit, count: n)
            let t0 = ContinuousClock.now
            _ = PriceParser().parse(text: text)
            let d = ContinuousClock.now - t0
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        _ = time(500)
        let small = time(2_000), big = time(16_000)
        #expect(big < max(small, 0.001) * 40)
    }
}
