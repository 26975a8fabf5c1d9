import CTextDetection
import Foundation
import Geometry

/// The DB text detector network, run by ONNX Runtime (`OnnxRuntime`), and DB post-processing:
/// the one file that speaks to the `CTextDetection` shim's detector.
///
/// One net, made once from the model as shipped, runs every input size: ONNX Runtime sizes
/// each layer from the input it is given. (OpenCV 4.6, which ran the nets until 2026-11-29,
/// kept the shapes of the first input a net ran, so each size had a net of its own, its model
/// given that size: `docs/benchmarks/2026-11-29-one-detector-net.md`.) Not thread-safe, so
/// not `Sendable`: one per worker.
public final class TextDetectorNet {
    /// The model's file name in `models/` (made by scripts/detector-model/install.sh).
    public static let modelFile = "text-detector.onnx"

    public let path: String
    private let model: [UInt8]
    /// The net, made on first use (the check in `init` makes it for the file's first owner).
    private var made: OpaquePointer?

    /// Reads the model at `path` and checks that the runtime can build a net from it.
    public init(path: String) throws(DetectorError) {
        if let failure = OnnxRuntime.failure { throw .failed(failure) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadableModel(path: path, reason: "cannot read the file")
        }
        self.path = path
        self.model = [UInt8](data)
        _ = try net(width: 32, height: 32)
    }

    /// Another owner of the same model (bytes shared, already checked), for a second thread:
    /// no file read and no check net, so a live worker's first frame does not wait for them.
    public init(sameModelAs other: TextDetectorNet) {
        self.path = other.path
        self.model = other.model
    }

    deinit {
        if let made { pc_textdet_destroy(made) }
    }

    /// The net, sized for `width` × `height` inputs.
    private func net(width: Int, height: Int) throws(DetectorError) -> OpaquePointer {
        if let made {
            guard pc_textdet_resize(made, Int32(width), Int32(height)) == 0 else {
                throw .failed("the detector's input cannot be \(width)×\(height) (a multiple of 32 each)")
            }
            return made
        }
        var error = [CChar](repeating: 0, count: 512)
        let start = DispatchTime.now().uptimeNanoseconds
        let created = model.withUnsafeBufferPointer { m in
            pc_textdet_create(m.baseAddress, m.count, Int32(width), Int32(height), &error, error.count)
        }
        guard let created else {
            throw .unreadableModel(
                path: path, reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        made = created
        OCRLog.write("detector net made in \(PageReader.ms(since: start)) ms")
        return created
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
                    Float(sharpening.blurredEdge), Float(sharpening.amount), Float(sharpening.leastSpread), &edge, m.baseAddress, &error,
                    error.count)
            }
        }
        guard rc == 0 else { throw .failed(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        let sharpened = sharpening.blurredEdge > 0 && (Double(edge) > sharpening.blurredEdge || sharpening.leastSpread > 0)
        if sharpening.blurredEdge > 0 { OCRLog.write("detector input edges spread \(edge) px\(sharpened ? ": sharpened" : "")") }
        return (map, sharpened)
    }

    /// The spread of the edges of `gray` (`width` × `height`, rows without padding) resized to
    /// `scaledWidth` × `scaledHeight` as the net's input is (`pc_scaled_edge_width`): what a
    /// detection at that size would measure before sharpening, without running the net.
    static func edgeSpread(gray: [UInt8], width: Int, height: Int, scaledWidth: Int, scaledHeight: Int) -> Double {
        precondition(gray.count >= width * height, "gray buffer too small")
        let spread = gray.withUnsafeBufferPointer { g in
            pc_scaled_edge_width(g.baseAddress, Int32(width), Int32(height), width, Int32(scaledWidth), Int32(scaledHeight))
        }
        return Double(max(0, spread))
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

    /// `measureGlyphs` on a turned box (`corners` clockwise from its top left, image pixels),
    /// turned upright first: a leaning line's glyphs measured against its own thickness.
    static func measureGlyphs(pixels: [UInt8], width: Int, height: Int, corners: [Point]) -> (
        glyphHeight: Int, glyphs: Int, lightOnDark: Bool, fill: Double
    )? {
        guard corners.count == 4 else { return nil }
        var stats = pc_glyph_stats()
        let xs = corners.map { Float($0.x) }, ys = corners.map { Float($0.y) }
        let rc = pixels.withUnsafeBufferPointer { p in
            pc_measure_glyphs_turned(p.baseAddress, Int32(width), Int32(height), width, xs, ys, &stats)
        }
        guard rc == 0, stats.glyph_height > 0 else { return nil }
        return (Int(stats.glyph_height), Int(stats.glyphs), stats.light_on_dark != 0, Double(stats.fill))
    }
}
