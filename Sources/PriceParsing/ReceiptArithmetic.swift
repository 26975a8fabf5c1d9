import Foundation
#if canImport(Geometry)
    import Geometry  // (absent when the parser is compiled alone: scripts/bench-parse.sh)
#endif

/// A receipt checks itself: what the customer handed over less the change is what was paid.
/// When both lines are read after the total and their difference is a near miss of the total
/// read (a digit or two misread: `740.45` for `10.45` under a highlighter, `55.20` for a
/// faded `53.20`), the total is that difference. A total that agrees, or is far from it (a
/// tip, a voucher, a second payment), is left as read.
enum ReceiptArithmetic {
    /// Words on the line of the money handed over, by language (the same languages as
    /// `Language.all`), as point-of-sale systems print them: `CASH`, `TUNAI` (ms/id),
    /// `Gegeben`/`Bar` (de), `Espèces` (fr), `Efectivo`/`Entregado` (es), `Contanti` (it),
    /// `Dinheiro` (pt), `Contant` (nl), `Gotówka` (pl), `Hotově` (cs), `Készpénz` (hu),
    /// `Nakit` (tr), `Μετρητά` (el), `Наличные`/`Готівка`/`В брой` (ru/uk/bg),
    /// `Tiền mặt` (vi); Thai, Japanese, Chinese, Korean and Hindi as substrings.
    static let cash = ReceiptKeywords(
        words: [
            "cash", "tendered", "cash tendered", "tunai", "gegeben", "bar", "bargeld", "espèces", "especes",
            "efectivo", "entregado", "contanti", "dinheiro", "contant", "gotówka", "gotowka", "hotově", "hotovost",
            "készpénz", "nakit", "μετρητά", "μετρητα", "наличные", "наличными", "готівка", "в брой", "tiền mặt",
        ],
        substrings: ["เงินสด", "お預り", "お預かり", "預り", "现金", "現金", "현금", "नकद"])

    /// Words on the change line: `CHANGE`, `BAKI` (ms), `KEMBALI`/`KEMBALIAN` (id),
    /// `Rückgeld`/`Zurück` (de), `Rendu`/`Monnaie` (fr), `Cambio`/`Vuelto` (es), `Resto` (it),
    /// `Troco` (pt), `Wisselgeld`/`Terug` (nl), `Reszta` (pl), `Vráceno` (cs), `Visszajáró`
    /// (hu), `Para üstü` (tr), `Ρέστα` (el), `Сдача`/`Решта`/`Ресто` (ru/uk/bg), `Tiền thối`/
    /// `Tiền thừa` (vi); Thai, Japanese, Chinese, Korean as substrings.
    static let change = ReceiptKeywords(
        words: [
            "change", "baki", "kembali", "kembalian", "rückgeld", "ruckgeld", "zurück", "zuruck", "rendu", "monnaie",
            "cambio", "vuelto", "resto", "troco", "wisselgeld", "terug", "reszta", "vráceno", "vraceno", "visszajáró",
            "para üstü", "paraüstü", "ρέστα", "ρεστα", "сдача", "решта", "ресто", "tiền thối", "tiền thừa",
        ],
        substrings: ["เงินทอน", "お釣", "おつり", "釣銭", "找零", "找赎", "거스름돈", "잔돈"])

    /// Most digits a misread total may differ by from the difference (an edit: a digit
    /// replaced, added or lost). Two lets a highlighter's stray `7` and a `1` read `4`
    /// through; three would let any two amounts of the same length agree.
    static let maxEdits = 2
    /// Most digits a misread total may differ by from a single payment reading (a card
    /// payment, exact cash), which is one reading against one: one edit (`434.39` for
    /// `134.39`, `2.25` for `22.25`), and only when the payment is read more surely.
    static let maxSingleEdits = 1
    /// Fewest digits in the difference: `0.50` against `5.50` is too short to tell a misread
    /// from another amount.
    static let minDigits = 3

