/// The languages of the countries travellers visit most: how their receipts name the total,
/// how they write numbers, which Tesseract model reads their script. One table, used by the
/// parser (total keywords) and by the command line (which Tesseract models to load).
///
/// Sources:
/// - Number formats: Unicode CLDR 44 `numbers/symbols` (decimal, group) of each locale
///   (https://github.com/unicode-org/cldr, `common/main/<lang>.xml`); Indian grouping
///   (12,34,567.00) from CLDR `decimalFormats` of `hi`/`en_IN` (`#,##,##0.###`).
/// - Tesseract models: tesseract-ocr/tessdata_fast language codes as packaged by Debian
///   bookworm (`tesseract-ocr-<code>`, `apt-cache search tesseract-ocr-`).
/// - Total keywords: the words printed on the final line of supermarket and restaurant
///   receipts in each language (fiscal receipt specimens of the tax authorities where they
///   publish one: FR DGFiP, IT Agenzia delle Entrate "documento commerciale", PL "paragon
///   fiskalny", CZ EET, HU NAV, TR "e-Arşiv fatura", RU 54-ФЗ кассовый чек), cross-checked
///   with the open dataset receipts of sroie (Malay/English) and receipts-de.
public struct Language: Sendable, Hashable {
    public enum Matching: Sendable, Hashable {
        /// Whole words (OCR-folded, see `ReceiptKeywords.fold`); pairs of words too.
        case words
        /// Anywhere in the line: scripts written without spaces between words (Thai,
        /// Chinese, Japanese) or whose vowel signs are no letters to a word splitter (Hindi).
        case substring
    }

    /// ISO 639-1 code (`fr`).
    public let code: String
    public let name: String
    /// Tesseract model (`fra`; Debian package `tesseract-ocr-fra`).
    public let tesseract: String
    /// True when Debian's `eng` model cannot read the script at all (Cyrillic, Greek, Thai,
    /// Devanagari, CJK): the language's model is then loaded for its currencies by default.
    public let ownScript: Bool
    /// ISO 4217 codes of the currencies its shops price in.
    public let currencies: [String]
    /// Decimal and grouping separators (CLDR; U+202F and U+00A0 are the narrow and the
    /// plain no-break space).
    public let decimal: Character
    public let group: [Character]
    /// Words and phrases on the line with the amount to pay, lower case.
    public let totals: [String]
    public let matching: Matching

    /// The Debian package holding its Tesseract model.
    public var debianPackage: String { "tesseract-ocr-" + String(tesseract.map { $0 == "_" ? "-" : $0 }) }
}

extension Language {
    static let nbsp: Character = "\u{00A0}", narrow: Character = "\u{202F}"

