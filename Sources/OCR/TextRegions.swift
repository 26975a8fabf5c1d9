import Foundation
import Geometry

/// A connected component of ink: one glyph, or a few glyphs touching.
public struct InkComponent: Sendable, Hashable {
    public var rect: Box
    /// Ink pixels inside `rect`.
    public var ink: Int
    /// Light text on a dark ground (found on the inverted image).
    public var lightOnDark: Bool

    public init(rect: Box, ink: Int, lightOnDark: Bool = false) {
        self.rect = rect
        self.ink = ink
        self.lightOnDark = lightOnDark
    }

    /// Share of the box that is ink.
    public var fill: Double { rect.width * rect.height > 0 ? Double(ink) / Double(rect.width * rect.height) : 0 }
}

/// A line of text found without reading it: glyphs of one height on one baseline.
public struct TextRegion: Sendable, Hashable {
    /// Where it is, in image pixels.
    public var rect: Box
    /// Median glyph (component) height, image pixels: cap or digit height for numbers,
    /// x-height for lower-case words.
    public var glyphHeight: Int
    /// How many glyph-like components it holds.
    public var glyphs: Int
    /// Light text on a dark ground.
    public var lightOnDark: Bool
    /// Mean share of each glyph's box that is ink: bold type fills more.
    public var fill: Double
    /// Share of the ground around the glyphs (the box padded by half a glyph height) that is
    /// ink of no glyph: 0 on a plain card or paper, high on packaging, photos and texture.
    public var clutter: Double

    public init(rect: Box, glyphHeight: Int, glyphs: Int, lightOnDark: Bool = false, fill: Double = 0.5, clutter: Double = 0) {
        self.rect = rect
        self.glyphHeight = glyphHeight
        self.glyphs = glyphs
        self.lightOnDark = lightOnDark
        self.fill = fill
        self.clutter = clutter
    }
}

/// Finds text lines at a bounded working resolution with Leptonica morphology (ink masks
/// of both polarities, connected components), grouped into lines in Swift. Linear in the
/// pixels of the working image plus n log n in the components.
public struct RegionFinder: Sendable {
    /// The working image's longest side at most (pixels). A 1920×1080 shelf photo is worked
    /// on as is: at 1280 its 25 px tag digits shrink to 17 px and touch the fine print under
    /// them (shelf-jp-dev: 41 of 57 tag prices found at 1280, 47 at 1920); a 12 MP photo is
    /// halved, so the stage costs about the same on any camera.
    public var maxSide = 2048
    /// Images whose longest side is under this are enlarged 2× first: a 110 px shelf-tag
    /// crop's fine print is 4–5 px tall, under `minGlyph`, and its digits stay apart.
    public var enlargeBelow = 400
    /// Glyph height range (working pixels). Under 7 px Tesseract misreads even enlarged text;
    /// a component taller than 0.6 of the image is a frame, a shadow or a photo.
    public var minGlyph = 7
    public var maxGlyphShare = 0.6
    /// Least gray-level difference to the background that counts as ink (JPEG noise on
    /// flat paper stays under it).
    public var minInk = 30
    /// On an image enlarged for the search (a crop of one label), thin horizontal rules are
    /// taken out of the dark-text mask first: a label's printed underline or coloured bar
    /// touching its price fuses with the digits into one component that is no glyph, or is
    /// read with them (tags-jp-dev: a bar on a `129` read `L129`; 0.939 → 0.959 total
    /// recall, no fixture amount changed). A rule is ink in horizontal runs of at least
    /// `ruleLength` closing sizes (75 px on a crop: longer than any digit) less than
    /// `ruleThickness` of one tall (10 px at 2×: 5 px of the crop; 6 px thresholds kept the
    /// bar, 10–14 px gave the same result). Not on whole photos: there a tag's digits are
    /// 20–30 px tall and a 10 px band through them cuts them into pieces (shelf-jp-dev: a `79`
    /// lost, recall 0.857 → 0.837), nor in the light-text mask, where a label's own ground
    /// is the ink and its long runs are the label.
    public var removeRules = true
    public var ruleLength = 5.0
    public var ruleThickness = 2.0 / 3
    /// Opening sizes whose components are grouped too (1: the mask as is; 3: bold strokes
    /// only, which parts big digits from fine print touching them: shelf-jp-dev 47 → 55 of 57).
    public var openings = [1, 3]
    /// Glyph shape limits: width at most 2.5× the height (two touching digits), at least
    /// 1/7 of it (a condensed bold "1"); ink 15–95% of the box (thinner is a frame or a
    /// line drawing, fuller a solid block).
    public var maxAspect = 2.5
    public var minAspect = 1.0 / 7
    public var fillRange = 0.15...0.95
    /// Neighbours in a line: horizontal gap at most 0.75× the taller glyph (a word space is
    /// about 0.3–0.5×; a column gap on a receipt is wider, and those become two regions),
    /// centres within 0.3× of it vertically, heights within 1.5× (digits and capitals of one
    /// size; fine print beside a big price stays apart).
    public var maxGap = 0.75
    public var maxCentreShift = 0.3
    public var maxHeightRatio = 1.5
    /// Glyphs of one size on one baseline (heights within 1.2×, centres within 0.15×) join
    /// across up to 1.6× their height: the point of `52.19` (too small to be a glyph) leaves
    /// a gap of about one digit width in monospace receipt type, and a word space there is
    /// one character cell; a receipt's label and price columns lie further apart.
    public var maxAlignedGap = 1.6
    public var alignedHeightRatio = 1.2
    public var alignedCentreShift = 0.15
    /// Blank between two lines of one column, in glyph heights, at most (see
    /// `longestColumn`): receipts leave 0.5–1 between item lines and up to 3 before the total.
    public var columnLineGap = 3.0

