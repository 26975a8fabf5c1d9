import Foundation
import Testing
@testable import PriceParsing

/// The price formats of issue 13, one table per class, written by hand from what a
/// shopper reads (made-up examples, not the held-out suite).
@Suite struct SpaceGroupingTests {
    static let cases: [Case] = [
        Case("2 390 €", "2390 EUR"),
        Case("12 490 Kč", "12490 CZK"),
        Case("4 572 Ft", "4572 HUF"),
        Case("17 260 руб.", "17260 RUB"),
        Case("1 299 zł", "1299 PLN"),
        Case("2\u{00A0}390 €", "2390 EUR"),
        Case("12\u{202F}490 Kč", "12490 CZK"),
        Case("2\u{00A0}390\u{00A0}€", "2390 EUR"),
        Case("€ 1 299", "1299 EUR"),
        Case("Kč 12 490", "12490 CZK"),
        Case("1 234 567 €", "1234567 EUR"),
        Case("12 490,- Kč", "12490 CZK"),
        Case("12 490,50 Kč", "12490.50 CZK"),
        Case("1 299,-", "1299 - bare"),
        Case("Cena 3 299 zł teraz 2 999 zł", "3299 PLN | 2999 PLN"),
        // no evidence: a count and a number, or two numbers, stay apart
        Case("12 490", ""),
        Case("Kasse 2 390", ""),
        Case("2 x 3,50", "3.50 - bare"),
        Case("1 12,90", "12.90 - bare"),
        Case("1 12,90 €", "12.90 EUR"),
        Case("12 3456 €", "3456 EUR"),
        Case("0 390 €", "390 EUR"),
        Case("3 500 g 2,49 €", "2.49 EUR"),
        // the hint's language groups with spaces: alone on the line, or a zero-decimal currency
        Case("12 490", "12490 CZK bare", hint: "CZK"),
        Case("Artikel 12 490", "", hint: "CZK"),
        Case("4 572", "4572 HUF bare", hint: "HUF"),
        Case("Kenyér 1 290", "1290 HUF bare", hint: "HUF"),
        Case("2 390", "", hint: "USD"),
        // a last group of 000 is the thousands of one amount (a point lost in dim light),
        // whatever the hint's language groups with; any other group stays a count and a price
        Case("Phở bò tái 105 000d", "105000 VND bare", hint: "VND"),
        Case("Bún 2 100 000", "2100000 VND bare", hint: "VND"),
        Case("Gimbap 12 000", "12000 KRW bare", hint: "KRW"),
        Case("Gimbap 2 390", "390 KRW bare", hint: "KRW"),
        Case("Tel 024 000", "", hint: "VND"),
    ]

    @Test(arguments: cases) func spaceGrouped(_ c: Case) { check(c) }
}

@Suite struct MarkerTableTests {
    /// Markers from the issue, with the currency a shopper reads in them.
    static let meanings: [(String, String)] = [
        ("Р", "RUB"), ("р.", "RUB"), ("руб", "RUB"), ("руб.", "RUB"), ("рублей", "RUB"), ("грн", "UAH"), ("₴", "UAH"),
        ("лв", "BGN"), ("лв.", "BGN"), ("Lek", "ALL"), ("Br", "BYN"), ("KM", "BAM"), ("Ft", "HUF"), ("kn", "HRK"),
        ("din", "RSD"), ("сом", "KGS"), ("₸", "KZT"), ("ман", "AZN"), ("ل.س", "SYP"), ("ل.س.", "SYP"), ("د.إ.", "AED"),
        ("元", "CNY"), ("円", "JPY"), ("₹", "INR"), ("Rs.", "INR"), ("INR", "INR"), ("R$", "BRL"), ("S/", "PEN"),
        ("S/.", "PEN"), ("B/.", "PAB"), ("CHF", "CHF"), ("Fr.", "CHF"), ("₼", "AZN"), ("₾", "GEL"), ("CA$", "CAD"),
        ("MX$", "MXN"), ("CN¥", "CNY"), ("GH₵", "GHS"), ("FCFA", "XAF"), ("Kz", "AOA"), ("TSh", "TZS"), ("₦", "NGN"), ("đ", "VND"),
    ]

    static let cases: [Case] = meanings.flatMap { sym, code in
        [Case("\(sym) 12.50", "12.50 \(code)"), Case("12,50 \(sym)", "12.50 \(code)"), Case("Preis 12,50\(sym) A", "12.50 \(code)")]
    }

    @Test(arguments: cases) func marker(_ c: Case) { check(c) }

    /// Every ISO 4217 code is a marker before and after the amount.
    static let isoCases: [Case] = Currencies.allCodes.sorted().flatMap { code in
        [Case("\(code) 12.50", "12.50 \(code)"), Case("12,50 \(code)", "12.50 \(code)")]
    }