    public static let all: [Language] = [
        Language(
            code: "en", name: "English", tesseract: "eng", ownScript: false,
            currencies: ["USD", "GBP", "AUD", "CAD", "NZD", "SGD", "MYR", "INR", "PHP", "ZAR"],
            decimal: ".", group: [","], totals: ["total", "grand total", "amount due", "balance due", "to pay", "sum"], matching: .words),
        Language(
            code: "de", name: "German", tesseract: "deu", ownScript: false, currencies: ["EUR", "CHF"],
            decimal: ",", group: [".", narrow, nbsp],
            totals: ["summe", "gesamt", "gesamtbetrag", "gesamtsumme", "endsumme", "endbetrag", "rechnungsbetrag", "betrag", "zu zahlen"],
            matching: .words),
        Language(
            code: "fr", name: "French", tesseract: "fra", ownScript: false, currencies: ["EUR", "CHF", "XOF", "XAF", "MAD"],
            decimal: ",", group: [narrow, nbsp, " "],
            totals: ["total", "montant", "somme", "à payer", "a payer", "net à payer", "total ttc"], matching: .words),
        Language(
            code: "es", name: "Spanish", tesseract: "spa", ownScript: false, currencies: ["EUR", "MXN", "ARS", "COP", "CLP", "PEN"],
            decimal: ",", group: ["."], totals: ["total", "importe", "a pagar", "total a pagar", "suma"], matching: .words),
        Language(
            code: "it", name: "Italian", tesseract: "ita", ownScript: false, currencies: ["EUR", "CHF"],
            decimal: ",", group: ["."], totals: ["totale", "importo", "da pagare", "totale complessivo"], matching: .words),
        Language(
            code: "pt", name: "Portuguese", tesseract: "por", ownScript: false, currencies: ["EUR", "BRL"],
            decimal: ",", group: [".", nbsp, " "], totals: ["total", "a pagar", "valor total", "total a pagar"], matching: .words),
        Language(
            code: "nl", name: "Dutch", tesseract: "nld", ownScript: false, currencies: ["EUR"],
            decimal: ",", group: ["."], totals: ["totaal", "te betalen", "bedrag", "totaalbedrag"], matching: .words),
        Language(
            code: "pl", name: "Polish", tesseract: "pol", ownScript: false, currencies: ["PLN"],
            decimal: ",", group: [nbsp, " "], totals: ["suma", "razem", "do zapłaty", "suma pln"], matching: .words),
        Language(
            code: "cs", name: "Czech", tesseract: "ces", ownScript: false, currencies: ["CZK"],
            decimal: ",", group: [nbsp, " "], totals: ["celkem", "k úhradě", "k platbě", "suma"], matching: .words),
        Language(
            code: "hu", name: "Hungarian", tesseract: "hun", ownScript: false, currencies: ["HUF"],
            decimal: ",", group: [nbsp, " "], totals: ["összesen", "fizetendő", "végösszeg"], matching: .words),
        Language(
            code: "tr", name: "Turkish", tesseract: "tur", ownScript: false, currencies: ["TRY"],
            decimal: ",", group: ["."], totals: ["toplam", "genel toplam", "tutar", "ödenecek"], matching: .words),
        Language(
            code: "el", name: "Greek", tesseract: "ell", ownScript: true, currencies: ["EUR"],
            decimal: ",", group: ["."], totals: ["σύνολο", "συνολο", "πληρωτέο", "γενικό σύνολο"], matching: .words),
        Language(
            code: "ru", name: "Russian", tesseract: "rus", ownScript: true, currencies: ["RUB", "BYN", "KZT"],
            decimal: ",", group: [nbsp, " "], totals: ["итого", "всего", "сумма", "к оплате"], matching: .words),
        Language(
            code: "uk", name: "Ukrainian", tesseract: "ukr", ownScript: true, currencies: ["UAH"],
            decimal: ",", group: [nbsp, " "], totals: ["разом", "всього", "сума", "до сплати"], matching: .words),
        Language(
            code: "bg", name: "Bulgarian", tesseract: "bul", ownScript: true, currencies: ["BGN"],
            decimal: ",", group: [nbsp, " "], totals: ["общо", "сума", "за плащане"], matching: .words),
        Language(
            code: "th", name: "Thai", tesseract: "tha", ownScript: true, currencies: ["THB"],
            decimal: ".", group: [","], totals: ["รวมทั้งสิ้น", "ยอดรวม", "ยอดสุทธิ", "รวม"], matching: .substring),
        Language(
            code: "vi", name: "Vietnamese", tesseract: "vie", ownScript: false, currencies: ["VND"],
            decimal: ",", group: ["."], totals: ["tổng cộng", "tổng", "thành tiền", "tổng tiền"], matching: .words),
        Language(
            code: "ms", name: "Malay", tesseract: "msa", ownScript: false, currencies: ["MYR", "BND"],
            decimal: ".", group: [","], totals: ["jumlah", "jumlah besar", "jumlah keseluruhan"], matching: .words),
        Language(
            code: "id", name: "Indonesian", tesseract: "ind", ownScript: false, currencies: ["IDR"],
            decimal: ",", group: ["."], totals: ["total", "jumlah", "total bayar"], matching: .words),
        Language(
            code: "hi", name: "Hindi", tesseract: "hin", ownScript: true, currencies: ["INR"],
            decimal: ".", group: [","], totals: ["कुल राशि", "कुल", "योग"], matching: .substring),
        Language(
            code: "ja", name: "Japanese", tesseract: "jpn", ownScript: true, currencies: ["JPY"],
            decimal: ".", group: [","], totals: ["合計", "総計", "お会計", "会計"], matching: .substring),
        Language(
            code: "ko", name: "Korean", tesseract: "kor", ownScript: true, currencies: ["KRW"],
            decimal: ".", group: [","], totals: ["합계", "총액", "총계", "결제금액"], matching: .substring),
        Language(
            code: "zh", name: "Chinese (simplified)", tesseract: "chi_sim", ownScript: true, currencies: ["CNY"],
            decimal: ".", group: [","], totals: ["合计", "总计", "总额", "应付", "实付"], matching: .substring),
        Language(
            code: "zh-Hant", name: "Chinese (traditional)", tesseract: "chi_tra", ownScript: true, currencies: ["TWD", "HKD", "MOP"],
            decimal: ".", group: [","], totals: ["合計", "總計", "總額", "應付", "實付"], matching: .substring),
    ]

    /// Currencies priced in a language that groups thousands with a space (CLDR: fr, pl, cs,
    /// ru, …): a plain space between digit groups there is likely grouping (`12 490` CZK).
    public static let spaceGroupedCurrencies: Set<String> = Set(
        all.filter { $0.group.contains { $0 == " " || $0 == nbsp || $0 == narrow } }.flatMap(\.currencies))

    /// The language a user names: ISO 639-1 (`fr`), Tesseract's code (`fra`) or its English
    /// name (`french`), any case; nil when none matches.
    public static func named(_ s: String) -> Language? {
        let key = s.lowercased()
        return all.first { $0.code.lowercased() == key || $0.tesseract == key || $0.name.lowercased() == key }
    }

    /// The models to load besides `eng` for shops pricing in `currency`: those of the
    /// languages whose script `eng` cannot read (Latin-script languages add nothing to the
    /// prices `eng` reads, and their total keywords match without their model).
    public static func scriptModels(for currency: String?) -> [String] {
        guard let c = currency?.uppercased() else { return [] }
        var out: [String] = []
        for l in all where l.ownScript && l.currencies.contains(c) && !out.contains(l.tesseract) && c != "EUR" {
            out.append(l.tesseract)
        }
        return out
    }
}
