import Foundation
#if canImport(Geometry)
    import Geometry  // (absent when the parser is compiled alone: scripts/bench-parse.sh)
#endif

/// Menus and price lists print bare whole numbers (`牛肉麵 180`, `Pad thai 120`, `S 120 / L 150`)
/// in currencies whose cash and lists use no minor unit although ISO 4217 gives them two (TWD,
/// CZK, SEK, NOK, PKR: CLDR's `cashDigits`, `Currencies.printedDigits`). With such a currency,
/// a whole number is a price where the layout says so:
/// - **the end of a row**: text, then the number, and nothing after it but punctuation;
/// - **an option**: the number right after a size, option or count word (`S`/`M`/`L`,
///   `小`/`大`, `small`/`large`, `glass`/`bottle`, `6 pcs`), on a row that ends with a price.
/// Numbers that are not prices stay out: after a reference word (`No. 12`, `Table 4`, `Lane 25`,
/// `Since 1998`, `© 2024`), with a unit (`350 kcal`, `6 pcs`: the scanner's units), times,
/// phone numbers and dates (the scanner's), one digit alone (`Set 2`), and a number inside a
/// row (`Set for 2 people 1280`: only 1280 ends it).
enum MenuPrices {
    /// Words after which a number is a reference, not a price: numbering, addresses, dates.
    static let referenceWords: Set<String> = [
        "no", "no.", "nr", "nr.", "n°", "#", "tel", "tel.", "phone", "fax", "table", "tisch", "table:", "room", "since",
        "est", "est.", "©", "(c)", "copyright", "lane", "alley", "road", "rd", "rd.", "street", "st", "st.", "ave", "floor",
        "fl", "fl.", "page", "p.", "top", "level", "bus", "zip", "postcode",
        // tables and opening hours: `Stůl 12`, `Öppet 11-22`
        "stůl", "stół", "mesa", "tavolo", "tafel", "bord", "bàn", "open", "opening", "hours", "daily", "öppet",
        "geöffnet", "otevřeno", "ouvert", "abierto", "aperto", "horario", "orario", "åpent", "åben",
        // addresses: `Số 12 phố Hàng Bạc` (vi), `Hausnummer`
        "số", "so", "ul.", "ulica", "via", "rue", "calle", "straße", "strasse",
    ]
    /// Endings of a CJK word that make the number after it a reference (`7號`, `2樓`, `信義路5段`
    /// put the number before them; `桌 12`, `年 2024` after).
    static let referenceEndings: [Character] = ["號", "号", "樓", "楼", "巷", "弄", "路", "街", "段", "桌", "年", "第", "間", "间"]
    /// Size and option words a price may follow on a row of options.
    static let optionWords: Set<String> = [
        "s", "m", "l", "xl", "xs", "xxl", "小", "中", "大", "特大", "small", "medium", "large", "regular", "reg", "reg.", "half",
        "full", "single", "double", "triple", "glass", "bottle", "cup", "pot", "jug", "hot", "iced", "cold", "petit", "grand",
        "moyen", "verre", "bouteille", "carafe", "piccolo", "piccola", "grande", "media", "medio", "bicchiere", "bottiglia",
        "pequeño", "pequeña", "mediano", "copa", "botella", "jarra", "klein", "groß", "gross", "glas", "flasche", "小杯",
        "中杯", "大杯", "熱", "冰", "热", "小碗", "大碗", "小份", "大份", "작은", "큰", "레귤러", "라지", "ly", "chai", "nhỏ", "lớn",
        "vừa", "μικρό", "μεγάλο", "ποτήρι", "μπουκάλι", "เล็ก", "ใหญ่", "กลาง", "ร้อน", "เย็น", "ปั่น", "sklenka", "láhev",
        "malé", "velké", "malý", "velký", "liten", "stor", "flaska",
        // counts: `6 pcs 120 / 10 pcs 180`, `6個 120`
        "pcs", "pc", "pieces", "pcs.", "個", "件", "份", "개", "ชิ้น", "chiếc", "szt", "ks", "stk",
    ]

