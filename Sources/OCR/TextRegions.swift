import Foundation
public import Geometry

/// A line of text found without reading it (a text detector's box), with what its ink shows.
public struct TextRegion: Sendable, Hashable {
    /// Where it is, in image pixels.
    public var rect: Box
    /// Median glyph (ink component) height, image pixels: cap or digit height for numbers,
    /// x-height for lower-case words.
    public var glyphHeight: Int
    /// How many glyph-like components it holds.
    public var glyphs: Int
    /// Light text on a dark ground.
    public var lightOnDark: Bool
    /// Mean share of each glyph's box that is ink: bold type fills more.
    public var fill: Double
    /// Share of the ground around the glyphs that is ink of no glyph: 0 on a plain card or
    /// paper, high on packaging and photos (the Leptonica finder measured it; the detector's
    /// regions leave it 0, the detector having judged what is text).
    public var clutter: Double
    /// The text line's direction, dy/dx (the detector's rotated box: a photo taken at an
    /// angle or in perspective tilts each line its own way); 0 for an upright box.
    public var slope: Double
    /// The box's size across the text line, image pixels (the detector's box spans the line's
    /// ascenders and descenders); the upright height when no rotated box is known.
    public var thickness: Double
    /// How sure the detector is that this is text: the mean probability of its box on the
    /// network's map (DB's box score, at least `DBPostProcess.boxThreshold`); 1 for a region
    /// that is not the detector's.
    public var score: Double

    public init(
        rect: Box, glyphHeight: Int, glyphs: Int, lightOnDark: Bool = false, fill: Double = 0.5, clutter: Double = 0,
        slope: Double = 0, thickness: Double? = nil, score: Double = 1
    ) {
        self.rect = rect
        self.glyphHeight = glyphHeight
        self.glyphs = glyphs
        self.lightOnDark = lightOnDark
        self.fill = fill
        self.clutter = clutter
        self.slope = slope
        self.thickness = thickness ?? Double(rect.height)
        self.score = score
    }

    /// The same region on a crop whose top left was at (-x, -y) of its image (or back).
    func moved(byX x: Int, y: Int) -> TextRegion {
        var r = self
        r.rect = Box(x: rect.x + x, y: rect.y + y, width: rect.width, height: rect.height)
        return r
    }
}

/// Layout rules over the text regions the detector found (`TextDetector.regions`): which are
/// worth reading first, and the longest column of stacked lines (a document's sign). Pure:
/// no pixels.
public struct RegionLayout: Sendable {
    /// Regions of one type size: heights within this ratio (digits and capitals of one size;
    /// fine print beside a big price stays apart).
    public var maxHeightRatio = 1.5
    /// Blank between two lines of one column, in glyph heights, at most (see
    /// `longestColumn`): receipts leave 0.5–1 between item lines and up to 3 before the total.
    public var columnLineGap = 3.0

    public init() {}
}

extension RegionLayout {
    /// The regions worth reading, likeliest prices first, at most `limit`: lines of two or
    /// more glyphs, and single components wide enough to be digits touching ("30" as one
    /// blob); on a `document` read by its boxes, also a lone glyph that ends its row (a
    /// menu's `8`, `documentGlyphProminence`). A scene's lone narrow glyph is left out.
    public func worthReading(_ regions: [TextRegion], limit: Int, document: Bool = false) -> [TextRegion] {
        let prominence = Self.prominence(regions)
        // A document's rows, for its lone glyphs: each row's last box.
        let ends = document ? Set(TextRows.groups(regions).compactMap(\.last)) : []
        let keep = regions.indices.filter { i in
            let r = regions[i]
            if r.glyphs >= 2 || (Double(r.rect.width) >= 0.9 * Double(r.rect.height) && prominence[i] >= 1.3) { return true }
            return ends.contains(i) && prominence[i] >= Self.documentGlyphProminence
        }
        let ranked = keep.sorted { Self.priceLikeness(regions[$0]) > Self.priceLikeness(regions[$1]) }
        return ranked.prefix(limit).map { regions[$0] }
    }

    /// How much a region looks like a printed price, before reading it: bold type (ink
    /// fill), on plain ground (no clutter: shop labels, receipts and menus are printed to be
    /// read; packaging art and photos are busy), of about a price's length (2–7 glyphs:
    /// `12`, `¥1,280`, `12,50 €`), larger type a little first. Measured on shelf-jp-dev
    /// against RapidOCR's price boxes: area under the ROC curve 0.90 (clutter alone 0.77,
    /// glyph height alone 0.73, prominence among neighbours 0.57); the photos' tag prices
    /// are all within the first 11–47 of 76–151 candidates.
    public static func priceLikeness(_ r: TextRegion) -> Double {
        r.fill - r.clutter - 0.05 * abs(Double(min(r.glyphs, 8)) - 4) + 0.1 * log(Double(max(r.glyphHeight, 1)))
    }

    /// Least prominence of a document's one-glyph box that `worthReading` reads when the
    /// document's boxes are read alone, and then only the last box of its row (where a line
    /// prints its price; a receipt's quantity stands before the item's amount): a menu's `8`
    /// stands as tall as its line's text (about 1), where leader dots, hyphens and bullets are
    /// a half of it or less. A scene's lone glyphs are mostly packaging and art, so a scene
    /// keeps the 1.3 above.
    static let documentGlyphProminence = 0.8

