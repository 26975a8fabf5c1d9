import CTextDetection
import Foundation
import Geometry

/// The DB text detector network, run by ONNX Runtime (`OnnxRuntime`), and DB post-processing:
/// the one file that speaks to the `CTextDetection` shim's detector.
///
/// One net, made once from the model as shipped, runs every input size: ONNX Runtime sizes
/// each layer from the input it is given. (OpenCV 4.6, which ran the nets until 2026-11-29,
/// kept the shapes of the first input a net ran, so each size had a net of its own, its model
/// given that size; `fixedInput` still makes those, to measure.) Not thread-safe, so not
/// `Sendable`: one per worker.
public final class TextDetectorNet {
    /// The model's file name in `models/` (made by scripts/detector-model/install.sh).
    public static let modelFile = "text-detector.onnx"

    public let path: String
    private let model: [UInt8]
    /// The net, or with `fixedInput` the nets by input size, the most recently used last.
    private var nets: [(width: Int, height: Int, net: OpaquePointer)] = []
    /// Most nets kept at once by default with `fixedInput`: a batch of photos from one camera
    /// needs one; a folder of mixed scans a few (each net is 5 MB of weights and up to tens of
    /// MB of buffers for its input size, and 20–40 ms to make).
    public static let keptNets = 4
    /// Most nets this one keeps (`keptNets`, or 1 for a camera's frames, which have one size).
    private let netLimit: Int
    /// Whether each input size gets a net of its own, its model given that size before the
    /// runtime reads it (`Sources/CTextDetection/fixed_input.hpp`): the same map; on only to
    /// compare (one net for every size: a folder of mixed scans 3–8% less CPU time, half the
    /// memory; docs/benchmarks/2026-11-29-one-detector-net.md).
    let fixedInput: Bool

    /// Reads the model at `path` and checks that the runtime can build a net from it.
    public init(path: String, fixedInput: Bool = false) throws(DetectorError) {
        if let failure = OnnxRuntime.failure { throw .failed(failure) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadableModel(path: path, reason: "cannot read the file")
        }
        self.path = path
        self.model = [UInt8](data)
        self.netLimit = Self.keptNets
        self.fixedInput = fixedInput
        _ = try net(width: 32, height: 32)
    }

    /// Another owner of the same model (bytes shared, already checked), for a second thread:
    /// no file read and no check net, so a live worker's first frame does not wait for them.
    /// `keeping`: the most nets it keeps (one per input size).
    public init(sameModelAs other: TextDetectorNet, keeping: Int = keptNets) {
        self.path = other.path
        self.model = other.model
        self.netLimit = max(1, keeping)
        self.fixedInput = other.fixedInput
    }

    deinit {
        for n in nets { pc_textdet_destroy(n.net) }
    }