    /// Whole numbers on `lines` that `perLine` lacks and that the layout makes prices, as
    /// matches to add to their lines.
    static func additions(lines: [TextLine], perLine: [[PriceMatch]], options: ParserOptions) -> [(line: Int, match: PriceMatch)] {
        guard options.bareNumbers == .decimals, let hint = options.currencyHint?.uppercased(),
            Currencies.printedDigits(hint) == 0, Associator.separatorMinorUnits(hint) != 0
        else { return [] }
        var all = options
        all.bareNumbers = .all
        let loose = PriceParser(options: all)
        var out: [(Int, PriceMatch)] = []
        for (i, line) in lines.enumerated() {
            let words = line.words.map(\.text)
            var cursor = 0
            var found: [(match: PriceMatch, first: Int, last: Int)] = []
            for m in loose.parse(line) {
                guard let (a, b) = wordRange(of: m.text, in: words, from: cursor) else { continue }
                cursor = a
                found.append((m, a, b))
            }
            let endsWithPrice = found.last.map { rowEnd($0.last, words) && hasText(before: $0.first, words) } ?? false
            for (m, a, b) in found {
                guard m.flags.contains(.bareNumber), m.amount >= 10, m.amount == m.amount.rounded,
                    !perLine[i].contains(where: { $0.text == m.text && $0.amount == m.amount }),
                    !isReference(before: a, words)
                else { continue }
                let atEnd = rowEnd(b, words) && hasText(before: a, words)
                let option = a > 0 && optionWords.contains(words[a - 1].lowercased()) && endsWithPrice
                if atEnd || option { out.append((i, m)) }
            }
        }
        return out
    }

    /// `perLine` without the bare whole numbers that a reference word stands right before
    /// (`No. 12`, `Số 12`, `Table 4`), in a currency printed whole, whatever rule took them:
    /// zero-minor-unit currencies take every bare whole number.
    static func withoutReferences(_ perLine: [[PriceMatch]], lines: [TextLine], options: ParserOptions) -> [[PriceMatch]] {
        guard let hint = options.currencyHint?.uppercased(), Currencies.printedDigits(hint) == 0 else { return perLine }
        var out = perLine
        for (i, line) in lines.enumerated() where !perLine[i].isEmpty {
            let words = line.words.map(\.text)
            var cursor = 0
            out[i] = perLine[i].filter { m in
                guard m.flags.contains(.bareNumber), m.amount == m.amount.rounded,
                    let (a, _) = wordRange(of: m.text, in: words, from: cursor)
                else { return true }
                cursor = a
                return !isReference(before: a, words)
            }
        }
        return out
    }

    /// The words `text` (a match's text: words joined by spaces) spans, searching from word
    /// `start`.
    static func wordRange(of text: String, in words: [String], from start: Int) -> (Int, Int)? {
        let pieces = text.split(separator: " ").map(String.init)
        guard let first = pieces.first, start < words.count else { return nil }
        for j in start..<words.count where words[j].contains(first) {
            let last = j + pieces.count - 1
            if last < words.count { return (j, last) }
        }
        return nil
    }

    /// Nothing after word `last` but punctuation; the number's own word holds no letter after
    /// its digits (`12號`).
    static func rowEnd(_ last: Int, _ words: [String]) -> Bool {
        guard last < words.count else { return false }
        if let tail = words[last].lastIndex(where: \.isNumber), words[last][words[last].index(after: tail)...].contains(where: \.isLetter) {
            return false
        }
        return words[(last + 1)...].allSatisfy { w in !w.contains { $0.isLetter || $0.isNumber } }
    }

    /// Text before the number: in the words before it, or glued before its digits (`牛肉麵180`).
    static func hasText(before first: Int, _ words: [String]) -> Bool {
        words[..<first].contains { w in w.contains(where: \.isLetter) }
            || words[first].prefix(while: { !$0.isNumber }).contains(where: \.isLetter)
    }

    static func isReference(before first: Int, _ words: [String]) -> Bool {
        guard first > 0 else { return false }
        let w = words[first - 1].lowercased()
        return referenceWords.contains(w) || w.last.map(referenceEndings.contains) == true
    }
}