    /// The total repaired in place when the page's cash and change lines say so: the last
    /// amount on the last total line above the first payment line (the line paid, whichever
    /// total line the page's role goes to: a GST summary below also says `Total`). A single
    /// payment reading (card, exact cash) repairs a total one digit off and read less surely
    /// only when the page prints the payment's amount on another line too (`Mastercard 26,81`
    /// under a right `SUMME 28,81` repairs nothing).
    ///
    /// When no line above the payment names a total at all (its word misread too), the priced
    /// line right above the payment stands for it, with cash and change read only and one digit
    /// off at most (the line's role is a guess from its place, so the reading must be nearer
    /// than a named total's): a receipt prints the amount to pay right above the cash it was
    /// paid with (sroie-dev 027 turned 4°: `Jotat Incl, gsteex RM 87.10` over `CASH RM 50.00`
    /// and `CHANGE RM 12.90`).
    static func check(_ perLine: inout [[PriceMatch]], lines: [TextLine], payment: Payment?) {
        guard let p = payment,
            let (paid, sure, namedEdits) = p.cashLessChange.map({ ($0.amount, $0.confidence, maxEdits) })
                ?? p.tendered.map({ ($0.amount, $0.confidence, maxSingleEdits) })
        else { return }
        var most = namedEdits
        let named = (0..<p.firstLine).last(where: { TotalKeywords.matches(lines[$0]) && perLine[$0].contains { $0.amount >= 0 } })
        var unnamed: Int? = nil
        if named == nil, p.cashLessChange != nil, !(0..<p.firstLine).contains(where: { TotalKeywords.matches(lines[$0]) }) {
            unnamed = (0..<p.firstLine).last(where: { perLine[$0].contains { $0.amount > 0 } })
            most = maxSingleEdits
        }
        guard let t = named ?? unnamed, let i = perLine[t].lastIndex(where: { $0.amount >= 0 }) else { return }
        let read = perLine[t][i]
        // The reading changed is less sure than the payment it is checked against, or a line
        // under the payment that is no payment line prints cash less change once more (a VAT
        // table's `7,16` under `Bar 10,00` and `Rückgeld 2,84` outweighs a sure `zu zahlen
        // 1,16`: receipts-de at JPEG quality 30; an item above may cost what the cash was).
        // And nothing else on the page confirms the reading (the cash itself may be the
        // misread one: `50.60` for `50.00` would break a right `30.30` that subtotal and tax
        // add up to).
        let printedBelow =
            p.cashLessChange != nil
            && (p.firstLine..<lines.count).contains { l in !Payment.names(lines[l]) && perLine[l].contains { $0.amount == paid } }
        // Or the priced lines right above the total add up to the payment: the page's
        // arithmetic, not one reading against another (sroie-dev 280 at JPEG quality 30: `NET
        // TOTAL 2.25` and `Cash 22.25` both read at 0.63, subtotal, tax and rounding adding up
        // to 22.25).
        let addsUp = TotalChoice.addends(of: paid, line: t, perLine: perLine, lines: lines) != nil
        // Compared with the amount and with the digits as printed: `19,416` (a stray `1`, parsed
        // as thousands) is one edit from `19,46`, not four.
        let a = digits(paid)
        let b = digits(read.amount), asPrinted = Array(read.text.filter(\.isNumber))
        let distance = min(edits(a, b), edits(a, asPrinted))
        // Or the reading is more than the cash handed over, the one payment, with change given
        // back: nobody hands over less than the total, so the reading or the cash is misread,
        // and the reading is the one when the cash it needs (the reading plus the change) is
        // further from the cash read than cash less change is from the reading, however sure
        // the reading (sroie-dev 027 as a phone photo: `RM 87.10`, its marker making it sure,
        // over `CASH 50.00` and `CHANGE 12.90`: 100.00 is two edits from 50.00, 37.10 one from
        // 87.10). Exact cash says nothing of which (`Total 39.75` over a misread `CASH 30.75`
        // and `Change 0.00`, sroie-dev 123 blurred). Not beside another payment (a voucher or
        // a card paying the rest).
        let overCash =
            p.amounts.count == 1
            && p.cashGiven.map { given in
                guard read.amount > given, given > paid else { return false }
                return edits(digits(read.amount + given - paid), digits(given)) > distance
            } ?? false
        guard paid > 0, paid != read.amount, read.confidence < sure || printedBelow || addsUp || overCash,
            !confirmed(read.amount, perLine, total: (t, i))
        else { return }
        // Nor when an amount above is the total before cash rounding and the difference is
        // near nothing above: `Sub-total 46.54` over `Total After Adj 46.55`, with `Change Amt
        // 53.45` read `3,45` (sroie-dev 307), is not a total of 96.55.
        if roundedFrom(read.amount, perLine, above: t), !roundedFrom(paid, perLine, above: t) { return }
        // A single payment reading is one reading against one, however sure: a card line's
        // `26,81` under a big, right `SUMME 28,81` read less surely. It repairs only when the
        // page says its amount once more: printed again (the card slip's `EUR 134,39`), or as
        // the sum of the priced lines right above the total (sroie-dev 298 at half size:
        // `TOTAL 12.060` under `11.32` and `GST 0.68`, paid `CASH 12,00`).
        if p.cashLessChange == nil {
            let printed = perLine.indices.filter { l in l != t && perLine[l].contains { $0.amount == paid } }
            guard printed.count >= 2 || addsUp else { return }
        }
        guard a.count >= minDigits, distance <= most else { return }
        // Nor when a total line above prints an amount nearer the reading than the payment is:
        // the reading may be a misread of that total as well, and the payment's own reading is
        // the one in doubt (sroie-dev 477: `Final Total 3.60` under `Total 3.00`, with `CASH`
        // read `3.06` for `3.00`).
        let nearer = (0..<t).contains { l in
            TotalKeywords.matches(lines[l])
                && perLine[l].contains { m in
                    let d = digits(m.amount)
                    return m.amount > 0 && m.amount != paid && min(edits(d, b), edits(d, asPrinted)) < distance
                }
        }
        if nearer { return }
        perLine[t][i].amount = paid
        perLine[t][i].flags.insert(.repaired)
    }

