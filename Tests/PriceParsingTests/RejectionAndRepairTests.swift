import Foundation
import Testing
@testable import PriceParsing

@Suite struct RejectionTableTests {
    static let notPrices: [Case] = [
        // dates
        Case("25/12/2018", ""), Case("25/12/18", ""), Case("2018-12-25", ""), Case("25-12-2018", ""),
        Case("12.03.2020", ""), Case("12.03.20", ""), Case("1.3.2020", ""), Case("Datum: 25.12.2018", ""),
        Case("2018/12/25", ""), Case("12/25", ""), Case("05.11.2019 14:32", ""), Case("Date 2019-11-05", ""),
        Case("12,03,2020", ""),
        // times
        Case("8:13:39", ""), Case("17:37", ""), Case("08:13", ""), Case("Uhrzeit 17:37:02", ""),
        Case("17:37 Uhr", ""), Case("12:00-14:00", ""),
        // phones
        Case("+49 30 1234567", ""), Case("(030) 123 456", ""), Case("030-1234567", ""), Case("Tel. +49 30 1234567", ""),
        Case("+1 555 123 4567", ""), Case("(0221) 98 76 54", ""), Case("0221-987654", ""), Case("Tel 030 1234567", ""),
        Case("+44 20 7946 0958", ""),
        // percentages
        Case("19 %", ""), Case("7%", ""), Case("MwSt 19%", ""), Case("19,00 %", ""), Case("7,5%", ""),
        Case("-20%", ""), Case("Rabatt 30 %", ""),
        // quantities with units
        Case("500 g", ""), Case("0,2 L", ""), Case("1,5 kg", ""), Case("2x", ""), Case("x2", ""), Case("3 pcs", ""),
        Case("2 Stk", ""), Case("250 ml", ""), Case("500g", ""), Case("1,5kg", ""), Case("0,33l", ""),
        Case("0,75 l", ""), Case("100 ml", ""), Case("12 oz", ""), Case("1.5 lb", ""), Case("6 St", ""),
        Case("2,5 m", ""), Case("30 cm", ""), Case("4 pack", ""), Case("3 x", ""), Case("64 GB", ""),
        Case("230 V", ""), Case("60 W", ""), Case("2000 mAh", ""), Case("0,5 L", ""), Case("1,0 kg", ""),
        // long digit runs, ids
        Case("4006381333931", ""), Case("1234567", ""), Case("Beleg 0012345678", ""), Case("EAN 4311501631066", ""),
        Case("A12B3", ""), Case("SKU12345", ""), Case("Art.Nr. AB123", ""), Case("ID 7X9", ""), Case("B2B", ""),
        Case("12A", ""), Case("Filiale 0815", ""), Case("#123", ""), Case("No. 0042", ""), Case("V2.5", ""),
        Case("MP3", ""), Case("4K", ""),
        // another currency's marker before an item code on a receipt in the stored currency
        // (SROIE's tax code `SR`, the riyal's marker)
        Case("SR 100000037 1F", "", hint: "MYR"), Case("SR 1000000", "", hint: "MYR"), Case("$1234567", "", hint: "EUR"),
        // whole bare numbers in running text are not prices under .decimals
        Case("Tisch 12", ""), Case("Kasse 3 Bon 4711", ""), Case("Zimmer 101 und 102", ""),
        // plain words
        Case("Vielen Dank für Ihren Einkauf", ""), Case("", ""), Case("   ", ""), Case("-", ""), Case("€", ""),
        Case("$ $ $", ""), Case(". , .", ""), Case("S", ""), Case("E", ""),
    ]

    @Test(arguments: notPrices) func rejected(_ c: Case) { check(c) }

    static let withMarkerStillPrices: [Case] = [
        Case("€1234567", "1234567 EUR"),
        Case("€1234567", "1234567 EUR", hint: "EUR"),
        Case("SR 100000037", "100000037 SAR"),
        Case("SR 999999", "999999 SAR", hint: "MYR"),
        Case("SR 1,000,000", "1000000 SAR", hint: "MYR"),
        Case("1234567 ₫", "1234567 VND"),
        Case("19 % 2,59 €", "2.59 EUR"),
        Case("500 g 2,49 €", "2.49 EUR"),
        Case("2 x 1,99 EUR", "1.99 EUR"),
        Case("2 x 1,99", "1.99 - bare"),
        Case("1,99 x 2", "1.99 - bare"),
        Case("17:37 12,50 €", "12.50 EUR"),
        Case("25.12.2018 7,16 EUR", "7.16 EUR"),
        Case("Tel. 030 1234567 Preis 3,99", "3.99 - bare"),
        Case("(030) 123 456 12,50 €", "12.50 EUR"),
        Case("2,99 €/kg", "2.99 EUR"),
        Case("1 kg = 2,99 €", "2.99 EUR"),
        Case("MwSt 19% 1,14", "1.14 - bare"),
    ]

