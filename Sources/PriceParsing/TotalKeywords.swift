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
        "kopā", "iš viso", "att betala", "grand total",
    ]

    static let keywords = ReceiptKeywords(
        words: Language.all.filter { $0.matching == .words }.flatMap(\.totals) + moreWords,
        substrings: Language.all.filter { $0.matching == .substring }.flatMap(\.totals))

    static func matches(_ line: TextLine) -> Bool { keywords.matches(line) }
}