    private func net(width: Int, height: Int) throws(DetectorError) -> OpaquePointer {
        // A net whose model was read as it is takes any size: it is the only one.
        if let only = nets.first, pc_textdet_resize(only.net, Int32(width), Int32(height)) == 0 {
            nets[0] = (width, height, only.net)
            return only.net
        }
        if let i = nets.firstIndex(where: { $0.width == width && $0.height == height }) {
            let hit = nets.remove(at: i)
            nets.append(hit)
            return hit.net
        }
        var error = [CChar](repeating: 0, count: 512)
        let start = DispatchTime.now().uptimeNanoseconds
        let created = model.withUnsafeBufferPointer { m in
            pc_textdet_create(m.baseAddress, m.count, Int32(width), Int32(height), fixedInput ? 1 : 0, &error, error.count)
        }
        guard let created else {
            throw .unreadableModel(
                path: path, reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        if nets.count >= netLimit { pc_textdet_destroy(nets.removeFirst().net) }
        nets.append((width, height, created))
        OCRLog.write("detector net for \(width)x\(height) made in \(PageReader.ms(since: start)) ms")
        return created
    }

    /// How many nets it holds now (one, or with `fixedInput` one per input size kept).
    var netCount: Int { nets.count }

    /// Whether the net for `width` × `height` inputs has its model given that size (false:
    /// the model is read as it is, when its first input is not a 4-dimensional tensor).
    func hasFixedInput(width: Int, height: Int) throws(DetectorError) -> Bool {
        pc_textdet_fixed_input(try net(width: width, height: height)) != 0
    }

    /// The text probability map of `gray` (`width` × `height`, rows without padding) resized
    /// to `scaledWidth` × `scaledHeight` and placed at the top left of a `netWidth` ×
    /// `netHeight` input (multiples of 32); the map has the net's size.
    public func probabilities(
        gray: [UInt8], width: Int, height: Int, scaledWidth: Int, scaledHeight: Int, netWidth: Int, netHeight: Int
    ) throws(DetectorError) -> [Float] {
        try map(
            gray: gray, width: width, height: height, scaledWidth: scaledWidth, scaledHeight: scaledHeight, netWidth: netWidth,
            netHeight: netHeight, sharpening: .off
        ).map
    }

    /// `probabilities`, its input sharpened by `sharpening` when blurred; `sharpened`: whether it was.
    func map(
        gray: [UInt8], width: Int, height: Int, scaledWidth: Int, scaledHeight: Int, netWidth: Int, netHeight: Int,
        sharpening: InputSharpening
    ) throws(DetectorError) -> (map: [Float], sharpened: Bool) {
        precondition(gray.count >= width * height, "gray buffer too small")
        let n = try net(width: netWidth, height: netHeight)
        var map = [Float](repeating: 0, count: netWidth * netHeight)
        var error = [CChar](repeating: 0, count: 512)
        var edge: Float = 0
        let rc = gray.withUnsafeBufferPointer { g in
            map.withUnsafeMutableBufferPointer { m in
                pc_textdet_run(
                    n, g.baseAddress, Int32(width), Int32(height), width, Int32(scaledWidth), Int32(scaledHeight),
                    Float(sharpening.blurredEdge), Float(sharpening.amount), &edge, m.baseAddress, &error, error.count)
            }
        }
        guard rc == 0 else { throw .failed(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        let sharpened = sharpening.blurredEdge > 0 && Double(edge) > sharpening.blurredEdge
        if sharpening.blurredEdge > 0 { OCRLog.write("detector input edges spread \(edge) px\(sharpened ? ": sharpened" : "")") }
        return (map, sharpened)
    }

    /// DB post-processing of a probability map (see `DBPostProcess`), boxes in map pixels.
    static func boxes(map: [Float], width: Int, height: Int, validWidth: Int, validHeight: Int, settings: DBPostProcess)
        -> [RotatedTextBox]
    {
        precondition(map.count >= width * height, "map smaller than its size")
        var out = [pc_text_box](repeating: pc_text_box(), count: settings.maxBoxes)
        let n = map.withUnsafeBufferPointer { m in
            out.withUnsafeMutableBufferPointer { o in
                pc_db_boxes(
                    m.baseAddress, Int32(width), Int32(height), Int32(validWidth), Int32(validHeight), Float(settings.threshold),
                    Float(settings.boxThreshold), Float(settings.unclipRatio), Float(settings.minSize), o.baseAddress,
                    Int32(settings.maxBoxes))
            }
        }
        guard n > 0 else { return [] }
        return out.prefix(Int(min(n, Int32(settings.maxBoxes)))).map { b in
            RotatedTextBox(
                corners: [
                    Point(x: Double(b.x.0), y: Double(b.y.0)), Point(x: Double(b.x.1), y: Double(b.y.1)),
                    Point(x: Double(b.x.2), y: Double(b.y.2)), Point(x: Double(b.x.3), y: Double(b.y.3)),
                ],
                score: Double(b.score))
        }
    }

    /// What the ink inside `box` of a gray image (`width` × `height`, rows without padding)
    /// says about its text; nil when the box is too small or holds no glyph-like ink.
    static func measureGlyphs(pixels: [UInt8], width: Int, height: Int, box: Box) -> (
        glyphHeight: Int, glyphs: Int, lightOnDark: Bool, fill: Double
    )? {
        var stats = pc_glyph_stats()
        let rc = pixels.withUnsafeBufferPointer { p in
            pc_measure_glyphs(
                p.baseAddress, Int32(width), Int32(height), width, Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height), &stats)
        }
        guard rc == 0, stats.glyph_height > 0 else { return nil }
        return (Int(stats.glyph_height), Int(stats.glyphs), stats.light_on_dark != 0, Double(stats.fill))
    }
}
