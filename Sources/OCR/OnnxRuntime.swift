import CTextDetection
import Foundation

/// ONNX Runtime, the library that runs the text detector's and the line recogniser's networks:
/// loaded once per process, before the first net is made, from the folder the models are in
/// (scripts/onnxruntime/install.sh puts it there; `PRICECAM_ONNXRUNTIME` names another file).
enum OnnxRuntime {
    /// The library's file name (the version the install script fetches and checks).
    static let library = "libonnxruntime.so.1.31.1"
    static let installer = "scripts/onnxruntime/install.sh"

    /// Why the runtime could not be loaded, or nil once it is: the first use decides, for the
    /// process's life.
    static var failure: String? { outcome }

    private static let outcome: String? = load(environment: ProcessInfo.processInfo.environment)

    /// Where the library is looked for: `PRICECAM_ONNXRUNTIME` alone when set, else each
    /// `models/` folder (`Tessdata.modelsDirectories`).
    static func candidates(environment: [String: String]) -> [String] {
        if let explicit = environment["PRICECAM_ONNXRUNTIME"], !explicit.isEmpty { return [explicit] }
        return Tessdata.modelsDirectories().map { ($0 as NSString).appendingPathComponent(library) }
    }

    private static func load(environment: [String: String]) -> String? {
        let paths = candidates(environment: environment)
        guard let path = paths.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else {
            let origin = environment["PRICECAM_ONNXRUNTIME"].map { $0.isEmpty ? "" : " (PRICECAM_ONNXRUNTIME)" } ?? ""
            return "the ONNX Runtime library \(library) is not installed (looked in: \(paths.joined(separator: ", "))\(origin)). "
                + "Install it with \(installer) (scripts/bootstrap.sh runs it)."
        }
        var error = [CChar](repeating: 0, count: 512)
        guard pc_ort_load(path, &error, error.count) == 0 else {
            let why = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return "the ONNX Runtime library \(path) cannot be used (\(why)). Install it again with \(installer)."
        }
        OCRLog.write("ONNX Runtime \(pc_ort_version().map { String(cString: $0) } ?? "?") loaded from \(path)")
        return nil
    }
}