    /// A total line's amount read with a `$` (or `S`) where the page's currency prints none,
    /// repaired to the `5` it misreads when the page's arithmetic says so (sroie-dev 329 dim:
    /// `Total Payable: $3.14` under `39.40` and `13.74`; 376 at a third of its size: `$4.19`
    /// under `30.03` and `24.16`). Only with a stored currency that no `$` stands for, and only
    /// when the page confirms the amount with the `5` (`confirmed`) and not the amount as read.
    static func restoreFive(_ perLine: inout [[PriceMatch]], totals: [(line: Int, index: Int)], hint: String?) {
        guard let hint = hint?.uppercased(), !Markers.dollarCurrencies.contains(hint) else { return }
        for (l, i) in totals {
            let read = perLine[l][i]
            guard read.amount > 0, read.marker == "$" || read.marker == "S", read.currency != hint,
                let start = read.text.firstIndex(where: \.isNumber)
            else { continue }
            let whole = read.text[start...].prefix(while: \.isNumber).count
            let five = read.amount + Decimal(sign: .plus, exponent: whole, significand: 5)
            guard confirmed(five, perLine, total: (l, i)), !confirmed(read.amount, perLine, total: (l, i)) else { continue }
            perLine[l][i].amount = five
            perLine[l][i].currency = hint
            perLine[l][i].marker = nil
            perLine[l][i].flags.insert(.repaired)
        }
    }

    /// Whether the page says the total's amount again: on another line, as the sum of two
    /// amounts above it (subtotal and tax, or goods and rounding), or as its VAT table's gross.
    static func confirmed(_ amount: Decimal, _ perLine: [[PriceMatch]], total: (line: Int, index: Int)) -> Bool {
        if amount > 0, taxTableGross(perLine, except: total.line) == amount { return true }
        var above: [Decimal] = []
        for (l, matches) in perLine.enumerated() where l != total.line {
            if matches.contains(where: { $0.amount == amount }) { return true }
            if l < total.line { above += matches.map(\.amount) }
        }
        return above.indices.contains { i in above[(i + 1)...].contains(amount - above[i]) }
    }

    /// The total repaired in place when the page's VAT table says so: the table's rows each add
    /// up (net and tax to gross, `taxTableGross`) and their gross amounts sum to an amount one digit
    /// off the total read, in the same number of digits. A table whose every row checks itself
    /// is arithmetic, where a total printed twice (`SUMME 19,46`, `MasterCard 19,46`) is one
    /// glyph read twice in one font, misread alike (receipts-de `real_..._01946` dim, at half
    /// size and at twice the size: both read `19,16`, the items read `3,19` for `3,49` adding
    /// up to it; the table's `1,44 7,55 8,99` and `0,68 9,79 10,47` read right).
    ///
    /// Not when cash less change is the total read (two other readings agree with it), nor when
    /// the page prints the gap between table and total (a deposit, a tip or a voucher outside
    /// the table), nor when the digits differ in length (a row lost from the table, an item
    /// added to the total, is any amount, not a glyph misread).
    static func checkTaxTable(_ perLine: inout [[PriceMatch]], total: (line: Int, index: Int), payment: Payment?) {
        let read = perLine[total.line][total.index]
        guard read.amount > 0, let gross = taxTableGross(perLine, except: total.line), gross != read.amount,
            payment?.cashLessChange?.amount != read.amount
        else { return }
        let a = digits(gross), b = digits(read.amount)
        guard a.count >= minDigits, a.count == b.count, zip(a, b).filter({ $0 != $1 }).count == maxSingleEdits else { return }
        let gap = abs(gross - read.amount)
        if perLine.joined().contains(where: { abs($0.amount) == gap }) { return }
        perLine[total.line][total.index].amount = gross
        perLine[total.line][total.index].flags.insert(.repaired)
    }