    public init() {}

    /// The text lines on `image`, in image pixels, top to bottom then left to right.
    ///
    /// `enough`, when given, is asked after each mask and opening whether the lines found so
    /// far settle what the caller needs; when it says so, the search stops there and returns
    /// them (the page-or-regions choice: a receipt's dark-text lines show it is a document,
    /// and its light-text mask, a second closing over megapixels, is not needed).
    public func regions(in image: GrayImage, enough: (([TextRegion]) -> Bool)? = nil) -> [TextRegion] {
        let longest = max(image.width, image.height)
        let scale = longest < enlargeBelow ? 2.0 : min(1.0, Double(maxSide) / Double(longest))
        let work = scale == 1 ? image : (image.scaled(by: scale) ?? image)
        let factor = Double(image.width) / Double(work.width)
        // The closing must be wider than the thickest stroke to remove it from the background:
        // 1/40 of the longest side covers a price whose digits are a third of the image tall.
        let close = max(15, max(work.width, work.height) / 40)
        var found: [TextRegion] = []
        for dark in [true, false] {
            guard let mask = InkMask(work, darkText: dark, closeSize: close, minInk: minInk) else { continue }
            if dark && scale > 1 && removeRules {
                mask.removeRules(length: Int(ruleLength * Double(close)), thickness: Int(ruleThickness * Double(close)))
            }
            for open in openings {
                var glyphs: [InkComponent] = [], marks: [InkComponent] = []
                for c in mask.components(opening: open) {
                    if glyphLike(c, imageHeight: work.height) {
                        glyphs.append(c)
                    } else if c.rect.height <= 2 * c.rect.width || c.rect.height < minGlyph {
                        marks.append(c)
                    }
                }
                found += lines(glyphs).map { group in
                    var r = attach(marks, to: region(of: group))
                    r.clutter = Self.clutter(around: r, glyphInk: group.map(\.ink).reduce(0, +), mask: mask)
                    return r
                }
                if let enough {
                    let sofar = finished(found, factor: factor, image: image)
                    if enough(sofar) { return sofar }
                }
            }
        }
        return finished(found, factor: factor, image: image)
    }

    /// `found` deduplicated, in image pixels, top to bottom then left to right.
    private func finished(_ found: [TextRegion], factor: Double, image: GrayImage) -> [TextRegion] {
        Self.deduplicated(found).map { $0.scaled(by: factor, within: image) }
            .sorted { ($0.rect.y, $0.rect.x) < ($1.rect.y, $1.rect.x) }
    }

    func glyphLike(_ c: InkComponent, imageHeight: Int) -> Bool {
        let w = Double(c.rect.width), h = Double(c.rect.height)
        return c.rect.height >= minGlyph && h <= maxGlyphShare * Double(imageHeight)
            && w <= maxAspect * h && w >= minAspect * h && fillRange.contains(c.fill)
    }

    /// Components grouped into lines (union–find over left-to-right neighbours).
    func lines(_ comps: [InkComponent]) -> [[InkComponent]] {
        let order = comps.indices.sorted { comps[$0].rect.x < comps[$1].rect.x }
        var sets = DisjointSets(comps.count)
        for (k, i) in order.enumerated() {
            let a = comps[i].rect
            for j in order[(k + 1)...] {
                let b = comps[j].rect
                let tall = Double(max(a.height, b.height))
                let gap = Double(b.x - (a.x + a.width))
                // Sorted by left edge: past the widest gap any partner could allow, nothing
                // further right can join.
                if gap > maxAlignedGap * maxHeightRatio * Double(a.height) { break }
                if gap > maxAlignedGap * tall { continue }
                // Mostly stacked above or below, not beside.
                if b.x < a.x + a.width / 2 { continue }
                let ratio = Double(max(a.height, b.height)) / Double(max(1, min(a.height, b.height)))
                if ratio > maxHeightRatio { continue }
                let dy = abs(Double(2 * a.y + a.height) - Double(2 * b.y + b.height)) / 2
                if dy > maxCentreShift * tall { continue }
                let aligned = ratio <= alignedHeightRatio && dy <= alignedCentreShift * tall
                if gap > (aligned ? maxAlignedGap : maxGap) * tall { continue }
                sets.join(i, j)
            }
        }
        var groups: [Int: [InkComponent]] = [:]
        for i in comps.indices { groups[sets.root(i), default: []].append(comps[i]) }
        return Array(groups.values)
    }

