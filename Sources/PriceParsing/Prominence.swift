import Foundation
#if canImport(Geometry)
    import Geometry  // (absent when the parser is compiled alone: scripts/bench-parse.sh)
#endif

/// A shelf tag's price is its largest type, often with no currency sign, and the line it is
/// read on may hold other numbers (tags side by side on a shelf rail): a whole number much
/// taller than the words around it is a price under any bare-number policy but `never`.
enum Prominence {
    /// How much taller than the median word around it a number must be (tags-jp-dev: prices
    /// 20–30 px beside 5–9 px product names; receipts' item prices are as tall as their labels).
    static let factor = 1.6
    /// "Around": word centres within this many of the number's heights across, and
    /// `verticalReach` up or down (the tag it is on, not the next shelf).
    static let horizontalReach = 6.0
    static let verticalReach = 4.0

    /// Bare whole numbers on `lines` that `perLine` (what the line-by-line parse found) lacks
    /// and that stand out by size, as matches to add to their lines.
    static func additions(lines: [TextLine], perLine: [[PriceMatch]], options: ParserOptions) -> [(line: Int, match: PriceMatch)] {
        guard options.bareNumbers != .never else { return [] }
        let boxes = lines.flatMap { $0.words.compactMap(\.box) }
        guard boxes.count >= 2 else { return [] }
        var all = options
        all.bareNumbers = .all
        let loose = PriceParser(options: all)
        var out: [(Int, PriceMatch)] = []
        for (i, line) in lines.enumerated() {
            // Whole numbers of two digits or more: the bare-number policy already takes decimals.
            for m in loose.parse(line) where m.flags.contains(.bareNumber) && m.amount >= 10 && m.amount == m.amount.rounded {
                guard let box = m.box, !perLine[i].contains(where: { $0.box == box || $0.text == m.text && $0.amount == m.amount }) else {
                    continue
                }
                if stands(box, out: boxes) { out.append((i, m)) }
            }
        }
        return out
    }

    /// Whether `box` is at least `factor` times as tall as the median box near it.
    static func stands(_ box: Box, out boxes: [Box]) -> Bool {
        let h = Double(box.height), cx = Double(box.x) + Double(box.width) / 2, cy = Double(box.y) + Double(box.height) / 2
        let near = boxes.filter { b in
            guard b != box else { return false }
            let bx = Double(b.x) + Double(b.width) / 2, by = Double(b.y) + Double(b.height) / 2
            return abs(bx - cx) <= horizontalReach * h && abs(by - cy) <= verticalReach * h
        }.map(\.height)
        guard let typical = near.median else { return false }
        return h >= factor * Double(typical)
    }
}

extension Decimal {
    /// The value rounded to a whole number (half away from zero).
    var rounded: Decimal {
        var v = self, out = Decimal()
        NSDecimalRound(&out, &v, 0, .plain)
        return out
    }
}
