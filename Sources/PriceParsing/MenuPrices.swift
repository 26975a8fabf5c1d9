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
/// In any currency, a whole number is a price where the page's own prices say so:
/// - **a column of whole prices**: it ends a row, and its right edge lines up with two or more
///   whole-number prices the page prints with their mark on other rows (`麻婆豆腐 37` under
///   `75元` and `¥84`: OCR lost the `¥`). A receipt's price column holds decimals: no column.
/// - **an option** before a marked price on its row (`小份 93 大份 91元`).
/// - **a column of unmarked whole prices**: a menu that prints no mark and no decimals
///   (`Spaghetti carbonara 14`, `Tiramisu ...... 12`: many menus in euros, dollars and pounds):
///   at least three rows end with a whole number of two to `unmarkedDigits` digits, their
///   right edges lined up, and no amount with a decimal part on the page lines up with them
///   (a receipt's price column holds decimals; a quantity or a line number beside it is no
///   price). A one-digit number that ends a row in such a column is a price too (`Coffee 3`),
///   and so is a number after an option word on a row the column ends (`Small 8  Large 17`).
/// Numbers that are not prices stay out: after a reference word (`No. 12`, `Table 4`, `Lane 25`,
/// `Since 1998`, `© 2024`) or before a reference ending (`1998 年`, `7 號`), with a unit
/// (`350 kcal`, `6 pcs`: the scanner's units), times, phone numbers and dates (the scanner's),
/// one digit alone (`Set 2`) outside an unmarked column, and a number inside a row (`Set for 2 people 1280`: only 1280
/// ends it). Before a row's last price, in any currency: the row's item number (`23. 김치찌개 9,500`)
/// and a note in parentheses (`(390 kcal)`, its unit read or not) (`withoutReferences`).
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
    /// CJK reference characters: a word ending in one makes the number after it a reference
    /// (`桌 12`, `年 2024`, `信義路5段`), and one right after a number makes that number one
    /// (`7號`, `2樓`, `1998年`, `1998년`).
    static let referenceEndings: [Character] = [
        "號", "号", "樓", "楼", "巷", "弄", "路", "街", "段", "桌", "年", "第", "間", "间", "년",
    ]
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
        guard options.bareNumbers == .decimals else { return [] }
        let hint = options.currencyHint?.uppercased()
        if let hint, Associator.separatorMinorUnits(hint) == 0 { return [] }  // every bare whole number is taken
        let wholeCurrency = hint.map { Currencies.printedDigits($0) == 0 } ?? false
        // The page's marked whole prices: the right edges of a column of them.
        let marked = perLine.enumerated().flatMap { (i, ms) in
            ms.filter { !$0.flags.contains(.bareNumber) && printedWhole($0) && $0.box != nil }.map { (line: i, match: $0) }
        }
        var all = options
        all.bareNumbers = .all
        let loose = PriceParser(options: all)
        var out: [(Int, PriceMatch)] = []
        // Whole numbers that end a row after its text, not taken by the rules above: a column
        // of them is a price list's (`unmarkedColumn`).
        var rowEnds: [(line: Int, match: PriceMatch)] = []
        // Whole numbers after an option word, on a row that may end in such a column.
        var options: [(line: Int, match: PriceMatch)] = []
        for (i, line) in lines.enumerated() {
            let words = line.words.map(\.text)
            var cursor = 0
            var found: [(match: PriceMatch, first: Int, last: Int)] = []
            for m in loose.parse(line) {
                guard let (a, b, next) = wordRange(of: m.text, in: words, from: cursor) else { continue }
                cursor = next
                found.append((m, a, b))
            }
            let endsWithPrice = found.last.map { rowEnd($0.last, words) && hasText(before: $0.first, words) } ?? false
            // its mark may be glued after it (`91元`): only the words after it must be punctuation
            let endsWithMarkedPrice =
                found.last.map { l in
                    perLine[i].contains { $0.text == l.match.text && !$0.flags.contains(.bareNumber) }
                        && words[(l.last + 1)...].allSatisfy { w in !w.contains { $0.isLetter || $0.isNumber } }
                } == true
            for (m, a, b) in found {
                guard m.flags.contains(.bareNumber), m.amount >= 1, m.amount == m.amount.rounded,
                    !perLine[i].contains(where: { $0.text == m.text && $0.amount == m.amount }),
                    !isReference(before: a, words, read: line), !isReference(after: b, words, read: line)
                else { continue }
                let atEnd = rowEnd(b, words) && hasText(before: a, words)
                let afterOption = a > 0 && optionWords.contains(words[a - 1].lowercased())
                // One digit alone is a price only in a column of longer ones (`Coffee 3`).
                guard m.amount >= 10 else {
                    if atEnd, m.box != nil { rowEnds.append((i, m)) } else if afterOption { options.append((i, m)) }
                    continue
                }
                let option = afterOption && (wholeCurrency ? endsWithPrice : endsWithMarkedPrice)
                let inColumn = atEnd && m.box.map { box in inPriceColumn(box, line: i, marked) } == true
                if (wholeCurrency && atEnd) || option || inColumn {
                    out.append((i, m))
                } else if atEnd, m.box != nil, m.text.filter(\.isNumber).count <= unmarkedDigits {
                    rowEnds.append((i, m))
                } else if afterOption, !atEnd {
                    options.append((i, m))
                }
            }
        }
        let decimals = perLine.flatMap { $0.filter { !printedWhole($0) } }.compactMap(\.box)
        let longer = rowEnds.filter { $0.match.amount >= 10 }
        var columnRows = Set<Int>()
        for (i, m) in rowEnds {
            guard let box = m.box else { continue }
            let others = m.amount >= 10 ? unmarkedColumn - 1 : unmarkedColumn
            if inPriceColumn(box, line: i, longer, needed: others), !decimals.contains(where: { alignedRight($0, box) }) {
                out.append((i, m))
                columnRows.insert(i)
            }
        }
        // An option's price on a row whose last price the column took (`Small 8  Large 17`).
        for (i, m) in options where columnRows.contains(i) && !out.contains(where: { $0.0 == i && $0.1.text == m.text }) {
            out.append((i, m))
        }
        return out
    }

    /// Fewest whole numbers of two or more digits in an unmarked column of prices: three rows,
    /// the fewest that make a column rather than a coincidence (as `columnPrices` others make
    /// one with a marked price). A header block's one-digit values (`Kasse 5`, `Bediener 2`) line
    /// up too, so one-digit numbers join a column but never make one.
    static let unmarkedColumn = 3

    /// Most digits of a whole number in an unmarked column of prices (`unmarkedColumn`): a dish
    /// in a currency with a minor unit costs less than 10 000 of it, while the numbers a
    /// receipt's or a page's header lines end with (an invoice, a terminal, a phone) run longer.
    static let unmarkedDigits = 4

    /// Whether the right edges of `a` and `b` line up within `b`'s height.
    static func alignedRight(_ a: Box, _ b: Box) -> Bool {
        abs(a.x + a.width - (b.x + b.width)) <= max(b.height, 1)
    }

    /// Whether `m` is printed without a decimal part (`75元`, `¥84`; not `RM 73.00`).
    static func printedWhole(_ m: PriceMatch) -> Bool {
        guard m.amount == m.amount.rounded else { return false }
        let c = Array(m.text)
        for i in c.indices where (c[i] == "." || c[i] == ",") && i > 0 && c[i - 1].isNumber {
            var n = 0
            while i + 1 + n < c.count, c[i + 1 + n].isNumber { n += 1 }
            if n == 1 || n == 2 { return false }
        }
        return true
    }

    /// Fewest marked whole prices on other rows a number's right edge must line up with: two,
    /// so one price that happens to end where it does is not a column.
    static let columnPrices = 2

    /// Whether `box`'s right edge lines up, within its own height, with `needed` or more of
    /// `marked` on other lines than `line`.
    static func inPriceColumn(_ box: Box, line: Int, _ marked: [(line: Int, match: PriceMatch)], needed: Int = columnPrices) -> Bool {
        let aligned = marked.filter { m in
            guard m.line != line, let b = m.match.box else { return false }
            return alignedRight(b, box)
        }
        return aligned.count >= needed
    }

    /// `perLine` without the bare whole numbers that a reference word stands right before
    /// (`No. 12`, `Số 12`, `Table 4`) or a reference ending right after (`1998 年`), whatever
    /// rule took them: zero-minor-unit currencies take every bare whole number, and a number
    /// printed large (`Prominence`) is taken in any currency.
    static func withoutReferences(_ perLine: [[PriceMatch]], lines: [TextLine], options: ParserOptions) -> [[PriceMatch]] {
        var out = perLine
        for (i, line) in lines.enumerated() where !perLine[i].isEmpty {
            let words = line.words.map(\.text)
            var cursor = 0
            let ms = perLine[i]
            out[i] = ms.indices.filter { k in
                let m = ms[k]
                // every match moves the cursor, so a bare number after `¥84` is not looked
                // for inside it
                guard let (a, b, next) = wordRange(of: m.text, in: words, from: cursor) else { return true }
                cursor = next
                // printed whole: a decimal part makes a number money, not a reference (`© 6.00`,
                // a receipt's column with a stray mark OCR read as `©`: sroie-dev 006)
                guard m.flags.contains(.bareNumber), printedWhole(m) else { return true }
                // a row's last price is its price; a note or a number before it is not
                let beforePrice = k < ms.count - 1
                return !isReference(before: a, words, read: line) && !isReference(after: b, words, read: line)
                    && !(beforePrice && (isItemNumber(a, b, words) || isNote(a, words)))
            }.map { ms[$0] }
        }
        return out
    }

    /// A bare whole number under this share of the page's median price is no price: the prices
    /// on one page (a menu, a receipt, a shelf) span less than three orders of magnitude, while
    /// house numbers, table numbers and counts stay small whatever the currency (`명동 12` on a
    /// menu of `25000`s, `Số 12` among `45000`s). It bites only where prices run to tens of
    /// thousands (KRW, VND, IDR): `12` under a median of 1 200 yen stays.
    static let smallestShare = Decimal(1) / Decimal(1000)
    /// Fewest prices on a page for its median to say anything.
    static let medianPrices = 5

    /// `perLine` without the bare whole numbers below `smallestShare` of the page's median price.
    static func withoutTiny(_ perLine: [[PriceMatch]]) -> [[PriceMatch]] {
        let amounts = perLine.flatMap { $0.map(\.amount) }.filter { $0 > 0 }
        guard amounts.count >= medianPrices, let median = amounts.median else { return perLine }
        let floor = median * smallestShare
        return perLine.map { ms in
            ms.filter { m in !(m.flags.contains(.bareNumber) && m.amount == m.amount.rounded && m.amount > 0 && m.amount < floor) }
        }
    }

    /// The words `text` (a match's text: words joined by spaces) spans, searching from word
    /// `start`, and the word to search the line's next match from: the one after them, unless
    /// digits follow the match in its last word (`120/150`: two prices in one word). Searching
    /// the next match from its last word instead found the `8` of `Klein 28 Groß 8` in `28`
    /// (fixture menu de_2: neither option's price was taken).
    static func wordRange(of text: String, in words: [String], from start: Int) -> (first: Int, last: Int, next: Int)? {
        let pieces = text.split(separator: " ").map(String.init)
        guard let first = pieces.first, let tail = pieces.last, start < words.count else { return nil }
        for j in start..<words.count where words[j].contains(first) {
            let last = j + pieces.count - 1
            guard last < words.count else { continue }
            let word = words[last]
            let after = word.range(of: tail).map { word[$0.upperBound...] } ?? ""
            return (j, last, after.contains(where: \.isNumber) ? last : last + 1)
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

    /// A reference ending right after the number, glued (`1998年`) or as the next word
    /// (`1998 年`, `7 號`): a year, a house number, a floor. A next word that `line` holds
    /// read under `referenceConfidence` is no reference (`read`).
    static func isReference(after last: Int, _ words: [String], read line: TextLine? = nil) -> Bool {
        guard last < words.count else { return false }
        let w = words[last]
        if let tail = w.lastIndex(where: \.isNumber), let c = w[w.index(after: tail)...].first { return referenceEndings.contains(c) }
        guard last + 1 < words.count, let c = words[last + 1].first, read(last + 1, in: line) else { return false }
        return referenceEndings.contains(c)
    }

    /// Least confidence of a word of its own (not glued to the number) for it to make a number
    /// beside it a reference (`isReference`). Read less surely, it is as likely a mark the
    /// reader made words of: a shelf photo's packaging read `間` at 0 between two tags' `39`
    /// and `79`, which a reference ending would have taken both prices for house numbers.
    /// Half: Tesseract's and the recogniser's words read at under 0.5 are garbled as often as
    /// not (`PageReader.garbled`, the confidence under which a reading is read again); a real
    /// reference (`No.`, `號`, `Tel`), printed in the page's own type, reads far surer.
    static let referenceConfidence = 0.5

    /// Whether word `index` of `line` (the words `isReference` searches) was read at
    /// `referenceConfidence` or more; true when no line is given (words without confidences).
    static func read(_ index: Int, in line: TextLine?) -> Bool {
        guard let line, line.words.indices.contains(index) else { return true }
        return line.words[index].confidence >= referenceConfidence
    }

    /// A row's item number: the row's first word, digits closed by `.` or `)` alone (`12.`,
    /// `7)`), with text after it: a menu's dish number (`23. Bibimbap 9,500`) or a receipt's
    /// line number (`3. Milk 1.99`). It is a reference only before the row's price (the
    /// caller's check): a row's one bare number is left to the other rules, and a price
    /// printed before its item carries a mark or a decimal part (`¥198`, `3.50`), which no
    /// bare number does.
    ///
    /// Marks before the digits (`(61.`, `#12.`: a frame or a bullet OCR read as punctuation)
    /// leave the word an item number.
    static func isItemNumber(_ first: Int, _ last: Int, _ words: [String]) -> Bool {
        guard first == 0, last == 0, let close = words[0].last, close == "." || close == ")" else { return false }
        let digits = words[0].dropLast().drop { !$0.isLetter && !$0.isNumber }
        return !digits.isEmpty && digits.allSatisfy(\.isNumber)
            && words.dropFirst().contains { w in w.contains(where: \.isLetter) }
    }

    /// A number that opens a parenthesis (`(390 kcal)`, `(2 pcs)`, `(200g)`) on a row that
    /// prints its price after it (the caller's check): a note on the dish, whose unit OCR may
    /// have garbled (`(390 <!)`), never the price it stands before.
    static func isNote(_ first: Int, _ words: [String]) -> Bool {
        words[first].first == "(" && words[first].dropFirst().first?.isNumber == true
    }

    /// A reference word right before the number (`No. 12`, `桌 12`), read at
    /// `referenceConfidence` or more when `line` tells.
    static func isReference(before first: Int, _ words: [String], read line: TextLine? = nil) -> Bool {
        guard first > 0, read(first - 1, in: line) else { return false }
        let w = words[first - 1].lowercased()
        return referenceWords.contains(w) || w.last.map(referenceEndings.contains) == true
    }
}
