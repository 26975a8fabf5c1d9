/// A learned model the OCR stage reads with, as its errors name it: what it is and what installs it.
public protocol LearnedModel: Sendable {
    /// The model as a whole, for "… is not installed" (`the text detector model text-detector.onnx`).
    static var installed: String { get }
    /// Whether `installed` names several files ("are", "them").
    static var severalFiles: Bool { get }
    /// One of its files, before its path (`the text detector model`).
    static var file: String { get }
    /// What running it does, for "… failed" (`text detection`).
    static var task: String { get }
    /// The script that installs it.
    static var installer: String { get }
}

/// Why a learned model could not be used: the files, and what to do about it.
public enum ModelError<Model: LearnedModel>: Error, Sendable, CustomStringConvertible, Equatable {
    case missingModel(searched: [String])
    case unreadableModel(path: String, reason: String)
    case failed(String)

    public var description: String {
        switch self {
        case .missingModel(let searched):
            "\(Model.installed) \(Model.severalFiles ? "are" : "is") not installed (looked in: \(searched.joined(separator: ", "))). "
                + "Install \(Model.severalFiles ? "them" : "it") with \(Model.installer) (scripts/bootstrap.sh runs it)."
        case .unreadableModel(let path, let reason):
            "\(Model.file) \(path) cannot be used (\(reason)). Install it again with \(Model.installer)."
        case .failed(let why):
            "\(Model.task) failed: \(why)"
        }
    }
}

/// The DB text detector (`TextDetectorNet`).
public enum DetectorModel: LearnedModel {
    public static var installed: String { "the text detector model \(TextDetectorNet.modelFile)" }
    public static var severalFiles: Bool { false }
    public static var file: String { "the text detector model" }
    public static var task: String { "text detection" }
    public static var installer: String { "scripts/detector-model/install.sh" }
}

/// The line recogniser (`TextRecognizerNet`): its graph and its classes.
public enum RecognizerModel: LearnedModel {
    public static var installed: String {
        "the line recogniser model (\(TextRecognizerNet.modelFile), \(TextRecognizerNet.classesFile), \(TextDirectionNet.modelFile))"
    }
    public static var severalFiles: Bool { true }
    public static var file: String { "the line recogniser model" }
    public static var task: String { "line recognition" }
    public static var installer: String { "scripts/recognizer-model/install.sh" }
}

public typealias DetectorError = ModelError<DetectorModel>
public typealias RecognizerError = ModelError<RecognizerModel>
