import Foundation
import Geometry
import Testing

@testable import PriceParsing

/// Cash less change checks the total read above them (made-up receipts, as OCR reads them:
/// each word with its confidence).
@Suite struct ReceiptArithmeticTests {
    /// A line of words, every word read at `confidence`.
    static func line(_ text: String, _ confidence: Double) -> TextLine {
        TextLine(words: text.split(separator: " ").map { TextWord(text: String($0), confidence: confidence) })
    }

    static func amounts(_ lines: [TextLine], currency: String? = "MYR") -> [Decimal] {
        PriceParser(options: ParserOptions(currencyHint: currency)).parse(lines: lines).map(\.amount)
    }

    static func d(_ s: String) -> Decimal { Decimal(string: s)! }

    @Test("a total misread where cash less change is sure becomes that difference, flagged repaired")
    func misreadTotalRepaired() {
        let lines = [
            Self.line("Total Inclusive GST: 740.45", 0.4), Self.line("CASH 20.00", 0.9), Self.line("Change 9.55", 0.95),
        ]
        #expect(Self.amounts(lines) == [Self.d("10.45"), Self.d("20.00"), Self.d("9.55")])
        let total = PriceParser(options: ParserOptions(currencyHint: "MYR")).parse(lines: lines)[0]
        #expect(total.flags.contains(.repaired) && total.text.contains("740.45"), "\(total)")
    }

    /// (case, lines, currency, the total after the check).
    static let repaired: [(String, [TextLine], String, String)] = [
        ("German Gegeben/Rückgeld", [line("SUMME 58,20", 0.5), line("Gegeben 60,00", 0.9), line("Rückgeld 6,80", 0.9)], "EUR", "53.20"),
        ("French Espèces/Rendu", [line("TOTAL 15,90", 0.5), line("Espèces 20,00", 0.9), line("Rendu 4,60", 0.9)], "EUR", "15.40"),
        ("Japanese お預り/お釣", [line("合計 ¥1,880", 0.5), line("お預り ¥2,000", 0.9), line("お釣 ¥320", 0.9)], "JPY", "1680"),
        (
            "a card payment the page prints twice, one digit off a total read less surely",
            [line("SUMME 434,39", 0.5), line("EC LASTSCHRIFT 134,39", 0.9), line("EUR 134,39", 0.8)], "EUR", "134.39"
        ),
        (
            "a zero alone on the line under the cash is the change whose word was lost (exact cash)",
            [line("NET TOTAL 2.25", 0.6), line("Cash 22.25", 0.85), line("a - 0.00", 0.85)], "MYR", "22.25"
        ),
        (
            "compared with the digits as printed: `19,416` (parsed as thousands) is one edit from the card's",
            [line("SUMME EUR 19,416", 0.4), line("MasterCard EUR 19,46", 0.9), line("Betrag 19,46", 0.9)], "EUR", "19.46"
        ),
        (
            "no line names the total (its word misread too): the priced line right above the cash",
            [line("Jotat Incl, gsteex RM 87.10", 0.6), line("CASH RM 50.00", 0.65), line("CHANGE RM 12.90", 0.7)], "MYR", "37.10"
        ),
        (
            "a total read more surely than the cash (its marker), but more than the cash handed over with change given back",
            [line("Jotat Incl, gsteex RM 87.10", 0.9), line("CASH 50.00", 0.65), line("CHANGE 12.90", 0.7)], "MYR", "37.10"
        ),
        (
            "a total line named, read surely, more than the cash handed over with change given back",
            [line("TOTAL RM 87.10", 0.95), line("CASH 50.00", 0.65), line("CHANGE 12.90", 0.7)], "MYR", "37.10"
        ),
        (
            "a total read surely, one digit off cash less change that the VAT table prints too",
            [line("zu zahlen 1,16", 0.9), line("Bar 10,00", 0.9), line("Rückgeld 2,84", 0.7), line("Summe 0,47 6,69 7,16", 0.9)],
            "EUR", "7.16"
        ),
    ]

    @Test("the same check in other languages and with a card payment", arguments: repaired)
    func repairedTotal(_ c: (String, [TextLine], String, String)) {
        #expect(Self.amounts(c.1, currency: c.2).first == Self.d(c.3), "\(c.0)")
    }

    @Test("the line above cash and change, its total word misread, is repaired and marked the total")
    func unnamedTotalAboveTheCash() {
        let matches = PriceParser(options: ParserOptions(currencyHint: "MYR")).parse(lines: [
            Self.line("Qty(s) : 7", 0.6), Self.line("Jotat Incl, gsteex RM 87.10", 0.6), Self.line("CASH RM 50.00", 0.65),
            Self.line("CHANGE RM 12.90", 0.7),
        ])
        let total = matches.first { $0.role == .total }
        #expect(total?.amount == Self.d("37.10") && total?.flags.contains(.repaired) == true, "\(matches)")
    }

