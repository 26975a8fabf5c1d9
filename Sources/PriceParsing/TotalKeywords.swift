#if canImport(Geometry)
    import Geometry  // (absent when the parser is compiled alone: scripts/bench-parse.sh)
#endif
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

    /// Words seen on total lines beyond `Language.all`'s (Nordic, Baltic, Balkan receipts).
    static let moreWords = [
        "totals", "totale", "totaal", "summa", "yhteensä", "totalt", "samtals", "ukupno", "skupaj", "kokku",
        "kopā", "iš viso", "att betala", "grand total",
    ]

    /// One-word keywords, OCR-folded.
    static let single: Set<String> = Set(
        (Language.all.filter { $0.matching == .words }.flatMap(\.totals) + moreWords)
            .filter { !$0.contains(" ") }.map { fold($0[...]) })

    /// Keywords of several words, OCR-folded word by word.
    static let phrases: Set<[String]> = Set(
        (Language.all.filter { $0.matching == .words }.flatMap(\.totals) + moreWords)
            .filter { $0.contains(" ") }.map { p in p.split(separator: " ").map { fold($0) } })
    static let longestPhrase = phrases.map(\.count).max() ?? 1

    /// Keywords matched anywhere in the line (scripts without word spaces).
    static let substrings: [String] = Language.all.filter { $0.matching == .substring }.flatMap(\.totals)

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
            for n in stride(from: 2, through: min(longestPhrase, words.count - i), by: 1) where phrases.contains(Array(words[i..<(i + n)]))
            {
                return true
            }
        }
        return substrings.contains { text.contains($0) }
    }
}
