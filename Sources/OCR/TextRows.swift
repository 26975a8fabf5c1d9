import Foundation
public import Geometry

/// Text regions read one by one, grouped into the rows they stand on, so a receipt's
/// keyword and its amount, or a menu's dish and its price, are parsed as one line.
///
/// The rows come from the detector's boxes, not from the words Tesseract read in them: a
/// word's box depends on the crop it was read in (a receipt amount's psm-7 box came back
/// 56–74 px tall beside its 35 px label), while the detector's box is the line's own. A box
/// joins the row whose line, followed along its own slope, passes through the box's centre
/// within half a line's thickness: so a receipt photographed at an angle, or in perspective
/// (each box has its own slope), still pairs its label with its amount across the column
/// gap. Pure: no pixels.
public enum TextRows {
    /// One region and what was read in it.
    public struct Item: Sendable {
        public var region: TextRegion
        public var line: TextLine

        public init(region: TextRegion, line: TextLine) {
            self.region = region
            self.line = line
        }
    }

    /// Most vertical distance between a box's centre and a row's line, in parts of the thinner
    /// of the two boxes' thickness: boxes of one row overlap by at least half of it, boxes of
    /// adjacent rows (one line pitch apart, a pitch being at least one thickness) by at most
    /// that. A geometric bound, not a fitted one.
    static let rowDistance = 0.5

    /// Most ratio of two boxes' thickness in one row: a total printed double-height beside its
    /// keyword (2×), not the fine print under a big shelf price (3–5×).
    static let thicknessRatio = 2.2

    /// Most overlap along the row of a box with the row's last box, in parts of the thinner
    /// thickness: two detections of one word overlap; boxes of one row otherwise do not.
    static let overlap = 0.5

    /// The rows `items` stand on, each a line of their words left to right, top to bottom.
    public static func rows(_ items: [Item]) -> [TextLine] {
        groups(items.map(\.region)).map { row in
            row.count == 1 ? items[row[0]].line : TextLine(words: row.flatMap { items[$0].line.words })
        }
        .sorted { ($0.box?.y ?? 0, $0.box?.x ?? 0) < ($1.box?.y ?? 0, $1.box?.x ?? 0) }
    }

    /// `regions` grouped into rows: indices into `regions`, each row left to right.
    public static func groups(_ regions: [TextRegion]) -> [[Int]] {
        let slopes = directions(regions)
        let order = regions.indices.sorted { regions[$0].rect.x < regions[$1].rect.x }
        var rows: [[Int]] = []
        for i in order {
            let b = regions[i]
            var best: (row: Int, distance: Double)?
            for (r, row) in rows.enumerated() {
                let last = row[row.count - 1]
                let a = regions[last]
                let ta = a.thickness, tb = b.thickness
                let thin = max(1, min(ta, tb)), thick = max(ta, tb)
                guard thick / thin <= thicknessRatio else { continue }
                let gap = Double(b.rect.x) - Double(a.rect.x + a.rect.width)
                guard gap >= -overlap * thin else { continue }
                let (ax, ay) = a.centre, (bx, by) = b.centre
                let slope = (slopes[last] + slopes[i]) / 2
                let distance = abs(by - (ay + slope * (bx - ax)))
                guard distance <= rowDistance * thin else { continue }
                if best.map({ distance < $0.distance }) ?? true { best = (r, distance) }
            }
            if let best { rows[best.row].append(i) } else { rows.append([i]) }
        }
        return rows
    }

    /// Least length of a box, in thicknesses, whose own direction is followed: the minimum-area
    /// rectangle of a short word (`Elma`, `6,82`) can lean either way by several degrees, which
    /// across a receipt's column gap lands on the next row.
    static let directionLength = 3.0