    @Test("exact cash one digit off a total read less surely repairs it when the lines above add up to the cash")
    func exactCashTheLinesAboveAddUpTo() {
        let parser = PriceParser(options: ParserOptions(currencyHint: "MYR"))
        func total(tax: String) -> PriceMatch? {
            parser.parse(lines: [
                Self.line("11.32", 0.8), Self.line("6% GST \(tax)", 0.8), Self.line("TOTAL 12.060", 0.3), Self.line("CASH 12.00", 0.5),
            ]).first { $0.role == .total }
        }
        #expect(total(tax: "0.68")?.amount == Self.d("12.00") && total(tax: "0.68")?.flags.contains(.repaired) == true)
        // Lines that do not add up to it leave the reading (parsed as thousands) as it was.
        #expect(total(tax: "0.70")?.amount == Self.d("12060"), "\(String(describing: total(tax: "0.70")))")
    }

    @Test(
        "a total read as surely as the exact cash, one digit off, is repaired when the lines above add up to the cash, a rounding's lost minus either way"
    )
    func tieBrokenByTheLinesAbove() {
        let parser = PriceParser(options: ParserOptions(currencyHint: "MYR"))
        func total(rounding: String) -> PriceMatch? {
            parser.parse(lines: [
                Self.line("SUB TOTAL 21.00", 0.9), Self.line("GST 6% 1.26", 0.9), Self.line(rounding, 0.9),
                Self.line("NET TOTAL 2.25", 0.63),
                Self.line("Cash 22.25", 0.63), Self.line("0.00", 0.9),
            ]).first { $0.role == .total }
        }
        // 21.00 + 1.26 - 0.01: the rounding's minus lost.
        #expect(total(rounding: "ROUNDING ADJ 0.01")?.amount == Self.d("22.25"))
        #expect(total(rounding: "ROUNDING ADJ 0.01")?.flags.contains(.repaired) == true)
        // Not a rounding line, or not a rounding's size: nothing adds up, and a tie repairs nothing.
        #expect(total(rounding: "SERVICE 0.01")?.amount == Self.d("2.25"))
        #expect(total(rounding: "ROUNDING ADJ 0.02")?.amount == Self.d("2.25"))
    }

    static let leftAlone: [(String, [TextLine])] = [
        ("a card payment printed once", [line("SUMME 28.81", 0.6), line("Mastercard 26.81", 0.9)]),
        (
            "two digits from a card payment printed twice",
            [line("SUMME 28.87", 0.5), line("Mastercard 26.81", 0.9), line("Betrag 26.81", 0.9)]
        ),
        ("agrees", [line("TOTAL 10.45", 0.4), line("CASH 20.00", 0.9), line("CHANGE 9.55", 0.9)]),
        (
            "far from the difference (a tip, a second payment)",
            [line("TOTAL 88.10", 0.4), line("CASH 20.00", 0.9), line("CHANGE 9.55", 0.9)]
        ),
        ("surer than the cash", [line("TOTAL 10.46", 0.95), line("CASH 20.00", 0.9), line("CHANGE 9.55", 0.9)]),
        (
            "surer than the exact cash and more than it (the cash may be the misread one)",
            [line("TOTAL RM 39.75", 0.95), line("CASH 30.75", 0.65), line("CHANGE 0.00", 0.9)]
        ),
        (
            "surer than the cash and more than it, the cash it needs as near the cash read as the difference is to it",
            [line("TOTAL RM 57.10", 0.95), line("CASH 50.00", 0.65), line("CHANGE 2.90", 0.7)]
        ),
        (
            "surer than the cash and more than it, beside a card paying the rest",
            [line("TOTAL RM 87.10", 0.95), line("VISA 40.00", 0.9), line("CASH 50.00", 0.65), line("CHANGE 12.90", 0.7)]
        ),
        (
            "confirmed by subtotal and tax above it (the cash is the misread one)",
            [
                line("SUBTOTAL 28.58", 0.9), line("GST 1.72", 0.9), line("TOTAL 30.30", 0.5), line("CASH 50.60", 0.6),
                line("CHANGE 19.70", 0.8),
            ]
        ),
        (
            "confirmed by the same amount on another line",
            [line("TOTAL 30.30", 0.5), line("CASH 50.60", 0.9), line("CHANGE 19.70", 0.9), line("PAID 30.30", 0.9)]
        ),
        (
            "a subtotal above it within a cash rounding (the change is the misread one)",
            [line("Sub-total 46.54", 0.7), line("Total 46.55", 0.5), line("CASH 100.00", 0.9), line("Change 3.45", 0.6)]
        ),
        (
            "a total above it nearer the reading than the cash is (the cash may be the misread one)",
            [
                line("Total 3.00", 0.95), line("Round Adj 0.00", 0.95), line("Final Total 3.60", 0.2), line("CASH 3.06", 0.85),
                line("CHANGE 0.00", 0.95),
            ]
        ),
        ("no change line", [line("TOTAL 10.46", 0.4), line("CASH 20.00", 0.9)]),
        ("no line names the total, paid by card (one reading against one)", [line("MILO 28.87", 0.5), line("Mastercard 26.81", 0.9)]),
        (
            "no line names the total, the line above the cash far from cash less change",
            [line("MILO 88.10", 0.4), line("CASH 20.00", 0.9), line("CHANGE 9.55", 0.9)]
        ),
        (
            "a zero under the cash that names another amount",
            [line("TOTAL 2.25", 0.6), line("CASH 22.25", 0.9), line("Rounding 0.00", 0.9)]
        ),
        ("too few digits to tell", [line("TOTAL 0.80", 0.4), line("CASH 1.00", 0.9), line("CHANGE 0.50", 0.9)]),
    ]

