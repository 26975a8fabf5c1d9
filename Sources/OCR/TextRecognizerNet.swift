import CTextDetection
import Foundation
public import Geometry

/// One character the recogniser read: the output step it was read at and how sure it was.
struct RecognizedCharacter: Equatable {
    var text: String
    var step: Int
    var probability: Float
}

/// PP-OCRv4's line recogniser (a CRNN with a CTC head, trained on printed and photographed
/// text, blurred and small print included), run by ONNX Runtime (`OnnxRuntime`): a second
/// reader, trained apart from Tesseract, for the lines that decide most. The one file that speaks
/// to the `CTextDetection` shim's recogniser.
///
/// A crop is padded to one of a few input widths, each a net of its own made from the model
/// bytes when first needed. Not thread-safe, so not `Sendable`: one per worker.
public final class TextRecognizerNet {
    /// The classes after CTC's blank, as a JSON array of strings (made by the install).
    public static let classesFile = "text-recognizer.json"
    /// The input widths a crop is padded to, narrowest first (the text is 48 px high): a line is
    /// read by the narrowest that holds it (320: a word or an amount, 10 ms of CPU per 32 px with
    /// OpenCV, 21 ms in all with ONNX Runtime; 640: a short line; 1280: a receipt's total line,
    /// keyword to amount). PaddleOCR pads every crop to 320 at least.
    public static let widths = [320, 640, 1280]
    /// The model's file name (made by scripts/recognizer-model/install.sh).
    public static let modelFile = "text-recognizer.onnx"

    /// The folder that holds the models.
    public let directory: String
    /// The text-direction classifier kept beside the recogniser, as PaddleOCR's pipeline runs
    /// it between detection and recognition.
    public let direction: TextDirectionNet
    /// Class `i + 1`'s text (class 0 is CTC's blank).
    let classes: [String]
    private let model: [UInt8]
    private var nets: [Int: OpaquePointer] = [:]

    /// Reads the classes and the model in `directory` and checks that the runtime can build
    /// the narrowest net.
    public init(directory: String) throws(RecognizerError) {
        if let failure = OnnxRuntime.failure { throw .failed(failure) }
        let classesPath = (directory as NSString).appendingPathComponent(Self.classesFile)
        guard let data = FileManager.default.contents(atPath: classesPath) else {
            throw .unreadableModel(path: classesPath, reason: "cannot read the file")
        }
        guard let classes = try? JSONDecoder().decode([String].self, from: data), !classes.isEmpty else {
            throw .unreadableModel(path: classesPath, reason: "not a JSON array of strings")
        }
        let path = (directory as NSString).appendingPathComponent(Self.modelFile)
        guard let model = FileManager.default.contents(atPath: path) else {
            throw .unreadableModel(path: path, reason: "cannot read the file")
        }
        self.directory = directory
        self.classes = classes
        self.model = [UInt8](model)
        let first = try Self.makeNet(self.model, width: Self.widths[0], path: path)
        nets[Self.widths[0]] = first
        do { direction = try TextDirectionNet(directory: directory) } catch {
            pc_textrec_destroy(first)
            throw error
        }
    }

    deinit {
        for n in nets.values { pc_textrec_destroy(n) }
    }

    private func net(width: Int) throws(RecognizerError) -> OpaquePointer {
        if let n = nets[width] { return n }
        let made = try Self.makeNet(model, width: width, path: (directory as NSString).appendingPathComponent(Self.modelFile))
        nets[width] = made
        return made
    }