    @Test(arguments: withMarkerStillPrices) func mixed(_ c: Case) { check(c) }
}

@Suite struct OCRRepairTableTests {
    static let damaged: [Case] = [
        Case("1O,50 €", "10.50 EUR rep"),
        Case("1o,50 €", "10.50 EUR rep"),
        Case("l2,50 €", ""),  // a glyph before the number is not a digit
        Case("1l,50 €", "11.50 EUR rep"),
        Case("1I,50 €", "11.50 EUR rep"),
        Case("1|,50 €", "11.50 EUR rep"),
        Case("1S,50 €", "15.50 EUR rep"),
        Case("1B,50 €", "18.50 EUR rep"),
        Case("$1O.99", "10.99 USD rep"),
        Case("$1OO.00", "100.00 USD rep"),
        Case("12,5O €", "12.50 EUR rep"),
        Case("€ 2O,OO", "20.00 EUR rep"),
        Case("1O5,00 €", "105.00 EUR rep"),
        Case("12 .99 €", "12.99 EUR rep"),
        Case("12, 99 €", "12.99 EUR rep"),
        Case("$12 .99", "12.99 USD rep"),
        Case("12 .99", "12.99 - rep,bare"),
        Case("1.234.56 €", "1234.56 EUR rep"),
        Case("1,234,56 €", "1234.56 EUR rep"),
        Case("$1.234.567.89", "1234567.89 USD rep"),
        Case("S12.99", "12.99 USD rep"),
        Case("Total S12.99", "12.99 USD rep"),
        Case("S12", ""),  // not sure enough: no two decimals
        Case("S1299", ""),
        Case("E12,99", "12.99 EUR rep"),
        Case("12,99 E", "12.99 EUR rep"),
        Case("12,99E", "12.99 EUR rep"),
        // a tax class glued to the amount (`1,99 C`, its space lost): the amount stands
        Case("FERRERO KINDER RIEGEL 1,99C", "1.99 - bare"),
        Case("0.99B", "0.99 - bare"),
        Case("SUMME 24,23A", "24.23 - bare"),
        Case("1,99D 2,49A", "1.99 - bare | 2.49 - bare"),
        Case("0,75L", ""),  // litres, not a class
        Case("1,50K", ""),
        Case("1,99CD", ""),  // two letters: a word
        Case("1,9C", ""),  // one decimal: not as money is written
        Case("12C", ""),  // no decimals: a size, a seat, a room
        Case("1,99C3", ""),  // glued on to another number: an identifier
        Case("12 E", ""),
        Case("SS12.99", ""),
        Case("512.99", "512.99 - bare"),  // a `5` is never turned into `$`
        // `W` is `₩` read without its strokes: a whole number of won grouped in thousands
        Case("W44,300", "44300 KRW rep"),
        Case("가격 W1,200,000", "1200000 KRW rep"),
        Case("W32", ""),  // a size (jeans' waist), a model (`W10`): no grouping, no hint
        Case("W32 L34", ""),
        Case("W500", ""),
        Case("W500", "500 KRW rep", hint: "KRW"),  // with won in the settings, three digits or more
        Case("W32", "", hint: "KRW"),
        Case("W1,5", ""),  // no thousands
        Case("W12.99", ""),  // won have no decimals
        Case("WW44,300", ""),
        Case("60W", ""),
        // `Y` is `¥` read without its bars, only with the yen or the yuan in the settings
        Case("扬州 炒饭 Y42", "42.00 CNY rep", hint: "CNY"),
        Case("小份 y93 大份", "93.00 CNY rep", hint: "CNY"),
        Case("Y1,280", "1280 JPY rep", hint: "JPY"),
        Case("Y12.50", "12.50 CNY rep", hint: "CNY"),
        Case("Y42", ""),  // no hint: a size or a model
        Case("Y42", "", hint: "USD"),
        Case("Y2", "", hint: "JPY"),  // one digit: likelier a size than a price under ¥10
        Case("Y12.5", "", hint: "CNY"),  // not as money is written
        Case("AY42", "", hint: "JPY"),  // glued to a word
        Case("Y 42", "", hint: "CNY"),  // apart: a letter, not the sign
        // a `$` or `S` right after the marker of a currency without `$` is a misread `5`
        Case("RM $3.20", "53.20 MYR rep"),
        Case("Total RM S3.20", "53.20 MYR rep", hint: "MYR"),
        Case("EUR $12,99", "512.99 EUR rep"),
        Case("HKD $3.20", "3.20 HKD", hint: "HKD"),  // a `$` currency's code before its `$`
        Case("RM$3.20", "3.20 USD"),  // glued: `RM$` is no marker, `$` is
        // an `I` or `l` right after a marker, before digits, is a misread `1`
        Case("RMI5.90", "15.90 MYR rep"),
        Case("KNORR 1K =RMI3.70 s", "13.70 MYR rep", hint: "MYR"),
        Case("RM l5.90", "15.90 MYR rep"),
        Case("EURl2,50", "12.50 EUR rep"),
        Case("$l9.99", "19.99 USD rep"),
        Case("RMIN 5.00", "5.00 - bare"),  // a word that starts with a marker's letters
        Case("Kg l5 St", ""),  // no marker before it
        Case("£12.99", "12.99 GBP"),  // a real pound sign stays GBP
        Case("O,99 €", ""),  // leading O is not in a numeric context
        Case("1O", ""),
        Case("SOLD OUT", ""),
        Case("BIO 2,49", "2.49 - bare"),
        Case("l 2,49", "2.49 - bare"),
        Case("12?50 €", ""),  // an unknown glyph inside: neither half is the price
        Case("1#,50 €", ""),
        Case("12,50 € 1O,OO €", "12.50 EUR | 10.00 EUR rep"),
        Case("3,5O", "3.50 - rep,bare"),
    ]