    @Test(arguments: isoCases) func isoCode(_ c: Case) { check(c) }

    static let special: [Case] = [
        // one Latin letter only before the amount, and not glued to a whole number
        Case("Q 12.50", "12.50 GTQ"), Case("Q12.50", "12.50 GTQ"), Case("R 49,99", "49.99 ZAR"),
        Case("Q3 2024", ""), Case("R12", ""), Case("12,50 Q", "12.50 - bare"),
        // CLDR single letters that are tax classes and row letters stay letters
        Case("P 12.50", "12.50 - bare"), Case("Milch 1,09 A", "1.09 - bare"), Case("Brot 2,49 B", "2.49 - bare"),
        // words that look like symbols
        Case("Le 12 mai", ""), Case("5 km", ""), Case("5 KM", "5 BAM"), Case("Fr 12.50", "12.50 - bare"),
        // shared symbols: the usual reading, or the hint when it prints that symbol
        Case("$12", "12 MXN", hint: "MXN"), Case("kr 25", "25 ISK", hint: "ISK"), Case("£5", "5 EGP", hint: "EGP"),
        Case("Rs 120", "120 PKR", hint: "PKR"), Case("Br 12", "12 ETB", hint: "ETB"), Case("C$ 12", "12 NIO", hint: "NIO"),
        Case("C$ 12", "12 CAD"), Case("Rs 120", "120 INR"), Case("kr 25", "25 -"),
    ]

    @Test(arguments: special) func specialMarkers(_ c: Case) { check(c) }
}

@Suite struct DetachedCentsTests {
    static let cases: [Case] = [
        Case("1250€ 60", "1250.60 EUR"),
        Case("35€ 99", "35.99 EUR"),
        Case("35€99", "35.99 EUR"),
        Case("Prix 4€ 95 le kilo", "4.95 EUR"),
        Case("9⁹⁹", "9.99 - bare"),
        Case("€9⁹⁹", "9.99 EUR"),
        Case("1.299⁹⁹ €", "1299.99 EUR"),
        Case("€ 12,-", "12 EUR"),
        Case("12.–", "12 - bare"),
        Case("1.837, 32 €", "1837.32 EUR rep"),
        // not cents: a second price, a quantity, an amount glued to its marker by a space
        Case("5€ 10€", "5 EUR | 10 EUR"),
        Case("12€ 50 g", "12 EUR"),
        Case("35 € 99", "35 EUR"),
        Case("3.50, 12 €", "3.50 - bare | 12 EUR"),
        Case("1250¥ 60", "1250 JPY"),
    ]

    @Test(arguments: cases) func cents(_ c: Case) { check(c) }
}

@Suite struct LargeAmountTests {
    static let cases: [Case] = [
        Case("0.0045 BTC", "0.0045 BTC"),
        Case("BTC 0.00012345", "0.00012345 BTC"),
        Case("1.2345 BTC", "1.2345 BTC"),
        Case("0,1234 €", "0.1234 EUR"),
        Case("12.3456 €", ""),
        Case("1.234.567,89 €", "1234567.89 EUR"),
        Case("$1,234,567.89", "1234567.89 USD"),
        Case("₹12,34,567.00", "1234567.00 INR"),
        Case("12,34,567.00", "1234567.00 - bare"),
        Case("BHD 1.250", "1.250 BHD"),
        Case("12.500 DT", "12.500 TND"),
        Case("KWD 12,500", "12.500 KWD"),
        Case("KD 3.750", "3.750 KWD"),
        Case("TND 1.234,567", "1234.567 TND"),
        Case("€ 1 000 000", "1000000 EUR"),
    ]

    @Test(arguments: cases) func large(_ c: Case) { check(c) }
}

@Suite struct RangeAndFromTests {
    static let cases: [Case] = [
        Case("€10–15", "10 EUR range | 15 EUR range"),
        Case("10 – 15 €", "10 EUR range | 15 EUR range"),
        Case("from $9.99", "9.99 USD"),
        Case("ab 19,90 €", "19.90 EUR"),
        Case("à partir de 5 €", "5 EUR"),
        Case("desde R$ 49,90", "49.90 BRL"),
        Case("от 1 290 ₽", "1290 RUB"),
        Case("Von 12,99 € bis 19,99 €", "12.99 EUR | 19.99 EUR"),
    ]

    @Test(arguments: cases) func ranges(_ c: Case) { check(c) }
}

