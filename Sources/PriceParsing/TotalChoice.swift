import Foundation
#if canImport(Geometry)
    import Geometry  // (absent when the parser is compiled alone: scripts/bench-parse.sh)
#endif

/// Which price on a page is the amount to pay (`role = .total`).
///
/// Every line with a total keyword offers a candidate: its rightmost non-negative price, else a
/// bare number on it, else the first price above zero on the next line (unless that is a
/// payment line; a `0.00` there is a tax or change line's, not an amount to pay). A receipt repeats the word on
/// lines that are not the total (`Subtotal`, `Total excl. GST`, `Total Qty 6`, the VAT table's
/// `Total : 42.20 2.53`, `MWST-Betrag`), so each candidate is scored by what holds on any
/// receipt, in any layout:
/// - **words**: the line names another amount (subtotal, tax, net, discount, rounding, item
///   count), unless it says the tax is included (`incl. GST`, `inkl. MwSt`, `TTC`, `税込`);
/// - **position**: the total is printed before the payment (cash or card) lines; a candidate
///   below them is in the VAT table or a footer;
/// - **arithmetic**: cash handed over less the change is the total; a card or exact cash
///   payment repeats it; the lines right above it (subtotal, tax, discount, rounding) add up
///   to it.
/// The highest score wins; among equals a positive amount over a zero, then the last line,
/// unless an earlier one is printed markedly taller or read far more surely. A best score
/// below zero marks nothing. When the cash and change lines give an amount that no candidate
/// has but a price above the payment has, that price is the total (the keyword was misread).
enum TotalChoice {
    /// An earlier total line keeps the role over a later one of the same score when it is more
    /// than 13/10 as tall: a receipt prints its total larger than the lines that repeat the
    /// word. Set by hand with the first parser (integers: no rounding at the boundary), not
    /// fitted to a data set.
    static let tallerRatio = (numerator: 13, denominator: 10)

    /// Score weights. Arithmetic outranks words (a sum that holds is seldom chance; a word may
    /// be misread or mean something else in another shop's layout): the payment outweighs a
    /// word against the line. The lines above adding up weigh less, as a receipt's subtotals
    /// add up too (`Total 6% supplies (Inc. GST) 24.16` under `22.80` and `1.36`); with 2,
    /// sroie-dev's marked totals fell from 51 to 49 of 63.
    enum Weight {
        /// The line names another amount than the one to pay.
        static let namesAnother = -2
        /// The line says this is the amount to pay (`to pay`, `payable`, `zu zahlen`), not
        /// only a total (a receipt may print several: per tax rate, per section).
        static let namesTheAmountToPay = 1
        /// The candidate stands below the first payment line.
        static let afterPayment = -2
        /// Cash handed over less the change, or the card payment, is this amount.
        static let paid = 3
        /// A payment line (card, or cash with no change) shows this amount.
        static let paidExactly = 1
        /// The priced lines right above add up to this amount.
        static let linesAboveAddUp = 1
        /// A price that is not on a keyword line but that the payment confirms.
        static let confirmedWithoutKeyword = 2
    }

    /// How many priced lines right above a candidate may add up to it: subtotal, service
    /// charge, tax, discount, rounding (five lines at most on the receipts of every language
    /// in `Languages.swift`); two at least, so a repeated amount is not a sum.
    static let addendLines = 2...5

    struct Candidate {
        var line: Int
        var index: Int
        var amount: Decimal
        var height: Int
        var score: Int
        /// How sure the reading of its amount is (the parser's confidence); 1 for an amount
        /// the payment's arithmetic puts forward, which does not rest on one reading.
        var confidence = 1.0
    }

    /// A candidate gives way to an earlier one of the same score, where a later line would win,
    /// when its amount is read less than 1/`surerRatio` as surely (the parser's confidence, from
    /// the OCR's): a reading so much less sure is likelier misread (sroie-dev 477: `Final Total
    /// "3.60` at 0.15 under `Total 3.00` at 0.82, 5.5 times as sure). Right totals are read less
    /// surely than a subtotal above them too, by up to 2.3 times on the dev sets and their
    /// copies (sroie-dev 376: `Total Payable: 54.19` at 0.48 under a subtotal at 0.59; 358 at
    /// twice the size: `62.60` at 0.25 under `35.99` at 0.57): 3 leaves those alone.
    static let surerRatio = 3

