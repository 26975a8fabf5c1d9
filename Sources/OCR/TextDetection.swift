import Foundation
public import Geometry
import Synchronization

/// A point in image (or map) pixels.
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A text box as the detector found it: a rotated rectangle's corners, clockwise from its
/// top left, and the mean text probability inside it.
public struct RotatedTextBox: Sendable, Hashable {
    public var corners: [Point]
    public var score: Double

    public init(corners: [Point], score: Double) {
        self.corners = corners
        self.score = score
    }

    /// The length of the top edge (along the text) and of the left edge (across it).
    public var length: Double { hypot(corners[1].x - corners[0].x, corners[1].y - corners[0].y) }
    public var thickness: Double { hypot(corners[3].x - corners[0].x, corners[3].y - corners[0].y) }

    /// The direction of its text, dy/dx along its top edge; 0 when that edge is not its longer
    /// side or is steeper than 45° (a vertical line of text, or one glyph: no direction to follow).
    public var slope: Double {
        let dx = corners[1].x - corners[0].x, dy = corners[1].y - corners[0].y
        guard length >= thickness, abs(dx) > abs(dy) else { return 0 }
        return dy / dx
    }

    /// The smallest upright box holding the corners, clipped to `width` × `height`.
    public func bounds(width: Int, height: Int) -> Box {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = max(0, Int(xs.min()!.rounded(.down))), y0 = max(0, Int(ys.min()!.rounded(.down)))
        let x1 = min(width, Int(xs.max()!.rounded(.up))), y1 = min(height, Int(ys.max()!.rounded(.up)))
        return Box(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The box with every coordinate multiplied by `factor`.
    func scaled(by factor: Double) -> RotatedTextBox {
        RotatedTextBox(corners: corners.map { Point(x: $0.x * factor, y: $0.y * factor) }, score: score)
    }
}

/// DB post-processing (as in the DB paper and PaddleOCR's `DBPostProcess`): threshold the
/// probability map, take each contour's minimum-area rectangle, drop the small and the
/// unsure, grow the rest back by the shrink the network was trained to predict. The values
/// are the model's own (PP-OCRv4's inference defaults, RapidOCR's), not fitted here.
public struct DBPostProcess: Sendable, Hashable {
    /// Map probability over which a pixel is text (PaddleOCR `thresh`).
    public var threshold = 0.3
    /// Least mean probability inside a box (RapidOCR's `box_thresh`).
    public var boxThreshold = 0.5
    /// How far a box is grown: its area × this / its perimeter on every side. The network
    /// predicts text kernels shrunk by that much at training (`unclip_ratio`).
    public var unclipRatio = 1.6
    /// Least shorter side of a box in map pixels (`min_size`); 2 more after unclipping.
    public var minSize = 3.0
    /// Most boxes kept, the surest first (`max_candidates`).
    public var maxBoxes = 1000

    public init() {}

    /// The boxes on a probability map of `width` × `height` (row-major), looking only at its
    /// top-left `validWidth` × `validHeight` (the rest is padding), in map pixels.
    public func boxes(map: [Float], width: Int, height: Int, validWidth: Int? = nil, validHeight: Int? = nil) -> [RotatedTextBox] {
        TextDetectorNet.boxes(
            map: map, width: width, height: height, validWidth: validWidth ?? width, validHeight: validHeight ?? height, settings: self)
    }
}

/// The detector's input sharpened when its edges are blurred. The network was trained on
/// sharp print: on a receipt blurred by 0.15% of its side (receipts-de's `blur` copy) it
/// found 1–7 boxes where the sharp page has 80–100, and read as a scene the page read
/// nothing; the same blurred input unsharp masked gave back 37–97. Measured on the resized
/// image the network sees (`pc_edge_width`), so the rule does not depend on the photo's
/// resolution.
public struct InputSharpening: Sendable, Hashable {
    /// Edges spreading over more than this many px of the working image are sharpened; 0: never.
    public var blurredEdge: Double
    /// Share of the detail (the image less its Gaussian blur of sigma half the spread) added back.
    public var amount: Double
    /// The spread in px of the working image that the text's own edges measure when they
    /// measure blurred (0: none): the input is then sharpened, by the larger of it and the
    /// whole image's spread. A small document on a large photo has its blank surround and
    /// its table's grain make the whole image's edges look sharp
    /// (`PageReader.printBlurredRegions`).
    public var leastSpread: Double

    public init(blurredEdge: Double, amount: Double, leastSpread: Double = 0) {
        self.blurredEdge = blurredEdge
        self.amount = amount
        self.leastSpread = leastSpread
    }

    public static let off = InputSharpening(blurredEdge: 0, amount: 0)
}

/// Finds text on an image with the learned detector at a bounded working resolution, and
/// turns its boxes into the regions the reader reads. Not `Sendable` (its net is not): one per worker.
public final class TextDetector {
    /// The scale an image is detected at, the working image's size at it, and the net's input
    /// size (the working size rounded up to multiples of 32).
    public typealias WorkingSize = (scale: Double, width: Int, height: Int, netWidth: Int, netHeight: Int)

    public let net: TextDetectorNet
    public var postProcess = DBPostProcess()
    /// A document's detections sharpen their input when blurred (`InputSharpening`): the
    /// first, coarser one always may, the full one when the coarser one was sharpened. Scenes
    /// and live frames are detected as they are: a shelf photo's or a tag's edges spread as
    /// far as a blurred receipt's at the working size (shelf-jp-dev 3.4–3.9 px at 1600, tags-jp-dev
    /// 2.0–3.7), and sharpened they lost prices (shelf-jp-dev amount recall 0.980 → 0.918,
    /// tags-jp-dev totals 0.980 → 0.959).
    ///
    /// Amount 2 (the detail added back twice): on a blurred receipt the network's boxes grow
    /// with it (receipts-de/blur `ikea_08102016_12_13439`, 880 × 3 036, spread 3.9 px at the
    /// working size: 1 box unsharpened and at amount 1, 21 at 1.5, 41 at 2, 70 at 3), and read by
    /// rows with both readers receipts-de/blur keeps every total (0.885 at 1, 0.962 at 1.5, 1.000 at
    /// 2, 0.962 at 3), sroie-dev/blur the same count (0.873; 0.889 at 3 with fewer marked, 0.810),
    /// the menus' blurred copy a price less (R 0.963 → 0.955); every other copy and set of the
    /// documents reads the same totals (docs/benchmarks/2026-12-07-detector-sharpening.md).
    /// A blurred portrait page found to be a scene is detected again unsharpened
    /// (`PageReader.blurredPortraitRegions`).
    public var documentSharpening = InputSharpening(blurredEdge: 3, amount: 2)
    /// Whether the last detection's input was sharpened.
    public private(set) var lastInputSharpened = false
    /// The working image's longest side at most: a 1920×1080 shelf photo is detected at
    /// 1600×900, where its 25 px tag digits are 21 px; a 12 MP photo costs the same pass.
    /// At 1280 px (17 px digits) the network missed tags a person reads at once: shelf-jp-dev
    /// amount recall 0.898 at 1280, 0.980 at 1600, 0.959 at 1920; on the tilted receipts-de
    /// copies the marked total 0.731 at 1280, 0.923 at 1600; every fixture family and the
    /// other dev sets the same. Larger costs time in proportion (0.5 µs a pixel on one core:
    /// 0.45 s at 1280, 0.7 s at 1600 for a 16:9 photo). Frames up to 1600 px wide are
    /// detected at their own size (never enlarged past `minShortSide`).
    public var maxSide = 1600
    /// Small images are enlarged until their shorter side is this long, however small they
    /// are (`maxSide` still bounds the longest side): the network, trained on photos and
    /// pages of 640–960 px, misses text that fills most of a tiny input (tags-jp-dev crops of
    /// about 110 × 90 px: at 1× no box on 3 of 4 clear prices, at 224 px all 4; their copies
    /// at a third of that size, 37 × 28 px, when enlarged only 4×: no box on 2 of 49, total
    /// recall 0.918; to 256 px, 8–10×: 0.980, as the clean crops). RapidOCR enlarges every
    /// image to 736 px, which costs a tag crop 6× the time of 256 px.
    public var minShortSide = 256
    /// Most enlargement a scene is detected again at when its text is small (`largestScale`;
    /// a larger first enlargement to `minShortSide` stands): a crop a few dozen pixels tall
    /// holds no more than a word.
    public var maxEnlargement = 4.0

    /// Live frames: the boxes of the last detection are read on each new frame while a new
    /// detection runs beside the reading, on its own thread and net (`BackgroundDetection`),
    /// whenever the scene moved (`SceneThumbnail`) or the boxes are `refreshFrames` frames
    /// old. A frame waits for the network only when there are no boxes yet (the first frame):
    /// at the resolution shelf text needs (1280 px: 0.45 s on one core; at 640 px the
    /// network finds no price on a shelf frame) a detection per frame would put its whole
    /// time on every frame's latency. A new scene is read at the old boxes until its own
    /// land, one detection later; the stability rule (K of M frames) holds its readings back.
    public var refreshFrames = 8
    private(set) var background: BackgroundDetection?

    public init(net: TextDetectorNet) {
        self.net = net
    }

    /// Waits for a live frame's detection still running beside the reading, so the reader that
    /// lets this detector go lets its net go too.
    deinit {
        background?.stop()
    }

    public convenience init(modelPath: String) throws(DetectorError) {
        self.init(net: try TextDetectorNet(path: modelPath))
    }

    /// The scale of `width` × `height` the detector works at, and the net's input size.
    /// `side`: a longest side other than `maxSide` (a document's first detection).
    public func workingSize(width: Int, height: Int, side: Int? = nil) -> WorkingSize {
        let longest = Double(max(width, height)), shortest = Double(max(1, min(width, height)))
        let scale = min(Double(side ?? maxSide) / longest, max(1, Double(minShortSide) / shortest))
        return workingSize(width: width, height: height, scale: scale)
    }

    /// The working size of `width` × `height` at `scale`, and the net's input size.
    public func workingSize(width: Int, height: Int, scale: Double) -> WorkingSize {
        let w = max(1, Int((Double(width) * scale).rounded())), h = max(1, Int((Double(height) * scale).rounded()))
        func up32(_ v: Int) -> Int { max(32, (v + 31) / 32 * 32) }
        return (scale, w, h, up32(w), up32(h))
    }

    /// The largest scale a file's image may be detected at: its longest side at `maxSide`, and
    /// never more than `maxEnlargement` times its size, or its shorter side at `minShortSide`
    /// when that is more (the bound on the detector's cost).
    public func largestScale(width: Int, height: Int) -> Double {
        let shortest = Double(max(1, min(width, height)))
        return min(Double(maxSide) / Double(max(1, width, height)), max(maxEnlargement, Double(minShortSide) / shortest))
    }

    /// The text boxes on `image`, in its pixels, the surest first. A live frame (`isFrame`)
    /// gets the last boxes of its camera's scene (see `refreshFrames`).
    public func detect(_ image: GrayImage) throws(DetectorError) -> [RotatedTextBox] {
        guard image.isFrame else { return try detectNow(image) }
        let thumbnail = SceneThumbnail(image)
        let background = backgroundDetection()
        guard let last = background.latest(), last.width == image.width, last.height == image.height else {
            let boxes = try detectNow(image)
            background.store(boxes, thumbnail: thumbnail, width: image.width, height: image.height)
            return boxes
        }
        let moved = last.thumbnail.changedShare(comparedTo: thumbnail)
        if last.age >= refreshFrames || moved > 0 {
            let post = postProcess, size = workingSize(width: image.width, height: image.height)
            let width = image.width, height = image.height
            background.request(pixels: image.bytes(), width: width, height: height, thumbnail: thumbnail) {
                (net, pixels) throws(DetectorError) in
                try Self.detect(
                    net: net, pixels: pixels, width: width, height: height, size: size, postProcess: post, sharpening: .off
                ).boxes
            }
        }
        // A scene that moved since its boxes were found is not read at them: they would fall on
        // other text or none (junk readings cost 15–60 ms each, a frame 0.4 s). Its own boxes
        // come with the detection just asked for.
        if moved > SceneThumbnail.movedShare { return [] }
        return last.boxes
    }

    /// The detection beside the reading of frames, made on first use by the calling thread.
    private func backgroundDetection() -> BackgroundDetection {
        if let background { return background }
        let made = BackgroundDetection(net: TextDetectorNet(sameModelAs: net))
        background = made
        return made
    }

    /// One pass of the network and the post-processing over `pixels`, boxes in its pixels.
    static func detect(
        net: TextDetectorNet, pixels: [UInt8], width: Int, height: Int,
        size: WorkingSize, postProcess: DBPostProcess,
        sharpening: InputSharpening
    ) throws(DetectorError) -> (boxes: [RotatedTextBox], sharpened: Bool) {
        let (map, sharpened) = try net.map(
            gray: pixels, width: width, height: height, scaledWidth: size.width, scaledHeight: size.height, netWidth: size.netWidth,
            netHeight: size.netHeight, sharpening: sharpening)
        // Back to image pixels by the exact ratio of the sides (the working size is rounded).
        let back = Double(width) / Double(size.width)
        let boxes = postProcess.boxes(
            map: map, width: size.netWidth, height: size.netHeight, validWidth: size.width, validHeight: size.height)
        return (boxes.map { $0.scaled(by: back) }, sharpened)
    }

    /// One detection on `image` with this detector's net, on the calling thread, at the working
    /// `size` (nil: `workingSize`'s for the image), its input sharpened by `sharpening` when blurred.
    func detectNow(_ image: GrayImage, size: WorkingSize? = nil, sharpening: InputSharpening = .off) throws(DetectorError)
        -> [RotatedTextBox]
    {
        let found = try Self.detect(
            net: net, pixels: image.bytes(), width: image.width, height: image.height,
            size: size ?? workingSize(width: image.width, height: image.height), postProcess: postProcess,
            sharpening: sharpening)
        lastInputSharpened = found.sharpened
        return found.boxes
    }

    /// The text boxes on a file's `image` (not a live frame) with the working image's longest
    /// side at most `side` (nil: `maxSide`); `document`: the image is read as a document,
    /// whose input is sharpened when blurred (`documentSharpening`).
    public func detect(_ image: GrayImage, side: Int?, document: Bool = false) throws(DetectorError) -> [RotatedTextBox] {
        try detectNow(
            image, size: workingSize(width: image.width, height: image.height, side: side),
            sharpening: document ? documentSharpening : .off)
    }

    /// The text boxes on a file's `image` (not a live frame) detected at `scale` (see
    /// `largestScale`); `document`: its input sharpened when blurred, as `detect(_:side:document:)`.
    public func detect(_ image: GrayImage, scale: Double, document: Bool = false) throws(DetectorError) -> [RotatedTextBox] {
        try detectNow(
            image, size: workingSize(width: image.width, height: image.height, scale: scale),
            sharpening: document ? documentSharpening : .off)
    }

    /// Whether a document's detection of `image` with the longest side at most `side` would
    /// sharpen its input (`documentSharpening`): its edges spread over more than
    /// `blurredEdge` px at that size. Measured as the detection measures it, without the net.
    public func inputBlurred(_ image: GrayImage, side: Int?) -> Bool {
        guard documentSharpening.blurredEdge > 0 else { return false }
        let size = workingSize(width: image.width, height: image.height, side: side)
        let spread = TextDetectorNet.edgeSpread(
            gray: image.bytes(), width: image.width, height: image.height, scaledWidth: size.width, scaledHeight: size.height)
        OCRLog.write("document input at \(side ?? maxSide) px: edges spread \(String(format: "%.2f", spread)) px")
        return spread > documentSharpening.blurredEdge
    }

    /// The regions to read for the detected `boxes` on `image`.
    public func regions(_ boxes: [RotatedTextBox], in image: GrayImage) -> [TextRegion] {
        let pixels = image.bytes()
        return boxes.compactMap { Self.region($0, pixels: pixels, width: image.width, height: image.height) }
    }

    /// Share of a box's thickness (across the text line) taken as its glyph height when its
    /// ink shows no glyph (`measureGlyphs`): the grown box spans a line's ascenders and
    /// descenders and a margin; capitals and digits fill about 0.7 of it.
    static let glyphShare = 0.7
    /// Advance of one glyph as a share of the glyph height (digits and capitals are about
    /// 0.55 wide, plus spacing), for the glyph count of a box without measured glyphs.
    static let advanceShare = 0.65

    /// How much taller than a box's thickness its upright rectangle must be for its glyphs to
    /// be measured on the box turned upright (`TextDetectorNet.measureGlyphs(corners:)`).
    /// In the upright rectangle of a leaning line only ink at least 0.3 of the rectangle's
    /// height counts as a glyph: as the lean makes the rectangle taller, a line's x-height
    /// glyphs (about half its box's thickness: the box holds the line and a margin) stop
    /// counting, and what does is its ascenders and the lines above and below, which the
    /// rectangle now takes in (receipts-de turned 10°: `zu zahlen`, 27 px, measured 36, then
    /// read at three quarters of its size with the next line in its crop). A quarter taller
    /// than the box: the lean adds a quarter of the line's thickness, about where a line's
    /// neighbours begin to enter. Below it the two measures agree within a pixel or two and
    /// the upright one stays, as every level set was read with: measuring every box that
    /// leans over 1° turned moved the readings of sroie-dev's scans (a total lost at half
    /// size), and 1.5 kept fewer of receipts-de's totals marked at 10° (0.846 against 0.923);
    /// 1.15–1.35 measured alike (docs/benchmarks/2026-12-06-leaning-glyphs.md).
    static let leaningHeight = 1.25

    /// A region for one box: its upright bounds, and the glyph height, count, ink fill and
    /// polarity its ink shows (the detector says where text is; the ink says how big).
    static func region(_ b: RotatedTextBox, pixels: [UInt8], width: Int, height: Int) -> TextRegion? {
        let rect = b.bounds(width: width, height: height)
        guard rect.width >= 3, rect.height >= 3 else { return nil }
        let across = min(b.thickness, b.length)
        let slope = b.slope
        // A leaning line is measured turned upright (`leaningHeight`).
        let measured =
            abs(slope) >= RegionReader.straightenSlope && Double(rect.height) >= Self.leaningHeight * across
            ? TextDetectorNet.measureGlyphs(pixels: pixels, width: width, height: height, corners: b.corners)
            : TextDetectorNet.measureGlyphs(pixels: pixels, width: width, height: height, box: rect)
        if let m = measured {
            return TextRegion(
                rect: rect, glyphHeight: m.glyphHeight, glyphs: max(1, m.glyphs), lightOnDark: m.lightOnDark, fill: m.fill, clutter: 0,
                slope: slope, thickness: across, score: b.score)
        }
        let glyph = max(1, Int((across * glyphShare).rounded()))
        let glyphs = max(1, Int((max(b.thickness, b.length) - across * (1 - glyphShare)) / (advanceShare * Double(glyph))))
        return TextRegion(
            rect: rect, glyphHeight: glyph, glyphs: glyphs, lightOnDark: false, fill: 0.5, clutter: 0, slope: slope, thickness: across,
            score: b.score)
    }
}

/// A live frame seen coarsely: the mean of each cell of a 32 × 18 grid. A cell changed between
/// two frames when its mean moved by more than `stillDifference` gray levels after the frames'
/// overall brightness difference is taken out (a webcam's exposure drifts).
struct SceneThumbnail: Equatable, Sendable {
    static let columns = 32, rows = 18
    /// Sensor noise moves a cell's mean (a cell of a 1280×720 frame averages 1 600 pixels) by
    /// under 1 gray level; a tag moving into a cell, or the camera panning, by tens.
    static let stillDifference = 8.0
    let width: Int
    let height: Int
    let cells: [Double]

    init(_ image: GrayImage) {
        let width = image.width, height = image.height
        self.width = width
        self.height = height
        let pixels = image.bytes()
        var sums = [Double](repeating: 0, count: Self.columns * Self.rows)
        var counts = [Int](repeating: 0, count: Self.columns * Self.rows)
        let column = (0..<width).map { $0 * Self.columns / width }
        for y in 0..<height {
            let cy = y * Self.rows / height, row = y * width
            for x in 0..<width {
                let c = cy * Self.columns + column[x]
                sums[c] += Double(pixels[row + x])
                counts[c] += 1
            }
        }
        cells = zip(sums, counts).map { $1 > 0 ? $0 / Double($1) : 0 }
    }

    /// Share of cells a frame may change while the rest of its boxes still hold (a hand or a
    /// shopper entering one side of the view): one cell in twenty.
    static let movedShare = 0.05

    /// The share of cells whose mean moved by more than `stillDifference` (1 for frames of
    /// another size).
    func changedShare(comparedTo other: SceneThumbnail) -> Double {
        guard width == other.width, height == other.height else { return 1 }
        let shift = zip(cells, other.cells).map { $1 - $0 }.reduce(0, +) / Double(cells.count)
        let changed = zip(cells, other.cells).filter { abs($1 - $0 - shift) > Self.stillDifference }.count
        return Double(changed) / Double(cells.count)
    }
}

/// Detection of live frames beside their reading: one thread and one net of its own, the last
/// boxes behind a lock. At most one detection runs at a time; a request while one runs is
/// dropped (the next changed frame asks again), so the detector always works on a recent frame.
///
/// The thread is its own, started by the thread that makes this (a live worker), so it runs at
/// that thread's priority: a live worker's is a little below the capture loop's, and a
/// detection must not take the CPU from taking frames either (on a dispatch queue it ran at
/// the capture loop's; under software emulation the frames' first reads then waited minutes).
final class BackgroundDetection: Sendable {
    struct Latest {
        var boxes: [RotatedTextBox]
        var thumbnail: SceneThumbnail
        var width: Int
        var height: Int
        /// Frames read at these boxes since they were detected.
        var age: Int
    }
    typealias Job = @Sendable (TextDetectorNet) -> Void
    /// What the detection thread does next.
    private enum Next: Sendable {
        case run(Job)
        case stop
    }
    private struct State: Sendable {
        var latest: Latest?
        /// A job asked for or running.
        var running = false
        var job: Job?
        var stopping = false
    }
    private let state: Monitor<State>

    /// A net handed to the detection thread, which alone uses it after `init`.
    private final class NetBox: @unchecked Sendable {
        let net: TextDetectorNet
        init(_ net: TextDetectorNet) { self.net = net }
    }

    init(net: TextDetectorNet) {
        let state = Monitor(State())
        self.state = state
        let box = NetBox(net)
        // The thread holds the state and the net, never `self`: the detector that lets this go
        // stops it (`stop`), and the thread ends after its last job.
        let thread = Thread {
            while case .run(let job) = state.wait(until: { s -> Next? in
                if let job = s.job {
                    s.job = nil
                    return .run(job)
                }
                return s.stopping ? .stop : nil
            }) {
                job(box.net)
                state.update { $0.running = false }
            }
        }
        thread.name = "pricecam-detect"
        thread.start()
    }

    /// Returns when no detection runs or waits.
    func finish() {
        _ = state.wait { s -> Bool? in s.running ? nil : true }
    }

    /// Waits for the detection running, then ends the thread.
    func stop() {
        finish()
        state.update { $0.stopping = true }
    }

    /// The last boxes, counted as used by one more frame.
    func latest() -> Latest? {
        state.withLock { s in
            s.latest?.age += 1
            return s.latest.map {
                var l = $0; l.age -= 1; return l
            }
        }
    }

    func store(_ boxes: [RotatedTextBox], thumbnail: SceneThumbnail, width: Int, height: Int) {
        state.withLock { $0.latest = Latest(boxes: boxes, thumbnail: thumbnail, width: width, height: height, age: 0) }
    }

    /// Starts `detect` on the detection thread unless one is running. A failed detection
    /// keeps the last boxes.
    func request(
        pixels: [UInt8], width: Int, height: Int, thumbnail: SceneThumbnail,
        detect: @escaping @Sendable (TextDetectorNet, [UInt8]) throws(DetectorError) -> [RotatedTextBox]
    ) {
        let state = self.state
        let job: Job = { net in
            let boxes = try? detect(net, pixels)
            if let boxes {
                state.withLock { $0.latest = Latest(boxes: boxes, thumbnail: thumbnail, width: width, height: height, age: 0) }
            }
        }
        state.update { s in
            if s.running || s.stopping { return }
            s.running = true
            s.job = job
        }
    }
}