    @Test("a total is left as read when", arguments: leftAlone)
    func leftAsRead(_ c: (String, [TextLine])) {
        let parser = PriceParser(options: ParserOptions(currencyHint: "MYR"))
        let each = c.1.flatMap { parser.parse($0) }.map(\.amount)
        #expect(Self.amounts(c.1) == each, "\(c.0)")
    }

    /// Lines of a Malaysian receipt whose total's `5` OCR read as `$` (sroie-dev 329, dim).
    static func payable(_ total: String, tax: String = "13.74") -> [TextLine] {
        [line("Total 0% supplies: 39.40", 0.8), line("Total 6% supplies (Inc. GST): \(tax)", 0.8), line("Total Payable: \(total)", 0.5)]
    }

    @Test("a total's `5` read as `$` is restored when two amounts above add up to it")
    func fiveRestored() {
        for total in ["$3.14", "S3.14"] {
            let matches = PriceParser(options: ParserOptions(currencyHint: "MYR")).parse(lines: Self.payable(total))
            let marked = matches.first { $0.role == .total }
            #expect(marked?.amount == Self.d("53.14") && marked?.currency == "MYR", "\(total): \(matches)")
            #expect(marked?.flags.contains(.repaired) == true && marked?.marker == nil, "\(total)")
        }
    }

    @Test(
        "a total read with `$` stays when",
        arguments: [
            ("the stored currency prints `$`", payable("$3.14"), "USD"),
            ("no currency is stored", payable("$3.14"), nil),
            ("nothing above adds up to it", payable("$3.14", tax: "13.70"), "MYR"),
            (
                "the amount as read adds up",
                [line("Items 1.14", 0.8), line("Tax 2.00", 0.8), line("Total $3.14", 0.5), line("Paid 53.14", 0.8)], "MYR"
            ),
        ] as [(String, [TextLine], String?)])
    func dollarLeft(_ c: (String, [TextLine], String?)) {
        let marked = PriceParser(options: ParserOptions(currencyHint: c.2)).parse(lines: c.1).first { $0.role == .total }
        #expect(marked?.amount == Self.d("3.14"), "\(c.0)")
    }

    @Test("cash less change put on a total line read empty is in the stored currency, written with its decimals")
    func paidOnEmptyTotalLine() {
        let lines = [
            Self.line("Tota! Sales {Inclusive G57) &K Dt, SE", 0.5), Self.line("CASH RF 21.00", 0.85), Self.line("CHANGE RM .20", 0.9),
        ]
        let total = PriceParser(options: ParserOptions(currencyHint: "MYR")).parse(lines: lines).first { $0.role == .total }
        #expect(total?.amount == Self.d("20.8") && total?.currency == "MYR" && total?.text == "20.80", "\(String(describing: total))")
        #expect(total?.flags.contains(.repaired) == true)
    }

    @Test func editDistance() {
        #expect(ReceiptArithmetic.edits(Array("74045"), Array("1045")) == 2)
        #expect(ReceiptArithmetic.edits(Array("5520"), Array("5320")) == 1)
        #expect(ReceiptArithmetic.edits(Array(""), Array("12")) == 2)
        #expect(ReceiptArithmetic.digits(Decimal(string: "53.2")!) == Array("5320"))
        #expect(ReceiptArithmetic.text(of: Self.d("10.5"), minor: 2) == "10.50")
        #expect(ReceiptArithmetic.text(of: Self.d("0.05"), minor: 2) == "0.05")
        #expect(ReceiptArithmetic.text(of: Self.d("1680"), minor: 0) == "1680")
        #expect(ReceiptArithmetic.text(of: Self.d("-2.5"), minor: 3) == "-2.500")
        #expect(ReceiptArithmetic.text(of: Self.d("20.8"), minor: 0) == "20.8")
    }