    /// Marks the total among `perLine` (the prices of each of `lines`), after repairing a total
    /// misread by a digit or two that cash less change corrects (`ReceiptArithmetic`).
    static func mark(_ perLine: inout [[PriceMatch]], lines: [TextLine], options: ParserOptions) {
        var offered: [(keyword: Int, line: Int, index: Int)] = []
        for i in lines.indices where TotalKeywords.matches(lines[i]) {
            var found: (Int, Int)? = nil
            if let j = perLine[i].lastIndex(where: { $0.amount >= 0 }) {
                found = (i, j)
            } else {
                var o = options
                o.bareNumbers = .all
                let again = PriceParser(options: o).parse(lines[i])
                if let m = again.last(where: { $0.amount >= 0 }) {
                    perLine[i].append(m)
                    found = (i, perLine[i].count - 1)
                } else if i + 1 < lines.count, !TotalKeywords.matches(lines[i + 1]), !Payment.names(lines[i + 1]),
                    let j = perLine[i + 1].firstIndex(where: { $0.amount > 0 })
                {
                    found = (i + 1, j)
                }
            }
            if let (li, mi) = found { offered.append((i, li, mi)) }
        }
        ReceiptArithmetic.restoreFive(&perLine, totals: offered.map { ($0.line, $0.index) }, hint: options.currencyHint)
        let payment = Payment.find(perLine, lines: lines)
        ReceiptArithmetic.check(&perLine, lines: lines, payment: payment)
        var candidates: [Candidate] = []
        for (i, li, mi) in offered {
            var score = 0
            // A tax word names the tax, unless the lines above, the tax among them, add up to
            // this amount: then it is the amount with the tax in it (`Totale (inclusive of GST)
            // 30.30` under `Total (Excluding GST) 28.58` and `GST payable 1.72`, its `inclusive`
            // misread).
            let amount = perLine[li][mi].amount
            if TotalKeywords.namesAnother(lines[i]),
                TotalKeywords.another.matches(lines[i])
                    || !(addends(of: amount, line: li, perLine: perLine, lines: lines)?.contains { TotalKeywords.tax.matches(lines[$0]) }
                        ?? false)
            {
                score += Weight.namesAnother
            }
            if TotalKeywords.toPay.matches(lines[i]) { score += Weight.namesTheAmountToPay }
            if let first = payment?.firstLine, li > first { score += Weight.afterPayment }
            score += confirmations(amount, line: li, perLine: perLine, lines: lines, payment: payment)
            candidates.append(
                Candidate(
                    line: li, index: mi, amount: amount, height: lines[i].box?.height ?? 0, score: score,
                    confidence: perLine[li][mi].confidence))
        }
        // The amount paid with no keyword candidate: the price above the payment that has it.
        // Else the first payment's own amount, when the price printed right above the payment
        // has it (a rounded total: `Rounding RM 27.30` over `CASH RM 27.30`); no further up,
        // where a round sum of cash handed over is as often an item's price; or when the line
        // right above it names the total and prints no amount.
        if let p = payment {
            var sure: [(amount: Decimal, lines: Range<Int>, score: Int)] = []
            if let paid = p.paid { sure.append((paid, 0..<p.firstLine, Weight.confirmedWithoutKeyword)) }
            if let first = p.amounts.first, let above = (0..<p.firstLine).last(where: { !perLine[$0].isEmpty }) {
                sure.append((first, above..<p.firstLine, Weight.paidExactly))
            }
            // A total line that prints no amount, right above the first payment, with no change
            // given: the payment is the amount to pay (`TOTAL AMOUNT` over `CASH RM 50.00` on a
            // prepaid fuel chit, sroie-dev 289, whose item line OCR misread).
            let named = p.firstLine - 1
            if named >= 0, p.cashLessChange == nil, let first = p.amounts.first, perLine[named].isEmpty,
                TotalKeywords.matches(lines[named]), !TotalKeywords.namesAnother(lines[named])
            {
                sure.append((first, p.firstLine..<(p.firstLine + 1), Weight.paidExactly))
            }
            for (amount, range, score) in sure where amount > 0 {
                guard !candidates.contains(where: { $0.amount == amount && $0.score >= 0 }),
                    let li = range.last(where: { l in perLine[l].contains { $0.amount == amount } }),
                    let mi = perLine[li].lastIndex(where: { $0.amount == amount })
                else { continue }
                candidates.append(Candidate(line: li, index: mi, amount: amount, height: lines[li].box?.height ?? 0, score: score))
                break
            }
            // The last total line above the payment, its amount lost (nothing priced on it), under
            // cash and change that are read: the amount paid is put on it, as the page's arithmetic
            // says (sroie-dev 213, dim: `Total incl aeive GST: =)` over `CASH 20.00`, `Change
            // 9.55`). Not when a price of the page has that amount (taken above), nor on a line
            // that names another amount or whose amount was taken from the next line (`Total
            // (Inclusive of GST): e000` over a big `190.00`, sroie-dev 043 dim, its change read
            // `16.00` for `10.00`). Its score, the amount paid's, outranks any other amount's
            // (at most 2 with cash and change read), so the price put there is always the total.
            if let paid = p.cashLessChange, paid.amount > 0,
                !candidates.contains(where: { $0.amount == paid.amount && $0.score >= 0 }),
                let t = (0..<p.firstLine).last(where: { TotalKeywords.matches(lines[$0]) }),
                !perLine[t].contains(where: { $0.amount >= 0 }), !offered.contains(where: { $0.keyword == t }),
                !TotalKeywords.namesAnother(lines[t])
            {
                // The stored currency's: the cash line's marker may be misread (`CASH RF 21.00`
                // over `CHANGE RM .20`, sroie-dev 262 tilted).
                let currency = options.currencyHint?.uppercased() ?? perLine[p.firstLine].last(where: { $0.amount > 0 })?.currency
                perLine[t].append(
                    PriceMatch(
                        text: ReceiptArithmetic.text(of: paid.amount, minor: currency.map(Associator.separatorMinorUnits) ?? 2),
                        amount: paid.amount, currency: currency, box: lines[t].box,
                        confidence: paid.confidence * MatchConfidence.repaired, flags: .repaired))
                candidates.append(
                    Candidate(
                        line: t, index: perLine[t].count - 1, amount: paid.amount, height: lines[t].box?.height ?? 0,
                        score: Weight.paid, confidence: paid.confidence))
            }
        }
        var best: Candidate? = nil
        for c in candidates {
            if let b = best {
                if c.score < b.score { continue }
                if c.score == b.score {
                    // Nothing to pay is not the amount paid: a zero on a total line is a field
                    // left empty (savings, a voucher, a second tax rate), and a positive amount
                    // of the same score is the total wherever it stands.
                    if c.amount == 0, b.amount > 0 { continue }
                    let overZero = b.amount == 0 && c.amount != 0
                    // Otherwise an earlier, taller total of the same score stays, and so does
                    // one read far more surely.
                    if !overZero, b.height * tallerRatio.denominator > c.height * tallerRatio.numerator { continue }
                    if !overZero, c.confidence * Double(surerRatio) < b.confidence { continue }
                }
            }
            best = c
        }
        // A best that names another amount and that nothing confirms is no total (`Total
        // included GST 1.42` under items): no mark rather than a wrong one. One line alone has
        // no page to judge by (`pricecam parse 'Total GST 1.42'`, the OCR's vote on each total
        // line): its total word marks it.
        if let b = best, b.score >= 0 || lines.count == 1 {
            ReceiptArithmetic.checkTaxTable(&perLine, total: (b.line, b.index), payment: payment)
            perLine[b.line][b.index].role = .total
        }
    }

