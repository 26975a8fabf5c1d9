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
/// A crop is scaled to 48 px high and padded to `inputWidth` columns; one net takes every
/// width (ONNX Runtime runs each input's own shape). Not thread-safe, so not `Sendable`: one
/// per worker.
public final class TextRecognizerNet {
    /// The classes after CTC's blank, as a JSON array of strings (made by the install).
    public static let classesFile = "text-recognizer.json"
    /// The widest input (48 px high): a receipt's total line, keyword to amount; a wider line
    /// is squeezed to it, as PaddleOCR's fixed-width input does.
    public static let widest = 1280
    /// A crop is padded to `narrowest` columns, or when it needs more, to the next multiple of
    /// `widthStep` (the net emits a step per 8 columns), as PaddleOCR's own inference pads a
    /// line: to 320 columns at least, the regime the model was trained in, else to the line's
    /// own width. Narrower inputs cost less (on this machine, one thread: 11 ms at 96 columns,
    /// 31 at 320) but read less surely: padded tightly, receipts-de lost a marked total,
    /// sroie-dev at 0.35 and at 460 px wide a total each (docs/benchmarks/2026-12-07-recogniser-width.md).
    /// The widths above 320 were 640 and 1280 alone before (a net each, from when OpenCV ran
    /// the model at fixed shapes): a 700-column line cost a 1280-column run.
    static let widthStep = 8
    static let narrowest = 320
    /// The model's file name (made by scripts/recognizer-model/install.sh).
    public static let modelFile = "text-recognizer.onnx"

    /// The folder that holds the models.
    public let directory: String
    /// The text-direction classifier kept beside the recogniser, as PaddleOCR's pipeline runs
    /// it between detection and recognition.
    public let direction: TextDirectionNet
    /// Class `i + 1`'s text (class 0 is CTC's blank).
    let classes: [String]
    private let net: OpaquePointer

    /// Reads the classes and the model in `directory` and makes its net (the runtime must
    /// be able to run the model).
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
        let made = try Self.makeNet([UInt8](model), width: Self.widest, path: path)
        net = made
        do { direction = try TextDirectionNet(directory: directory) } catch {
            pc_textrec_destroy(made)
            throw error
        }
    }

    deinit {
        pc_textrec_destroy(net)
    }

    /// A net of `model` (read from `path`) for inputs up to `width` columns wide.
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

    /// The input width for a `width` × `height` box scaled to 48 px high: the next multiple of
    /// `widthStep`, at least `narrowest`, at most `widest` (a wider box is squeezed).
    static func inputWidth(forWidth width: Int, height: Int) -> Int {
        let needed = Int((Double(width) * Double(PC_TEXTREC_HEIGHT) / Double(max(height, 1))).rounded(.up))
        let stepped = (needed + widthStep - 1) / widthStep * widthStep
        return min(widest, max(narrowest, stepped))
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
        let inputWidth = Self.inputWidth(forWidth: crop.width, height: crop.height)
        // A CTC head emits one step per 8 input columns; room for twice that.
        let capacity = inputWidth / 4
        var steps = [Int32](repeating: 0, count: capacity)
        var probabilities = [Float](repeating: 0, count: capacity)
        var scaledWidth: Int32 = 0
        var error = [CChar](repeating: 0, count: 512)
        let count = pixels.withUnsafeBufferPointer { p in
            pc_textrec_run(
                net, p.baseAddress, Int32(crop.width), Int32(crop.height), crop.width, 0, 0, Int32(crop.width), Int32(crop.height),
                Int32(inputWidth), &steps, &probabilities, Int32(capacity), &scaledWidth, &error, error.count)
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