    /// A net of `model` (read from `path`) for inputs `width` columns wide.
    private static func makeNet(_ model: [UInt8], width: Int, path: String) throws(RecognizerError) -> OpaquePointer {
        var error = [CChar](repeating: 0, count: 512)
        let made = model.withUnsafeBufferPointer { m in
            pc_textrec_create(m.baseAddress, m.count, Int32(width), &error, error.count)
        }
        guard let made else {
            throw .unreadableModel(
                path: path, reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return made
    }

    /// The narrowest installed width that holds a `width` × `height` box scaled to 48 px high
    /// (the widest when none does: the box is then squeezed, as PaddleOCR's fixed-width input does).
    static func netWidth(forWidth width: Int, height: Int) -> Int {
        let needed = Double(width) * Double(PC_TEXTREC_HEIGHT) / Double(max(height, 1))
        return widths.first { Double($0) >= needed.rounded(.up) } ?? widths[widths.count - 1]
    }

    /// Greedy CTC decoding: a class repeated on consecutive steps is one character, the blank
    /// (0) separates characters. `classes[i]` is class `i + 1`'s text.
    static func decode(steps: [Int32], probabilities: [Float], classes: [String]) -> [RecognizedCharacter] {
        var out: [RecognizedCharacter] = []
        var previous: Int32 = 0
        for (t, c) in steps.enumerated() {
            defer { previous = c }
            guard c != 0, c != previous, Int(c) - 1 < classes.count else { continue }
            out.append(RecognizedCharacter(text: classes[Int(c) - 1], step: t, probability: probabilities[t]))
        }
        return out
    }

    /// The decoded characters as words (split at spaces), each with a box in the image: a
    /// character read at step `t` of `stepCount` lies at input column (t + ½)·`inputWidth`/
    /// `stepCount`, of which the crop's `scaledWidth` columns map onto `box`. A word's confidence
    /// is its least sure character's probability (one misread digit makes a wrong amount).
    static func words(
        _ characters: [RecognizedCharacter], stepCount: Int, inputWidth: Int, scaledWidth: Int, box: Box
    ) -> [TextWord] {
        let stepPixels = Double(inputWidth) / Double(max(stepCount, 1))
        let toImage = Double(box.width) / Double(max(scaledWidth, 1))
        func x(_ step: Int, _ edge: Double) -> Int {
            let column = min(Double(scaledWidth), (Double(step) + edge) * stepPixels)
            return box.x + Int((column * toImage).rounded())
        }
        var out: [TextWord] = []
        var current: [RecognizedCharacter] = []
        func flush() {
            current = Self.withoutGlyphGuess(current)
            guard let first = current.first, let last = current.last else { return }
            let x0 = x(first.step, 0), x1 = max(x(last.step, 1), x0 + 1)
            out.append(
                TextWord(
                    text: current.map(\.text).joined(), box: Box(x: x0, y: box.y, width: x1 - x0, height: box.height),
                    confidence: Double(current.map(\.probability).min() ?? 0)))
            current = []
        }
        for c in characters {
            if c.text.allSatisfy(\.isWhitespace) { flush() } else { current.append(c) }
        }
        flush()
        return out
    }

    /// A word's characters without a single letter before an amount with a decimal part: the
    /// classes have no `€`, `£`, `₩` or `₹`, and the net reads such a mark as the letter nearest
    /// in shape, unsurely (fixtures clean/receipt_0001 `£23.80` read `f23.80`, the `f` at 0.78),
    /// which the parser then takes for no price. Codes (`RM45.34`) and the marks it has (`$`,
    /// `¥`) stay.
    static func withoutGlyphGuess(_ word: [RecognizedCharacter]) -> [RecognizedCharacter] {
        let c = word.map(\.text)
        let amount = c.dropFirst()
        guard c.count >= 4, c[0].allSatisfy(\.isLetter), c[1].allSatisfy(\.isNumber),
            amount.allSatisfy({ $0.allSatisfy(\.isNumber) || $0 == "." || $0 == "," }), amount.contains(where: { $0 == "." || $0 == "," })
        else { return word }
        return Array(word.dropFirst())
    }

    /// The text in `box` of `image`, read as one line; nil when nothing is read.
    public func read(_ image: GrayImage, box: Geometry.Box) throws(RecognizerError) -> TextLine? {
        guard box.width >= 2, box.height >= 2, let crop = image.cropped(box) else { return nil }
        let pixels = crop.bytes()
        let inputWidth = Self.netWidth(forWidth: crop.width, height: crop.height)
        let n = try net(width: inputWidth)
        // A CTC head emits one step per 8 input columns; room for twice that.
        let capacity = inputWidth / 4
        var steps = [Int32](repeating: 0, count: capacity)
        var probabilities = [Float](repeating: 0, count: capacity)
        var scaledWidth: Int32 = 0
        var error = [CChar](repeating: 0, count: 512)
        let count = pixels.withUnsafeBufferPointer { p in
            pc_textrec_run(
                n, p.baseAddress, Int32(crop.width), Int32(crop.height), crop.width, 0, 0, Int32(crop.width), Int32(crop.height), &steps,
                &probabilities, Int32(capacity), &scaledWidth, &error, error.count)
        }
        guard count >= 0 else { throw .failed(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        let characters = Self.decode(
            steps: Array(steps.prefix(Int(count))), probabilities: Array(probabilities.prefix(Int(count))), classes: classes)
        let words = Self.words(
            characters, stepCount: Int(count), inputWidth: inputWidth, scaledWidth: Int(scaledWidth),
            box: Geometry.Box(x: box.x, y: box.y, width: crop.width, height: crop.height))
        return words.isEmpty ? nil : TextLine(words: words)
    }
}