    /// Each region's text direction: its own when it is long (`directionLength`), else that of
    /// the long region nearest to its centre (a page in perspective turns its lines gradually),
    /// else level.
    static func directions(_ regions: [TextRegion]) -> [Double] {
        let isLong = regions.map { Double($0.rect.width) >= directionLength * $0.thickness }
        let long = regions.indices.filter { isLong[$0] }
        return regions.indices.map { i in
            if isLong[i] { return regions[i].slope }
            let (x, y) = regions[i].centre
            let nearest = long.min { a, b in
                let (ax, ay) = regions[a].centre, (bx, by) = regions[b].centre
                return hypot(ax - x, ay - y) < hypot(bx - x, by - y)
            }
            return nearest.map { regions[$0].slope } ?? 0
        }
    }
}

extension TextRegion {
    /// The centre of the region's box (of the detector's rotated box, whose upright bounds
    /// share its centre).
    var centre: (x: Double, y: Double) {
        (Double(rect.x) + Double(rect.width) / 2, Double(rect.y) + Double(rect.height) / 2)
    }
}

extension TextRows {
    /// Most gap along a row between two of its boxes that are pieces of one text, in parts of
    /// the taller one's glyph height. The detector's boxes are grown back by DB's unclip
    /// (about 0.8 of the line's thickness on each side), so the boxes of words a word space
    /// apart (about a third of a glyph height) overlap; boxes that stand this close and apart
    /// are one text whose map the network broke: letter-spaced print (a German receipt's
    /// double-width `S U M M E  2 7 , 4 2`), a number split at its comma. Read apart, each
    /// piece is a crop of a few glyphs measured on its own (`27` read `iva`, `,42` read `'4 -,`
    /// on receipts-de's marktkauf_08042020, whose total was then lost when read by its boxes).
    static let pieceGap = 0.5

    /// `regions` with the boxes of one row that stand within `pieceGap` of each other (and share
    /// their polarity) joined into one region, for a document read by its boxes: a row's
    /// pieces of one text are read as one line, as Tesseract's page layout reads them.
    public static func joiningPieces(_ regions: [TextRegion]) -> [TextRegion] {
        let slopes = directions(regions)
        var out: [TextRegion] = []
        for row in groups(regions) {
            var run: [Int] = []
            func flush() {
                guard !run.isEmpty else { return }
                out.append(run.count == 1 ? regions[run[0]] : joined(run.map { regions[$0] }, slope: slopes[run[0]]))
                run = []
            }
            for i in row {
                if let last = run.last {
                    let a = regions[last], b = regions[i]
                    let gap = Double(b.rect.x) - Double(a.rect.x + a.rect.width)
                    let glyph = Double(max(a.glyphHeight, b.glyphHeight, 1))
                    if a.lightOnDark != b.lightOnDark || gap > pieceGap * glyph { flush() }
                }
                run.append(i)
            }
            flush()
        }
        return out
    }

    /// One region over `pieces` (left to right, one row): their bounds, the taller glyph, every
    /// glyph, the row's direction, a thickness that spans every piece's band across it.
    static func joined(_ pieces: [TextRegion], slope: Double) -> TextRegion {
        var rect = pieces[0].rect
        for p in pieces.dropFirst() { rect = rect.union(p.rect) }
        let cx = Double(rect.x) + Double(rect.width) / 2, cy = Double(rect.y) + Double(rect.height) / 2
        // Each piece's band about the row's line through the joined box's centre.
        let thickness =
            pieces.map { p -> Double in
                let (px, py) = p.centre
                return 2 * abs(py - (cy + slope * (px - cx))) + p.thickness
            }.max() ?? Double(rect.height)
        let glyphs = pieces.map(\.glyphs).reduce(0, +)
        let fill = pieces.map { $0.fill * Double($0.glyphs) }.reduce(0, +) / Double(max(glyphs, 1))
        return TextRegion(
            rect: rect, glyphHeight: pieces.map(\.glyphHeight).max() ?? 0, glyphs: glyphs, lightOnDark: pieces[0].lightOnDark,
            fill: fill, clutter: pieces.map(\.clutter).max() ?? 0, slope: slope, thickness: thickness,
            score: pieces.map(\.score).min() ?? 1)
    }
}