    @Test(arguments: damaged) func repaired(_ c: Case) { check(c) }
}

@Suite struct SeparatorByCurrencyTests {
    static let cases: [Case] = [
        Case("¥1.234", "1234 JPY"),
        Case("1,234円", "1234 JPY"),
        Case("3.350", "3350 JPY bare", hint: "JPY"),
        Case("3,350", "3350 JPY bare", hint: "JPY"),
        Case("3.350", "3350 KRW bare", hint: "KRW"),
        Case("₩3.350", "3350 KRW"),
        Case("KWD 3.350", "3.350 KWD"),
        Case("3.350 KWD", "3.350 KWD"),
        Case("3.350", "3.350 KWD bare", hint: "KWD"),
        Case("3,350", "3.350 BHD bare", hint: "BHD"),
        Case("OMR 1.250", "1.250 OMR"),
        Case("JOD 0.750", "0.750 JOD"),
        Case("TND 12.500", "12.500 TND"),
        Case("€1.234", "1234 EUR amb"),
        Case("1.234 €", "1234 EUR amb"),
        Case("$1,234", "1234 USD amb"),
        Case("1,234", "1234 EUR amb,bare", hint: "EUR"),
        Case("3.350", "3350 USD amb,bare", hint: "USD"),
        Case("3,350", "3350 - amb,bare"),
        Case("€0,125", "0.125 EUR"),
        Case("€1234,567", "1234.567 EUR"),
        Case("€1.234,5", "1234.5 EUR"),
        Case("€12.34", "12.34 EUR"),
        Case("€12,345.67", "12345.67 EUR"),
        Case("€12.345,67", "12345.67 EUR"),
        Case("$1,234.5", "1234.5 USD"),
        Case("¥12.50", "12.50 JPY"),
        Case("Rp 15.000", "15000 IDR"),
        Case("15.000", "15000 IDR bare", hint: "IDR"),
        Case("1.990 Ft", "1990 HUF"),
        Case("₫50.000", "50000 VND"),
        Case("50.000 ₫", "50000 VND"),
        Case("2,59", "2.59 EUR bare", hint: "EUR"),
        Case("2.59", "2.59 USD bare", hint: "USD"),
        Case("579", "579 JPY bare", hint: "JPY"),
        Case("Ramen 850", "850 JPY bare", hint: "JPY"),
        Case("Ramen 850", "", hint: "EUR"),
        Case("1,280", "1280 JPY bare", hint: "JPY"),
        Case("1.234,56", "1234.56 - bare"),
        Case("1,234.56", "1234.56 - bare"),
        Case("1'234.50", "1234.50 - bare"),
        Case("1 234,56", "1234.56 - bare"),
        Case("1,00,000.00", "100000.00 - bare"),
        Case("12,34,56", ""),
        Case("1.23.4", ""),
        Case("12.3456 €", ""),
    ]

