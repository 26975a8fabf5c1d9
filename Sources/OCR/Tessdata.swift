public import Foundation

/// Where Tesseract's language data is, and why none was found.
public enum Tessdata {
    public struct NotFound: Error, CustomStringConvertible, Sendable {
        public let language: String
        public let tried: [String]
        public var description: String {
            let files = Tessdata.models(language).map { "\($0).traineddata" }.joined(separator: ", ")
            let packages = Tessdata.models(language).map { "tesseract-ocr-\($0)" }.joined(separator: " ")
            return "no folder holds \(files); tried:\n"
                + tried.map { "  - \($0)" }.joined(separator: "\n")
                + "\nInstall with `apt-get install \(packages)` (or run scripts/bootstrap.sh --langs),"
                + " or point --tessdata / PRICECAM_TESSDATA at a folder holding \(files)."
        }
    }

    /// The system folders Debian and common installs use.
    public static let systemDirectories = [
        "/usr/share/tesseract-ocr/5/tessdata",
        "/usr/share/tesseract-ocr/4.00/tessdata",
        "/usr/share/tessdata",
        "/usr/local/share/tessdata",
    ]

    /// The models of a Tesseract language setting (`eng+jpn` → `eng`, `jpn`).
    public static func models(_ language: String) -> [String] {
        language.split(separator: "+").map(String.init)
    }

    /// Finds the folder holding `<language>.traineddata` (every model of `eng+jpn`), trying in order:
    /// the explicit folder (`--tessdata`), `PRICECAM_TESSDATA`, the project's
    /// `models/` (next to the working directory or above the executable), then
    /// `TESSDATA_PREFIX` and the system folders.
    public static func locate(
        explicit: String?, language: String = "eng",
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(NotFound) -> String {
        var candidates: [(String, String)] = []
        if let explicit { candidates.append(("--tessdata", explicit)) }
        if let env = environment["PRICECAM_TESSDATA"], !env.isEmpty { candidates.append(("PRICECAM_TESSDATA", env)) }
        for dir in modelsDirectories() { candidates.append(("models/", dir)) }
        if let prefix = environment["TESSDATA_PREFIX"], !prefix.isEmpty { candidates.append(("TESSDATA_PREFIX", prefix)) }
        for dir in systemDirectories { candidates.append(("system", dir)) }

        var tried: [String] = []
        for (origin, dir) in candidates {
            let files = models(language).map { (dir as NSString).appendingPathComponent("\($0).traineddata") }
            if files.allSatisfy({ FileManager.default.isReadableFile(atPath: $0) }) { return dir }
            tried.append("\(dir) (\(origin))")
            // An explicit choice that fails is an error, not something to fall through.
            if origin == "--tessdata" || origin == "PRICECAM_TESSDATA" { break }
        }
        throw NotFound(language: language, tried: tried)
    }

    /// The price-text model's file name stem (`models/price.traineddata`, see models/README.md).
    public static let priceModel = "price"

    /// The folder holding `price.traineddata`: the explicit folder (`--tessdata`),
    /// `PRICECAM_TESSDATA`, then the project's `models/`; nil when none has it.
    public static func locatePriceModel(
        explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        let env = environment["PRICECAM_TESSDATA"].flatMap { $0.isEmpty ? nil : $0 }
        let dirs = [explicit, env].compactMap { $0 } + modelsDirectories()
        return dirs.first {
            FileManager.default.isReadableFile(atPath: ($0 as NSString).appendingPathComponent("\(priceModel).traineddata"))
        }
    }

    /// The text detector's model file (`models/text-detector.onnx`, made by
    /// scripts/detector-model/install.sh): `PRICECAM_DETECTOR_MODEL` when set, else the first
    /// `models/` folder that holds it.
    public static func locateDetectorModel(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DetectorError) -> String {
        if let explicit = environment["PRICECAM_DETECTOR_MODEL"], !explicit.isEmpty {
            guard FileManager.default.isReadableFile(atPath: explicit) else {
                throw .unreadableModel(path: explicit, reason: "no such readable file (PRICECAM_DETECTOR_MODEL)")
            }
            return explicit
        }
        let candidates = modelsDirectories().map { ($0 as NSString).appendingPathComponent(TextDetectorNet.modelFile) }
        guard let found = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else {
            throw .missingModel(searched: candidates)
        }
        return found
    }

    /// The folder of the line recogniser's model (`text-recognizer.json`,
    /// `text-recognizer.onnx` and the direction classifier `text-direction.onnx`, made by
    /// scripts/recognizer-model/install.sh): `PRICECAM_RECOGNIZER_MODELS` when set, else the
    /// first `models/` folder that holds all three.
    public static func locateRecognizerModels(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(RecognizerError) -> String {
        let files = [TextRecognizerNet.classesFile, TextRecognizerNet.modelFile, TextDirectionNet.modelFile]
        func holdsAll(_ dir: String) -> Bool {
            files.allSatisfy { FileManager.default.isReadableFile(atPath: (dir as NSString).appendingPathComponent($0)) }
        }
        if let explicit = environment["PRICECAM_RECOGNIZER_MODELS"], !explicit.isEmpty {
            guard holdsAll(explicit) else {
                throw .unreadableModel(
                    path: explicit, reason: "the folder does not hold \(files.joined(separator: ", ")) (PRICECAM_RECOGNIZER_MODELS)")
            }
            return explicit
        }
        let candidates = modelsDirectories()
        guard let found = candidates.first(where: holdsAll) else { throw .missingModel(searched: candidates) }
        return found
    }

    /// `models/` of the project: in the working directory, or in an ancestor of
    /// the executable (`.build/release/pricecam` sits three levels below it).
    public static func modelsDirectories() -> [String] {
        var out: [String] = []
        let cwd = FileManager.default.currentDirectoryPath
        out.append((cwd as NSString).appendingPathComponent("models"))
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            dir = dir.deletingLastPathComponent()
            let candidate = dir.appendingPathComponent("models").path
            if !out.contains(candidate) { out.append(candidate) }
        }
        return out
    }
}