@Suite struct NoiseAroundPricesTests {
    static let cases: [Case] = [
        Case("Price: USD 12.50 incl. VAT", "12.50 USD"),
        Case("$12.50/kg", "12.50 USD"),
        Case("2 x 3,50", "3.50 - bare"),
        Case("2 x 3,50 €", "3.50 EUR"),
        Case("Total29.90", "29.90 - bare"),
        Case("Total29.90EUR", "29.90 EUR"),
        Case("Preis:12,99€", "12.99 EUR"),
        Case("税込1,280円", "1280 JPY"),
        Case("本体価格1,180円(税込1,298円)", "1180 JPY | 1298 JPY"),
        // glued identifiers stay no price
        Case("SKU12345", ""), Case("A12.50", ""), Case("Nr12.50", ""), Case("Art123", ""), Case("kg12.50", ""),
    ]

    @Test(arguments: cases) func noise(_ c: Case) { check(c) }

    static let units: [(String, String?)] = [
        ("$12.50/kg", "kg"), ("2,99 €/kg", "kg"), ("2,99 € / 100 g", "100 g"), ("3,49 € je kg", "kg"),
        ("1,19 €/Stück", "Stück"), ("12,50 €", nil), ("12,50 € / Monat", nil),
    ]

    @Test(arguments: units) func perUnit(_ c: (String, String?)) {
        let got = PriceParser().parse(text: c.0)
        #expect(got.count == 1, "\(c.0)")
        #expect(got.first?.unit == c.1, "\(c.0)")
    }
}

@Suite struct MisreadMarkerTests {
    /// (line, stored currency, amounts expected): a two-letter marker with one letter misread
    /// counts only when the settings hold its currency; without it, or for another currency,
    /// the glued word stays an identifier's prefix.
    static let cases: [(String, String?, [Decimal])] = [
        ("TTL CASH RH43.40", "MYR", [Decimal(string: "43.40")!]),
        ("TOTAL RN12.50", "MYR", [Decimal(string: "12.50")!]),
        ("AMT RH43. 40", "MYR", [Decimal(string: "43.40")!]),
        ("TTL CASH RH43.40", nil, []), ("TTL CASH RH43.40", "EUR", []),
        ("RH43", "MYR", []),  // no two decimals: a code, not money
        ("AB12.50", "MYR", []),
        // after the misread marker as after the marker, a `$` glued to digits is a misread `5`
        // and an `I` or `l` a misread `1`; only with its currency in the settings
        ("CASH RH $0.00", "MYR", [Decimal(string: "50.00")!]),
        ("CASH RN S3.20", "MYR", [Decimal(string: "53.20")!]),
        ("TOTAL RH l5.90", "MYR", [Decimal(string: "15.90")!]),
        ("CASH RH $0.00", "EUR", [Decimal(string: "0.00")!]),
        ("CASH RH $0.00", nil, [Decimal(string: "0.00")!]),
        ("CASH RH$0.00", "MYR", [Decimal(string: "0.00")!]),  // glued: `RH$` is no marker word
    ]

    @Test(arguments: cases) func misread(_ c: (String, String?, [Decimal])) {
        let got = PriceParser(options: ParserOptions(currencyHint: c.1)).parse(text: c.0)
        #expect(got.map(\.amount) == c.2, "\(c.0) with \(c.1 ?? "no currency"): \(got.map(\.text))")
    }

    @Test func everyMisreadIsNoMarkerAndNoUnit() {
        #expect(Markers.misreadTwoLetter["rh"]?.contains("MYR") == true)
        for word in Markers.misreadTwoLetter.keys {
            #expect(Markers.lookup(word) == nil && !Markers.units.contains(word), "\(word)")
        }
    }
}

@Suite struct CurrencyHintTests {
    static let accepted: [(String, String)] = [
        ("EUR", "EUR"), ("eur", "EUR"), ("€", "EUR"), ("$", "USD"), ("¥", "JPY"), ("円", "JPY"), ("zł", "PLN"),
        ("Kč", "CZK"), ("руб.", "RUB"), ("Ft", "HUF"), ("R$", "BRL"), ("CHF", "CHF"), ("Fr.", "CHF"), (" jpy ", "JPY"),
    ]

    @Test(arguments: accepted) func acceptedHint(_ c: (String, String)) {
        #expect(CurrencyHint.code(for: c.0) == .success(c.1), "\(c.0)")
    }

    static let refused: [(String, CurrencyHint.Failure)] = [
        ("XYZ", .unknown("XYZ")), ("1X", .unknown("1X")), ("", .unknown("")), ("euro dollar", .unknown("euro dollar")),
        ("kr", .shared("kr", ["DKK", "ISK", "NOK", "SEK"])),
    ]

    @Test(arguments: refused) func refusedHint(_ c: (String, CurrencyHint.Failure)) {
        #expect(CurrencyHint.code(for: c.0) == .failure(c.1), "\(c.0)")
    }
}
