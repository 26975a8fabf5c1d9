import CTextDetection
import Foundation
public import Geometry

/// PP-OCR's text-direction classifier (a small network trained with PaddleOCR's recogniser: is
/// a line of text upright or upside down), run by ONNX Runtime (`OnnxRuntime`). It tells a file
/// photographed upside down, its orientation not in the file, from an upright one
/// (`PageReader.upsideDown`). The one file that speaks to the `CTextDetection` shim's classifier.
/// Not thread-safe, so not `Sendable`: one per worker (the line recogniser holds it).
public final class TextDirectionNet {
    /// The model's file name, in the line recogniser's folder (made by
    /// scripts/recognizer-model/install.sh).
    public static let modelFile = "text-direction.onnx"

    private let net: OpaquePointer

    /// Loads the model in `directory` and makes its net.
    public init(directory: String) throws(RecognizerError) {
        if let failure = OnnxRuntime.failure { throw .failed(failure) }
        let path = (directory as NSString).appendingPathComponent(Self.modelFile)
        guard let model = FileManager.default.contents(atPath: path) else {
            throw .unreadableModel(path: path, reason: "cannot read the file")
        }
        var error = [CChar](repeating: 0, count: 512)
        let made = [UInt8](model).withUnsafeBufferPointer { m in pc_textdir_create(m.baseAddress, m.count, &error, error.count) }
        guard let made else {
            throw .unreadableModel(
                path: path, reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        net = made
    }

    deinit { pc_textdir_destroy(net) }

    /// The probability (0…1) that the line of text in `box` of `image` stands upside down.
    public func upsideDown(_ image: GrayImage, box: Geometry.Box) throws(RecognizerError) -> Double {
        guard box.width >= 2, box.height >= 2, let crop = image.cropped(box) else { return 0 }
        let pixels = crop.bytes()
        var p: Float = 0
        var error = [CChar](repeating: 0, count: 512)
        let status = pixels.withUnsafeBufferPointer { b in
            pc_textdir_run(
                net, b.baseAddress, Int32(crop.width), Int32(crop.height), crop.width, 0, 0, Int32(crop.width), Int32(crop.height), &p,
                &error, error.count)
        }
        guard status == 0 else { throw .failed(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        return Double(p)
    }
}