    /// A German receipt as OCR reads it dim: every `4` of the total and of one item read `1`,
    /// the VAT table read right (receipts-de `real_15042020_04_01946`). `extra` goes after the
    /// table.
    static func vatReceipt(
        total: String = "19,16", table: [String] = ["V 19,0% 1,44 7,55 8,99", "E 7,0% 0,68 9,79 10,47"],
        extra: [String] = []
    ) -> [TextLine] {
        [
            line("SEBAMED TROCKENE H 8,99 V", 0.8), line("INDISCHES CHICKEN 3,99 E", 0.8), line("WALNUESSE 30mm+ 40 3,19 E", 0.8),
            line("rQ MANDARINEN 1kg 2,99 E", 0.8), line("SUMME EUR \(total)", 0.56), line("MasterCard EUR \(total)", 0.71),
            line("Mehrwertst. ohne MwSt mit MwSt", 0.8),
        ] + table.map { line($0, 0.7) } + extra.map { line($0, 0.8) }
    }

    static func total(_ lines: [TextLine]) -> PriceMatch? {
        PriceParser(options: ParserOptions(currencyHint: "EUR")).parse(lines: lines).first { $0.role == .total }
    }

    /// (case, lines, the total).
    static let byTaxTable: [(String, [TextLine], String)] = [
        ("rows that add up, their gross one digit off a total printed twice alike", vatReceipt(), "19.46"),
        (
            "a sum row under the rate rows is the table's gross",
            vatReceipt(table: ["V 19,0% 1,44 7,55 8,99", "E 7,0% 0,68 9,79 10,47", "Summe 2,12 17,34 19,46"]), "19.46"
        ),
        ("one rate, gross before net and tax", vatReceipt(total: "10,17", table: ["A 10,47 9,79 0,68"]), "10.47"),
        ("the table agrees with the total", vatReceipt(total: "19,46"), "19.46"),
        (
            "a row that does not add up counts for nothing (the other alone is far)",
            vatReceipt(table: ["V 19,0% 1,44 7,55 8,99", "E 7,0% 0,68 9,79 10,41"]), "19.16"
        ),
        ("the gap between table and total is printed (a deposit outside the table)", vatReceipt(extra: ["Pfand 0,30"]), "19.16"),
        ("the digits differ in length (a row lost, not a glyph)", vatReceipt(total: "119,46"), "119.46"),
        ("two digits off", vatReceipt(total: "18,16"), "18.16"),
        ("two items and their sum are no row (no tax rate apart)", vatReceipt(total: "3,10", table: ["1,50 1,50 3,00"]), "3.10"),
    ]

    @Test("a VAT table whose rows add up checks the total", arguments: byTaxTable)
    func taxTable(_ c: (String, [TextLine], String)) {
        let t = Self.total(c.1)
        #expect(t?.amount == Self.d(c.2), "\(c.0): \(String(describing: t))")
        // Flagged repaired exactly when the amount is not the one printed.
        let asRead = t?.text.contains(c.2.replacingOccurrences(of: ".", with: ",")) ?? false
        #expect(t?.flags.contains(.repaired) == !asRead, "\(c.0)")
    }

    @Test("cash less change that agrees with the total read outweighs the VAT table")
    func cashOutweighsTheTable() {
        let lines = Self.vatReceipt(extra: []).filter { !$0.text.hasPrefix("MasterCard") }
        let paid = Array(lines[..<5]) + [Self.line("Bar EUR 20,00", 0.9), Self.line("Rückgeld EUR 0,84", 0.9)] + lines[5...]
        #expect(Self.total(paid)?.amount == Self.d("19.16"))
    }

    @Test("the VAT table's gross confirms a total to the second pass's vote")
    func tableConfirmsTotal() {
        let parser = PriceParser(options: ParserOptions(currencyHint: "EUR"))
        // Without the card line, nothing else prints the total; the items add up to 19.16.
        func page(_ table: [String]) -> [TextLine] {
            Self.vatReceipt(total: "19,46", table: table).filter { !$0.text.hasPrefix("MasterCard") }
        }
        #expect(parser.confirmsTotal(Self.d("19.46"), line: 4, of: page(["V 19,0% 1,44 7,55 8,99", "E 7,0% 0,68 9,79 10,47"])))
        #expect(!parser.confirmsTotal(Self.d("19.46"), line: 4, of: page(["V 19,0% 1,44 7,55 8,99", "E 7,0% 0,68 9,79 10,41"])))
    }
}
