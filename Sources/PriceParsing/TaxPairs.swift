import Foundation
#if canImport(Geometry)
    import Geometry  // (absent when the parser is compiled alone: scripts/bench-parse.sh)
#endif

/// A price shown with and without tax on one tag (Japan's 本体 398円 / 税込 429円, France's
/// HT / TTC, Germany's netto / brutto): both amounts are kept, marked with their role, and
/// the one printed in larger type, the one the shop shows first, is listed first.
enum TaxPairs {
    /// Words that say a price is with or without tax, from shop tags and receipts of the
    /// languages in `Languages.swift` (Japan's 総額表示 labels; EU VAT wording as printed:
    /// TTC/HT, inkl./zzgl. MwSt, IVA incluido/+IVA, incl./excl. btw, brutto/netto, s DPH /
    /// bez DPH; English "incl./excl. tax", "+tax", "inc/ex VAT", "+GST"). Matched
    /// case-insensitively; ASCII words only as whole words.
    static let keywords = [
        "税込", "税抜", "税別", "本体", "総額",
        "ttc", "ht", "inkl", "zzgl", "mwst", "brutto", "netto", "iva", "btw", "dph", "tva",
        "vat", "gst", "tax", "+tax", "incl", "excl",
    ]

    /// Tax rates printed prices are apart by: VAT and consumption taxes run from 5% (Japan's
    /// earlier rate, reduced rates) to 27% (Hungary); 3% leaves room for rounding.
    static let ratios = Decimal(string: "1.03")!...Decimal(string: "1.28")!

    /// How near two prices of a pair stand, in the taller one's heights (the same tag).
    static let horizontalReach = 6.0
    static let verticalReach = 4.0

    static func hasKeyword(_ line: TextLine) -> Bool {
        let lower = line.text.lowercased()
        let words = Set(lower.split(whereSeparator: { !$0.isLetter && $0 != "+" }).map(String.init))
        return keywords.contains { k in k.allSatisfy(\.isASCII) ? words.contains(k) : lower.contains(k) }
    }

    /// Marks the pairs among `perLine` (the prices of each of `lines`) and returns them in
    /// output order: each pair's larger-type price moved before its partner.
    static func marked(_ perLine: [[PriceMatch]], lines: [TextLine]) -> [(match: PriceMatch, line: Int)] {
        var flat: [(match: PriceMatch, line: Int)] = []
        for (i, ms) in perLine.enumerated() { flat += ms.map { ($0, i) } }
        let taxed = lines.map(hasKeyword)
        // A paired price has its role; so has a total, which pairs with nothing.
        func free(_ i: Int) -> Bool { flat[i].match.role == nil && flat[i].match.amount > 0 }
        for a in flat.indices where free(a) {
            for b in flat.indices where b > a && free(b) {
                guard pair(flat[a], flat[b], taxed: taxed) else { continue }
                let (low, high) = flat[a].match.amount < flat[b].match.amount ? (a, b) : (b, a)
                flat[low].match.role = .taxExcluded
                flat[high].match.role = .taxIncluded
                if let ha = flat[a].match.box?.height, let hb = flat[b].match.box?.height, hb > ha {
                    flat.insert(flat.remove(at: b), at: a)
                }
                break
            }
        }
        return flat
    }

    /// Two prices of one currency, near each other, a tax rate apart, each on a line with a
    /// tax word (one such word beside two prices of a receipt is no pair: `Total excl. GST`).
    static func pair(_ a: (match: PriceMatch, line: Int), _ b: (match: PriceMatch, line: Int), taxed: [Bool]) -> Bool {
        guard a.match.currency == b.match.currency, a.match.amount != b.match.amount else { return false }
        let (low, high) = a.match.amount < b.match.amount ? (a.match.amount, b.match.amount) : (b.match.amount, a.match.amount)
        guard ratios.contains(high / low) else { return false }
        guard taxed[a.line] && taxed[b.line] else { return false }
        guard let p = a.match.box, let q = b.match.box else { return a.line == b.line }
        let h = Double(max(p.height, q.height))
        let dx = abs(Double(2 * p.x + p.width) - Double(2 * q.x + q.width)) / 2
        let dy = abs(Double(2 * p.y + p.height) - Double(2 * q.y + q.height)) / 2
        return dx <= horizontalReach * h && dy <= verticalReach * h
    }
}