    /// What the page's arithmetic says for `amount` as the total on line `line`.
    static func confirmations(_ amount: Decimal, line: Int, perLine: [[PriceMatch]], lines: [TextLine], payment: Payment?) -> Int {
        var score = 0
        if let p = payment {
            if let paid = p.paid, paid == amount, amount > 0 { score += Weight.paid }
            if p.amounts.contains(amount), amount > 0, p.paid == nil || p.paid == amount {
                score += Weight.paidExactly
            }
        }
        if addends(of: amount, line: line, perLine: perLine, lines: lines) != nil { score += Weight.linesAboveAddUp }
        return score
    }

    /// The nearest priced lines above `line` that add up to `amount`, each by its last amount
    /// (`addendLines` of them, two of them not zero); nil when none do. A rounding line's
    /// amount read without a sign counts either way when it is a rounding's size
    /// (`ReceiptArithmetic.roundingShare` of `amount`): a thin minus is the glyph OCR loses
    /// first (sroie-dev 280 at JPEG quality 30: `ROUNDING ADJ 0.01` for `-0.01` under `SUB
    /// TOTAL 21.00` and `GST 1.26`, total 22.25).
    static func addends(of amount: Decimal, line: Int, perLine: [[PriceMatch]], lines: [TextLine]) -> [Int]? {
        var sums: Set<Decimal> = [0]
        var nonZero = 0
        var terms: [Int] = []
        for l in stride(from: line - 1, through: 0, by: -1) where !perLine[l].isEmpty {
            guard let last = perLine[l].last else { continue }
            let signLost =
                last.amount > 0 && last.amount <= abs(amount) * ReceiptArithmetic.roundingShare
                && TotalKeywords.rounding.matches(lines[l])
            sums = Set(sums.flatMap { signLost ? [$0 + last.amount, $0 - last.amount] : [$0 + last.amount] })
            terms.append(l)
            if last.amount != 0 { nonZero += 1 }
            if terms.count > addendLines.upperBound { break }
            if addendLines.contains(terms.count), nonZero >= 2, sums.contains(amount) { return terms }
        }
        return nil
    }
}