    /// Each region's glyph height over the median glyph height of the other regions whose
    /// centres lie within 6 of its glyph heights across and 4 up or down (its tag, its part
    /// of a page); 3 when it has no neighbours.
    static func prominence(_ regions: [TextRegion]) -> [Double] {
        regions.indices.map { i in
            let r = regions[i]
            let cx = r.rect.x + r.rect.width / 2, cy = r.rect.y + r.rect.height / 2, h = max(r.glyphHeight, 1)
            var near: [Int] = []
            for (j, o) in regions.enumerated() where j != i {
                let ox = o.rect.x + o.rect.width / 2, oy = o.rect.y + o.rect.height / 2
                if abs(ox - cx) <= 6 * h && abs(oy - cy) <= 4 * h { near.append(o.glyphHeight) }
            }
            guard let typical = near.median else { return 3 }
            return Double(h) / Double(max(typical, 1))
        }
    }
}

extension RegionLayout {
    /// The most lines in one column: regions of one type size (heights within
    /// `maxHeightRatio`) stacked one under the next (at most `columnLineGap` glyph heights of
    /// blank between them) with their left or right ends aligned (within half a glyph
    /// height). A receipt's item and price columns and a menu's lines form long columns; the
    /// text on a shelf tag or in a camera frame stacks two or three lines at most.
    public func longestColumn(_ regions: [TextRegion]) -> Int {
        longestColumnExtent(regions).lines
    }

    /// The longest column's line count and the height it spans (pixels, top of its first
    /// line to the bottom of its last).
    public func longestColumnExtent(_ regions: [TextRegion]) -> (lines: Int, span: Int) {
        let lines = regions.filter { $0.glyphs >= 2 }
        guard !lines.isEmpty else { return (0, 0) }
        var sets = stacked(lines) { a, b, h in
            abs(Double(a.x - b.x)) <= 0.5 * h || abs(Double((a.x + a.width) - (b.x + b.width))) <= 0.5 * h
        }
        var sizes: [Int: (n: Int, top: Int, bottom: Int)] = [:]
        for i in lines.indices {
            let r = lines[i].rect, root = sets.root(i)
            let s = sizes[root] ?? (0, r.y, r.y + r.height)
            sizes[root] = (s.n + 1, min(s.top, r.y), max(s.bottom, r.y + r.height))
        }
        let best = sizes.values.max { ($0.n, $0.bottom - $0.top) < ($1.n, $1.bottom - $1.top) }
        return best.map { ($0.n, $0.bottom - $0.top) } ?? (0, 0)
    }
}

extension RegionLayout {
    /// The share of a page's lines (regions of two or more glyphs) that stand in stacks of at
    /// least `stackLines`: lines of one type size (heights within `maxHeightRatio`) one under
    /// the next (at most `columnLineGap` glyph heights of blank between them) that overlap
    /// across. Unlike a column (`longestColumn`) the lines need not share an edge: a receipt's
    /// centred header, its items and their prices, a menu's dishes all stack.
    ///
    /// A document's text is mostly such blocks; a scene's lies in short groups apart: a shelf
    /// label stacks its name, price and fine print, two or three lines. Measured with the
    /// detector's boxes (2026-11-29, `docs/benchmarks/2026-11-29-stacked-lines.md`): pages of
    /// 16 lines or more of receipts-de, sroie-dev and their perturbed copies 0.59 or more, but
    /// two sroie-dev scans photographed small (0.19, 0.44); every shelf-jp-dev and tags-jp-dev
    /// photo and copy 0.33 at most.
    public func stackedShare(_ regions: [TextRegion]) -> Double {
        let lines = regions.filter { $0.glyphs >= 2 }
        guard !lines.isEmpty else { return 0 }
        var sets = stacked(lines) { a, b, _ in min(a.x + a.width, b.x + b.width) > max(a.x, b.x) }
        var sizes: [Int: Int] = [:]
        for i in lines.indices { sizes[sets.root(i), default: 0] += 1 }
        let stacked = sizes.values.filter { $0 >= Self.stackLines }.reduce(0, +)
        return Double(stacked) / Double(lines.count)
    }

    /// See `stackedShare`: more lines than a shelf label stacks (two or three), as many as
    /// the shortest column that marks a document (`PageReader.documentColumn`).
    static let stackLines = 4

    /// `lines` joined into groups, each line with the one right under it: of one type size
    /// (heights within `maxHeightRatio`), at most `columnLineGap` glyph heights of blank
    /// between them, and `across(upper, lower, glyph height)` holding of their boxes.
    private func stacked(_ lines: [TextRegion], across: (Box, Box, Double) -> Bool) -> DisjointSets {
        var sets = DisjointSets(lines.count)
        for i in lines.indices {
            let a = lines[i].rect
            for j in lines.indices where j != i {
                let b = lines[j].rect
                let h = Double(max(lines[i].glyphHeight, lines[j].glyphHeight))
                let ratio = h / Double(max(1, min(lines[i].glyphHeight, lines[j].glyphHeight)))
                guard ratio <= maxHeightRatio else { continue }
                let gap = Double(b.y - (a.y + a.height))
                guard gap >= -0.2 * h, gap <= columnLineGap * h else { continue }
                if across(a, b, h) { sets.join(i, j) }
            }
        }
        return sets
    }
}

/// Union–find over indices 0..<n (path halving), for grouping regions and glyphs.
struct DisjointSets {
    private var parent: [Int]

    init(_ n: Int) { parent = Array(0..<n) }

    mutating func root(_ i: Int) -> Int {
        var i = i
        while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
        return i
    }

    mutating func join(_ a: Int, _ b: Int) { parent[root(a)] = root(b) }
}