    /// The share of the region's surroundings (padded by half a glyph height) that is ink
    /// outside its glyphs.
    static func clutter(around r: TextRegion, glyphInk: Int, mask: InkMask) -> Double {
        let pad = max(1, r.glyphHeight / 2)
        let box = Box(x: r.rect.x - pad, y: r.rect.y - pad, width: r.rect.width + 2 * pad, height: r.rect.height + 2 * pad)
        let ground = box.width * box.height - glyphInk
        guard ground > 0 else { return 1 }
        return Double(max(0, mask.ink(in: box) - glyphInk)) / Double(ground)
    }

    /// The region widened to the small marks beside its ends: a minus sign, a point, an
    /// apostrophe or a small currency sign is no glyph-sized component, and a crop without it
    /// reads `-0,30` as `0,30`. A mark counts when it lies within the line's band (from 0.3
    /// of the glyph height above its top to its bottom), is no taller than its glyphs, and
    /// starts within `maxGap` glyph heights of its left or right end.
    func attach(_ marks: [InkComponent], to region: TextRegion) -> TextRegion {
        var r = region
        let h = Double(region.glyphHeight)
        let top = Double(region.rect.y) - 0.3 * h, bottom = Double(region.rect.y + region.rect.height)
        for m in marks {
            let cy = Double(m.rect.y) + Double(m.rect.height) / 2
            guard m.rect.height <= region.glyphHeight, cy >= top, cy <= bottom else { continue }
            let left = Double(region.rect.x - (m.rect.x + m.rect.width))
            let right = Double(m.rect.x - (region.rect.x + region.rect.width))
            if (left >= 0 && left <= maxGap * h) || (right >= 0 && right <= maxGap * h) {
                r.rect = r.rect.union(m.rect)
            }
        }
        return r
    }

    func region(of group: [InkComponent]) -> TextRegion {
        var rect = group[0].rect
        for c in group.dropFirst() { rect = rect.union(c.rect) }
        let heights = group.map(\.rect.height).sorted()
        return TextRegion(
            rect: rect, glyphHeight: heights[heights.count / 2], glyphs: group.count,
            lightOnDark: group[0].lightOnDark, fill: group.map(\.fill).reduce(0, +) / Double(group.count))
    }

    /// One region per place: of two that share most of the smaller one's area (the same
    /// line found with and without the opening, or a dark glyph's counter found as light
    /// text), the one with more glyphs stays, on a tie the dark-text one, then the tighter.
    static func deduplicated(_ regions: [TextRegion]) -> [TextRegion] {
        let ranked = regions.sorted {
            ($0.glyphs, $0.lightOnDark ? 0 : 1, -$0.rect.width * $0.rect.height)
                > ($1.glyphs, $1.lightOnDark ? 0 : 1, -$1.rect.width * $1.rect.height)
        }
        var kept: [TextRegion] = []
        for r in ranked {
            let area = r.rect.width * r.rect.height
            let overlaps = kept.contains { k in
                let shared = k.rect.intersectionArea(r.rect)
                return shared * 10 >= 6 * min(area, k.rect.width * k.rect.height)
            }
            if !overlaps { kept.append(r) }
        }
        return kept
    }
}

extension RegionFinder {
    /// The regions worth reading, likeliest prices first, at most `limit`: lines of two or
    /// more glyphs, and single components wide enough to be digits touching ("30" as one
    /// blob); a lone narrow glyph holds no price the parser would take.
    public func worthReading(_ regions: [TextRegion], limit: Int) -> [TextRegion] {
        let prominence = Self.prominence(regions)
        let keep = regions.indices.filter { i in
            let r = regions[i]
            return r.glyphs >= 2 || (Double(r.rect.width) >= 0.9 * Double(r.rect.height) && prominence[i] >= 1.3)
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
            guard !near.isEmpty else { return 3 }
            near.sort()
            return Double(h) / Double(max(near[near.count / 2], 1))
        }
    }
}

extension TextRegion {
    /// The region mapped from a working image to the original (`factor` = original / working).
    func scaled(by factor: Double, within image: GrayImage) -> TextRegion {
        guard factor != 1 else { return self }
        var r = self
        let s = rect.scaled(by: factor)
        let x0 = max(0, s.x), y0 = max(0, s.y)
        r.rect = Box(x: x0, y: y0, width: min(image.width, s.x + s.width) - x0, height: min(image.height, s.y + s.height) - y0)
        r.glyphHeight = Int((Double(glyphHeight) * factor).rounded())
        return r
    }
}

extension RegionFinder {
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
                let leftAligned = abs(Double(a.x - b.x)) <= 0.5 * h
                let rightAligned = abs(Double((a.x + a.width) - (b.x + b.width))) <= 0.5 * h
                if leftAligned || rightAligned { sets.join(i, j) }
            }
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