/// The payment lines of a receipt: cash handed over (with the change given back) and card
/// payments, each with its amount.
struct Payment {
    /// The first payment line.
    var firstLine: Int
    /// The amounts on the payment lines.
    var amounts: [Decimal]
    /// Cash handed over less the change, when both are read, and how sure that is (the least
    /// confidence of the two readings).
    var cashLessChange: (amount: Decimal, confidence: Double)?
    /// The one payment reading that says what was paid when there is no cash-less-change
    /// difference: the card payment (`card`), or cash handed over with no change line (exact
    /// cash, or change that OCR lost), and its confidence.
    var tendered: (amount: Decimal, confidence: Double, card: Bool)?
    /// The cash handed over, when the change line (or an exact cash's zero) is read with it:
    /// no more than that was to pay.
    var cashGiven: Decimal? = nil
    /// The amount paid: cash less change, or a card payment when no cash was given (cash
    /// handed over alone may be more than the total).
    var paid: Decimal? { cashLessChange?.amount ?? tendered.flatMap { $0.card ? $0.amount : nil } }

    /// Words on a card payment line, by language as card terminals print them: `VISA`,
    /// `Mastercard`, `Card`/`Debit`/`Credit` (en), `Karte`/`EC-Karte`/`Girocard`/`Lastschrift` (de), `Carte`/
    /// `CB` (fr), `Tarjeta` (es), `Carta` (it), `Cartão` (pt), `Pin` (nl), `Karta`/`Kartou`
    /// (pl/cs), `Kart` (tr), `Карта`/`Картка` (ru/uk); Japanese, Chinese, Korean, Thai as
    /// substrings.
    static let card = ReceiptKeywords(
        words: [
            "visa", "mastercard", "maestro", "amex", "card", "debit", "credit", "eftpos", "karte", "girocard", "kartenzahlung",
            "ec", "lastschrift",
            "carte", "cb", "tarjeta", "carta", "cartão", "cartao", "pin", "pinnen", "karta", "kartou", "kart", "карта",
            "картка", "картою",
        ],
        substrings: ["クレジット", "カード", "刷卡", "信用卡", "카드", "บัตร"])

    /// Whether `line` has a payment word (cash, card or change): its amount is not a total's,
    /// even on the line after a total word whose amount was not read (`Total Poh` / `Bar €2,00`).
    static func names(_ line: TextLine) -> Bool {
        ReceiptArithmetic.cash.matches(line) || card.matches(line) || ReceiptArithmetic.change.matches(line)
    }

