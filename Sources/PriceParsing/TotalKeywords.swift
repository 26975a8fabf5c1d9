/// Receipt words that name the amount to pay, matched OCR-tolerantly.
enum TotalKeywords {
    /// Folds the usual OCR confusions so `T0TAL`, `TOTA1`, `5UMME` match.
    static func fold(_ w: Substring) -> String {
        var out = ""
        out.reserveCapacity(w.count)
        for ch in w.lowercased() {
            switch ch {
            case "0": out.append("o")
            case "1", "|", "!", "i", "í", "ı": out.append("l")
            case "5", "$": out.append("s")
            case "8": out.append("b")
            default: out.append(ch)
            }
        }
        return out
    }

    static let single: Set<String> = Set([
        "total", "totals", "summe", "gesamt", "gesamtbetrag", "gesamtsumme", "endsumme", "endbetrag",
        "rechnungsbetrag", "betrag", "totale", "totaal", "suma", "summa", "razem", "celkem", "yhteensä",
        "toplam", "jumlah", "итого", "всего", "сумма", "montant", "importe", "totalt", "samtals", "összesen",
        "ukupno", "skupaj", "kokku", "kopā", "iš viso", "tổng", "sum", "totaalbedrag", "bedrag",
    ].map { fold($0[...]) })

    static let pairs: Set<String> = Set([
        "zu zahlen", "amount due", "balance due", "to pay", "à payer", "a payer", "att betala", "a pagar",
        "da pagare", "te betalen", "do zapłaty", "k úhradě", "tổng cộng", "grand total",
    ].map { p in p.split(separator: " ").map { fold($0) }.joined(separator: " ") })

    static let cjk: [String] = ["合計", "合计", "总计", "總計", "총액", "합계", "총계", "会計", "總額", "总额", "รวม"]

    static func matches(_ line: TextLine) -> Bool {
        let text = line.text
        var words: [String] = []
        var cur = ""
        for u in text.unicodeScalars {
            if u.properties.isAlphabetic || (u.value >= 0x30 && u.value <= 0x39) || u == "|" || u == "$" || u == "!" {
                cur.unicodeScalars.append(u)
            } else if !cur.isEmpty {
                words.append(fold(cur[...]))
                cur = ""
            }
        }
        if !cur.isEmpty { words.append(fold(cur[...])) }
        for (i, w) in words.enumerated() {
            if single.contains(w) { return true }
            if i + 1 < words.count, pairs.contains(w + " " + words[i + 1]) { return true }
        }
        for k in cjk where text.contains(k) { return true }
        return false
    }
}