    @Test(arguments: cases) func separators(_ c: Case) { check(c) }
}

@Suite struct SignAndRangeTests {
    static let cases: [Case] = [
        Case("-€5.00", "-5.00 EUR neg"),
        Case("€-5.00", "-5.00 EUR neg"),
        Case("€5.00-", "-5.00 EUR neg"),
        Case("5,00- €", "-5.00 EUR neg"),
        Case("5,00 €-", "-5.00 EUR neg"),
        Case("-5,00", "-5.00 - neg,bare"),
        Case("−5,00 €", "-5.00 EUR neg"),
        Case("Rabatt -0,50", "-0.50 - neg,bare"),
        Case("Pfand Rückgabe 0,25-", "-0.25 - neg,bare"),
        Case("Coupon -$2.00", "-2.00 USD neg"),
        Case("(-5,00 €)", "-5.00 EUR neg"),
        Case("- 5,00 €", "5.00 EUR"),
        Case("€10–20", "10 EUR range | 20 EUR range"),
        Case("€10-20", "10 EUR range | 20 EUR range"),
        Case("$10 - $20", "10 USD range | 20 USD range"),
        Case("$10 – $20", "10 USD range | 20 USD range"),
        Case("$10 - 20", "10 USD range | 20 USD range"),
        Case("10–20 €", "10 EUR range | 20 EUR range"),
        Case("10 € - 20 €", "10 EUR range | 20 EUR range"),
        Case("€9,99–14,99", "9.99 EUR range | 14.99 EUR range"),
        Case("¥1,000～", "1000 JPY"),
        Case("$5.00-$10.00", "5.00 USD range | 10.00 USD range"),
        Case("2,50-3,50", "2.50 - range,bare | 3.50 - range,bare"),
        Case("$20 - $10", "20 USD | 10 USD"),
        Case("12,50 € -3,00 €", "12.50 EUR | -3.00 EUR neg"),
        Case("Summe 10,00 Rabatt -1,00", "10.00 - bare | -1.00 - neg,bare"),
        Case("A-5,00", ""),
        Case("Kat-12,50 €", "12.50 EUR"),
    ]

    @Test(arguments: cases) func signsAndRanges(_ c: Case) { check(c) }
}

@Suite struct BarePolicyTests {
    static let cases: [Case] = [
        Case("2,59", "2.59 - bare"),
        Case("Milch 2,59", "2.59 - bare"),
        Case("Milch 2,59", "", policy: .never),
        Case("Milch 2,59 €", "2.59 EUR", policy: .never),
        Case("579", "579 - bare"),
        Case("579", "579 EUR bare", hint: "EUR"),
        Case("579", "", policy: .never),
        Case("-579", "-579 - neg,bare"),
        Case("Tisch 12", "12 - bare", policy: .all),
        Case("Kasse 3 Bon 4711", "3 - bare | 4711 - bare", policy: .all),
        Case("1234567", "", policy: .all),
        Case("030", "", policy: .all),
        Case("8:13", "", policy: .all),
        Case("500 g", "", policy: .all),
        Case("19 %", "", policy: .all),
        Case("Ramen 850", "850 JPY bare", hint: "JPY", policy: .all),
        Case("Ramen 850", "850 EUR bare", hint: "EUR", policy: .all),
        Case("Bananen 1,29 Äpfel 2,49", "1.29 - bare | 2.49 - bare"),
        Case("12.99", "12.99 USD bare", hint: "usd"),
        Case(".99", "0.99 - bare"),
        Case("12,-", "12 - bare"),
        Case("2 579", ""),
    ]

    @Test(arguments: cases) func policy(_ c: Case) { check(c) }
}
