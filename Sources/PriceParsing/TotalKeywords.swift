import Foundation
#if canImport(Geometry)
    import Geometry  // (absent when the parser is compiled alone: scripts/bench-parse.sh)
#endif

/// Receipt words matched OCR-tolerantly: whole words (and phrases of several) in scripts
/// written with spaces, substrings in the others.
struct ReceiptKeywords {
    let single: Set<String>
    let phrases: Set<[String]>
    let longestPhrase: Int
    let substrings: [String]

    /// `words`: matched as whole (OCR-folded) words; `substrings`: anywhere in the line.
    init(words: [String], substrings: [String]) {
        single = Set(words.filter { !$0.contains(" ") }.map { Self.fold($0[...]) })
        phrases = Set(words.filter { $0.contains(" ") }.map { p in p.split(separator: " ").map { Self.fold($0) } })
        longestPhrase = phrases.map(\.count).max() ?? 1
        self.substrings = substrings
    }

    /// Folds the usual OCR confusions so `T0TAL`, `TOTA1`, `5UMME` match, and accents, which
    /// OCR models get wrong as often as not (`Espéces` for `Espèces`, `Ruckgeld`).
    static func fold(_ w: Substring) -> String {
        var out = ""
        out.reserveCapacity(w.count)
        for ch in w.lowercased().folding(options: .diacriticInsensitive, locale: nil) {
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

    func matches(_ line: TextLine) -> Bool {
        let text = line.text
        var words: [String] = []
        var cur = ""
        for u in text.unicodeScalars {
            if u.properties.isAlphabetic || (u.value >= 0x30 && u.value <= 0x39) || u == "|" || u == "$" || u == "!" {
                cur.unicodeScalars.append(u)
            } else if !cur.isEmpty {
                words.append(Self.fold(cur[...]))
                cur = ""
            }
        }
        if !cur.isEmpty { words.append(Self.fold(cur[...])) }
        for (i, w) in words.enumerated() {
            if single.contains(w) { return true }
            // A word OCR read in two pieces (`TOP LAM`: a line's box read alone, whose gaps
            // Tesseract measures on fewer letters than a page's).
            if i + 1 < words.count, single.contains(w + words[i + 1]) { return true }
            for n in stride(from: 2, through: min(longestPhrase, words.count - i), by: 1) where phrases.contains(Array(words[i..<(i + n)]))
            {
                return true
            }
        }
        return substrings.contains { text.contains($0) }
    }
}

/// Receipt words that name the amount to pay.
enum TotalKeywords {
    /// Words seen on total lines beyond `Language.all`'s (Nordic, Baltic, Balkan receipts).
    static let moreWords = [
        "totals", "totale", "totaal", "summa", "yhteensä", "totalt", "samtals", "ukupno", "skupaj", "kokku",
        "kopā", "iš viso", "att betala", "grand total", "to be paid", "payable", "amount payable",
    ]

    static let keywords = ReceiptKeywords(
        words: Language.all.filter { $0.matching == .words }.flatMap(\.totals) + moreWords,
        substrings: Language.all.filter { $0.matching == .substring }.flatMap(\.totals))

    static func matches(_ line: TextLine) -> Bool { keywords.matches(line) }

    /// Words on a line that names another amount than the one to pay, in the languages of
    /// `Language.all`: a subtotal (`Subtotal`, `Zwischensumme`, `Sous-total`, `Subtotale`,
    /// `Subtotaal`, `Podsuma`, `Ara toplam`, `Промежуточный итог`, `Tạm tính`, `小計`/`小计`,
    /// `소계`), the net before tax, or the tax itself (`tax` below: `GST`, `VAT`, `Tax`, `MwSt`, `USt`, `Steuer`,
    /// `IVA`, `TVA`, `BTW`, `DPH`, `ÁFA`, `KDV`, `ΦΠΑ`, `НДС`, `ПДВ`, `ДДС`, `Netto`, `HT`,
    /// `excl.`, `zzgl.`, `税額`, `消費税`, `税抜`, `부가세`, `ภาษี`, `thuế`, `pajak`), a discount or
    /// rounding (`Discount`, `Rabatt`, `Remise`, `Descuento`, `Sconto`, `Korting`, `Rounding`,
    /// `Rundung`, `Arrondi`, `Redondeo`, `Arrotondamento`, `Afronding`), or a count of items
    /// (`Qty`, `Items`, `Anzahl`, `Artikel`, `Stück`, `Articles`, `Artículos`, `Articoli`,
    /// `点数`), or what a loyalty card saved (`Total Savings`, `You saved`, `Ersparnis`,
    /// `Économies`, `Ahorro`, `Risparmio`, `Besparing`, `Oszczędność`, `Úspora`, `Tasarruf`,
    /// `Экономия`: sroie-dev 223 at half size marked `Total Savings 0` under the amount paid).
    static let another = ReceiptKeywords(
        words: [
            "subtotal", "sub", "zwischensumme", "zwsumme", "sous", "subtotale", "subtotaal", "tussentotaal", "podsuma",
            "mezisoučet", "részösszeg", "ara toplam", "промежуточный", "подытог", "tạm tính", "netto", "ht", "excl",
            "excluding", "exclusive", "exkl", "zzgl", "discount", "rabatt", "remise", "descuento", "sconto", "korting", "rabat", "sleva",
            "indirim", "скидка", "знижка",
            "qty", "quantity", "items", "item", "anzahl", "artikel", "stück", "stuck", "articles", "artículos", "articoli",
            "artikelen", "pcs",
            "savings", "saving", "saved", "you save", "ersparnis", "gespart", "économie", "économies", "ahorro",
            "ahorrado", "risparmio", "besparing", "oszczędność", "úspora", "megtakarítás", "tasarruf", "экономия",
            "економія",
        ] + roundingWords,
        substrings: ["小計", "小计", "소계", "税抜", "点数", "ส่วนลด"])

    /// Words on a rounding line (`Rounding`, `Rundung`, `Arrondi`, `Redondeo`, `Arrotondamento`,
    /// `Afronding`): a cash rounding or a rounding adjustment, a few cents either way.
    static let roundingWords = ["rounding", "rundung", "arrondi", "redondeo", "arrotondamento", "afronding"]
    static let rounding = ReceiptKeywords(words: roundingWords, substrings: [])

    /// Words that name the amount to pay rather than a total (which a receipt may print per tax
    /// rate or per section): `to pay`, `payable`, `amount due`, `balance due`, `grand total`
    /// (en), `zu zahlen` (de), `à payer` (fr), `a pagar` (es, pt), `da pagare` (it),
    /// `te betalen` (nl), `do zapłaty` (pl), `k úhradě`/`k platbě` (cs), `fizetendő` (hu),
    /// `ödenecek` (tr), `πληρωτέο` (el), `к оплате` (ru), `до сплати` (uk), `за плащане` (bg),
    /// `total bayar` (id), `jumlah besar` (ms), `att betala` (sv); `应付`/`應付`/`实付`/`實付`
    /// (zh), `お会計` (ja), `결제금액` (ko), `ยอดสุทธิ` (th) as substrings.
    static let toPay = ReceiptKeywords(
        words: [
            "to pay", "to be paid", "payable", "amount due", "balance due", "grand total", "zu zahlen", "à payer", "a payer",
            "a pagar", "da pagare", "te betalen", "do zapłaty", "do zaplaty", "k úhradě", "k platbě", "fizetendő", "ödenecek",
            "πληρωτέο", "к оплате", "до сплати", "за плащане", "total bayar", "jumlah besar", "att betala",
        ],
        substrings: ["应付", "應付", "实付", "實付", "お会計", "결제금액", "ยอดสุทธิ"])

    /// Tax words: a line with one names the tax unless it says the tax is included.
    static let tax = ReceiptKeywords(
        words: [
            "gst", "vat", "tax", "mwst", "ust", "steuer", "iva", "tva", "btw", "dph", "áfa", "kdv", "φπα", "ндс", "пдв", "ддс",
            "thuế", "pajak", "ppn", "sst",
        ],
        substrings: ["税額", "消費税", "外税", "内税", "부가세", "ภาษี"])

    /// Words that say the tax is in the amount: a line with them and a tax word may be the total
    /// (`Total incl. GST`, `Summe inkl. MwSt`, `Total TTC`, `合計(税込)`, `含税`).
    static let included = ReceiptKeywords(
        words: ["incl", "inc", "inclusive", "including", "inkl", "inklusive", "ttc", "brutto", "incluido", "incluse", "compreso"],
        substrings: ["税込", "含税"])

    /// Whether `line` names another amount than the one to pay (and does not say the tax is
    /// included in it).
    static func namesAnother(_ line: TextLine) -> Bool {
        another.matches(line) || (tax.matches(line) && !included.matches(line))
    }
}