    /// What a receipt's VAT table says was paid: the sum of the gross amounts of its rows, a row
    /// being a line (other than `line`) with three amounts of which two, the net and the tax,
    /// add up exactly to the third, the tax no more than `TaxPairs.ratios`' highest rate of
    /// the net (`V 19,0% 1,44 7,55 8,99`; `1,50 1,50 3,00`, two items, is no row). When one
    /// row's gross is the sum of the others' (a `Summe` row under the rates), that row alone.
    /// Nil without a row.
    static func taxTableGross(_ perLine: [[PriceMatch]], except line: Int) -> Decimal? {
        var rows: [Decimal] = []
        for (l, matches) in perLine.enumerated() where l != line {
            let amounts = matches.map(\.amount).filter { $0 > 0 }.sorted()
            guard amounts.count >= 3 else { continue }
            let gross = amounts.indices.reversed().first { c in
                amounts[..<c].indices.contains { t in
                    amounts[(t + 1)..<c].contains { net in
                        amounts[t] + net == amounts[c] && amounts[c] <= net * TaxPairs.ratios.upperBound
                    }
                }
            }
            if let c = gross { rows.append(amounts[c]) }
        }
        guard !rows.isEmpty else { return nil }
        let all = rows.reduce(0, +)
        return rows.count >= 3 ? rows.first { all - $0 == $0 } ?? all : all
    }

    /// Whether a line above `line` holds an amount other than `amount` within `roundingShare`
    /// of it: the subtotal a cash rounding or a rounding adjustment turned into the total.
    static func roundedFrom(_ amount: Decimal, _ perLine: [[PriceMatch]], above line: Int) -> Bool {
        guard amount > 0 else { return false }
        return perLine[..<line].joined().contains {
            $0.amount > 0 && $0.amount != amount && abs($0.amount - amount) <= amount * roundingShare
        }
    }

    /// How far a rounding moves a total, at most, as a share of it: cash is rounded to 0.05 or
    /// 0.10 of the unit (MYR, CHF, AUD, SEK...), under 1% of any total from 10 up (a smaller
    /// total's rounding may be more, and is then not recognised: the check works as without).
    static let roundingShare = Decimal(string: "0.01")!

    /// An amount the page's arithmetic gives, written with `minor` decimals, or as many as it
    /// has when they are more (`10.5` → `10.50`; yen `1680`; `20.8` of a currency read with
    /// none, a misread marker's, → `20.8`).
    static func text(of amount: Decimal, minor: Int) -> String {
        let places = max(minor, (0...8).first { rounded(amount, places: $0) == amount } ?? 8)
        let d = digits(of: amount, places: places)
        let padded = String(repeating: "0", count: max(0, places + 1 - d.count)) + String(d)
        let whole = padded.dropLast(places), fraction = padded.suffix(places)
        return (amount < 0 ? "-" : "") + whole + (places > 0 ? "." + fraction : "")
    }

    /// The digits of an amount with two decimals (`10.45` → `1045`, `53.2` → `5320`).
    static func digits(_ d: Decimal) -> [Character] { digits(of: d, places: 2) }

    /// The digits of `|amount|` rounded to `places` decimals, without the point.
    static func digits(of amount: Decimal, places: Int) -> [Character] {
        Array("\(rounded(abs(amount) * Decimal(sign: .plus, exponent: places, significand: 1), places: 0))".filter(\.isNumber))
    }

    /// `v` rounded half up to `places` decimals.
    static func rounded(_ v: Decimal, places: Int) -> Decimal {
        var x = v
        var r = Decimal()
        NSDecimalRound(&r, &x, places, .plain)
        return r
    }

    /// Levenshtein distance.
    static func edits(_ a: [Character], _ b: [Character]) -> Int {
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var prev = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let keep = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
                prev = keep
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
