// Differential dump for PriceParsing: every match of every line of the bench corpora, of
// extra line files, and of deterministic random lines, under several parser options, with
// and without word boxes, line by line and page by page. Two builds of the parser that
// write the same dump give the same results (scripts/fuzz/bench/diff-check.sh).
import Foundation

/// The parsers the dump runs: default options and the variants that change code paths
/// (hints with 0, 2 and 3 minor units, a space-grouping hint, every bare-number policy).
let dumpParsers: [PriceParser] = [
    PriceParser(),
    PriceParser(options: ParserOptions(currencyHint: "jpy", bareNumbers: .all)),
    PriceParser(options: ParserOptions(currencyHint: "KWD", bareNumbers: .never)),
    PriceParser(options: ParserOptions(currencyHint: "CZK")),
    PriceParser(options: ParserOptions(currencyHint: "EUR", bareNumbers: .all)),
    PriceParser(options: ParserOptions(currencyHint: "HUF")),
    PriceParser(options: ParserOptions(currencyHint: "CAD")),
]

/// Pieces random lines are made of: digits, every separator, dash and space the scanner
/// knows, markers, units, look-alike letters, raised digits, CJK and right-to-left text.
let fragments: [String] = [
    "1", "12", "123", "1234", "0", "05", "99", "250", "1000", "4006381333931", "７", "１２",
    ".", ",", "'", "’", "ʼ", "´", " ", " ", "\u{A0}", "\u{2009}", "\u{202F}", "\u{3000}", "\t", "．", "，",
    "-", "–", "—", "−", ":", "/", "(", ")", "+", "#", "@", "%", "‰", "*", "?", "=", ";", "：",
    "€", "$", "¥", "￥", "£", "¢", "₹", "₽", "₩", "₿", "＄", "円", "元", "원", "kr", "kr.", "zł", "zl", "Kč",
    "R$", "Fr.", "fr", "CHF", "EUR", "eur", "usd", "USD", "all", "ALL", "руб.", "р.", "р", "đ",
    "ل.س.\u{200F}", "د.إ.", "Rs.", "Rs", "S/.", "B/.", "Ft", "FT", "Q", "R", "E", "S", "L.E.", "NT$", "HK$",
    "Summe", "SUMME", "Total", "T0TAL", "zu zahlen", "合計", "税込", "итого", "kg", "g", "x", "per", "je",
    "pcs", "100", "/kg", "ea", "UVP", "ab", "Milch", "A", "a", "SKU", "Tel.", "O", "o", "l", "I", "|", "B",
    "⁹⁹", "⁹", "²", "⁰", ",-", ".–", "ラーメン", "원", "Ⅻ", "ß", "é", "\u{301}", "\u{200E}", "🙂",
]

/// `count` lines drawn from `fragments` by a fixed linear congruential sequence.
func randomLines(_ count: Int, seed: UInt64) -> [String] {
    var x = seed
    func next(_ bound: Int) -> Int {
        x = x &* 6364136223846793005 &+ 1442695040888963407
        return Int((x >> 33) % UInt64(bound))
    }
    return (0..<count).map { _ in
        var line = ""
        for _ in 0..<(1 + next(9)) {
            line += fragments[next(fragments.count)]
            if next(3) == 0 { line += " " }
        }
        return line
    }
}

/// The line with a box per word (wide gaps on some) and varied OCR confidence, so that
/// box-based joining, box unions and confidences are exercised.
func boxed(_ line: TextLine, row: Int) -> TextLine {
    var x = 10
    let words = line.words.enumerated().map { (i, w) in
        let width = 9 * w.text.unicodeScalars.count, height = 12 + (i * 7 + row) % 20
        defer { x += width + ((i + row) % 4 == 0 ? 40 : 6) }
        return TextWord(text: w.text, box: Box(x: x, y: row * 30, width: width, height: height),
                        confidence: Double((i * 37 + row) % 100) / 100)
    }
    return TextLine(words: words)
}

func dumpRecord(_ m: PriceMatch) -> String {
    let a = m.amount
    let raw = withUnsafeBytes(of: a) { $0.map { String($0, radix: 16) }.joined(separator: ".") }  // every field
    let box = m.box.map { "\($0.array)" } ?? "-"
    return [m.text, "\(a)", raw, m.currency ?? "-", m.marker ?? "-", box, String(m.confidence.bitPattern, radix: 16),
            "\(m.flags.rawValue)", m.role?.rawValue ?? "-", m.unit ?? "-"].joined(separator: "\t")
}

/// Writes the dump of `lines` (plus random lines) to `path`.
func writeDump(_ path: String, lines: [String]) throws {
    let all = lines + randomLines(200_000, seed: 2024)
    var out = ""
    out.reserveCapacity(64 << 20)
    for (i, text) in all.enumerated() {
        let plain = TextLine(text: text), withBoxes = boxed(plain, row: i)
        for (p, parser) in dumpParsers.enumerated() {
            for m in parser.parse(plain) { out += "\(i) \(p) \(dumpRecord(m))\n" }
            for m in parser.parse(withBoxes) { out += "\(i) \(p)b \(dumpRecord(m))\n" }
        }
    }
    // pages of 7 boxed lines: total keywords, prominence
    for start in stride(from: 0, to: all.count, by: 7) {
        let page = (start..<min(start + 7, all.count)).map { boxed(TextLine(text: all[$0]), row: $0) }
        for (p, parser) in dumpParsers.enumerated() {
            for m in parser.parse(lines: page) { out += "page \(start) \(p) \(dumpRecord(m))\n" }
        }
    }
    try out.write(toFile: path, atomically: true, encoding: .utf8)
}