    static func find(_ perLine: [[PriceMatch]], lines: [TextLine]) -> Payment? {
        func tender(_ l: Int) -> Bool {
            (ReceiptArithmetic.cash.matches(lines[l]) || card.matches(lines[l])) && !ReceiptArithmetic.change.matches(lines[l])
                && !TotalKeywords.matches(lines[l]) && paid(on: perLine[l]) != nil
        }
        guard let first = lines.indices.first(where: tender) else { return byChange(perLine, lines: lines) }
        var amounts: [Decimal] = []
        for l in first..<lines.count where tender(l) {
            if let a = paid(on: perLine[l])?.amount { amounts.append(a) }
        }
        var cash: (Decimal, Double)? = nil
        var given: Decimal? = nil
        var single: (Decimal, Double, Bool)? = nil
        let cashLine = (first..<lines.count).first(where: { tender($0) && ReceiptArithmetic.cash.matches(lines[$0]) })
        if let c = cashLine, let handed = paid(on: perLine[c]) {
            if let r = ((c + 1)..<lines.count).first(where: { ReceiptArithmetic.change.matches(lines[$0]) }),
                let back = paid(on: perLine[r], zero: true)
            {
                cash = (handed.amount - back.amount, min(handed.confidence, back.confidence))
                given = handed.amount
            } else if c + 1 < lines.count, perLine[c + 1].count == 1, let zero = perLine[c + 1].first, zero.amount == 0,
                !names(lines[c + 1]), !TotalKeywords.matches(lines[c + 1]), !TotalKeywords.namesAnother(lines[c + 1])
            {
                // The line right under the cash that holds nothing but a zero and no word of
                // another amount is the change line whose word OCR lost (`CHANGE 0.00` read
                // `a - 0.00`, sroie-dev 280): exact cash, the amount paid.
                cash = (handed.amount, min(handed.confidence, zero.confidence))
                given = handed.amount
            } else {
                single = (handed.amount, handed.confidence, false)
            }
        } else if cashLine == nil, let c = (first..<lines.count).first(where: { tender($0) && card.matches(lines[$0]) }),
            let m = paid(on: perLine[c])
        {
            single = (m.amount, m.confidence, true)
        }
        return Payment(firstLine: first, amounts: amounts, cashLessChange: cash, tendered: single, cashGiven: given)
    }

    /// The amount on a payment or change line, by its size: tills print the money handed over
    /// or given back as a credit (`Cash -20.00`, `Change -9.55`) as often as plain, and the
    /// sign says nothing about how much was paid (sroie-dev 223 at half size: `Cash -20.00`,
    /// `CHANGE 10.10` under `Total RM Incl. of GST 9.90`). Its last amount that is not zero;
    /// with `zero`, its last amount (exact cash: `Change 0.00`).
    static func paid(on matches: [PriceMatch], zero: Bool = false) -> PriceMatch? {
        guard var m = matches.last(where: { zero || $0.amount != 0 }) else { return nil }
        m.amount = abs(m.amount)
        return m
    }

    /// A cash line whose word OCR lost (`CAL g RM 73.00`, `| Fay 25.15`, `ASH 10.00`): on a page
    /// with no payment word, the priced line right above the change line is the money handed over
    /// (the layout of every till receipt: total, tendered, change), unless it is a total line
    /// (a receipt without a cash line: its change is not a difference to take).
    static func byChange(_ perLine: [[PriceMatch]], lines: [TextLine]) -> Payment? {
        guard
            let r = lines.indices.first(where: {
                ReceiptArithmetic.change.matches(lines[$0]) && !perLine[$0].isEmpty
            }),
            r > 0, !TotalKeywords.matches(lines[r - 1]), !TotalKeywords.namesAnother(lines[r - 1]),
            let given = perLine[r - 1].last(where: { $0.amount > 0 }),
            let back = paid(on: perLine[r], zero: true), back.amount < given.amount
        else { return nil }
        return Payment(
            firstLine: r - 1, amounts: [given.amount],
            cashLessChange: (given.amount - back.amount, min(given.confidence, back.confidence)), cashGiven: given.amount)
    }
}
