import Geometry
/// One recognised word with its box and Tesseract's confidence (0...1).
public struct RecognizedWord: Sendable, Hashable {
    public var text: String
    public var rect: Box
    public var confidence: Double

    public init(text: String, rect: Box, confidence: Double) {
        self.text = text
        self.rect = rect
        self.confidence = confidence
    }
}

/// One recognised text line: its words in reading order.
public struct RecognizedLine: Sendable, Hashable {
    public var words: [RecognizedWord]
    public var rect: Box
    public var confidence: Double

    public init(words: [RecognizedWord], rect: Box, confidence: Double) {
        self.words = words
        self.rect = rect
        self.confidence = confidence
    }

    /// A line of `words` (at least one): the box around them and their mean confidence.
    public init(words: [RecognizedWord]) {
        var rect = words[0].rect
        for w in words.dropFirst() { rect = rect.union(w.rect) }
        self.init(words: words, rect: rect, confidence: words.map(\.confidence).reduce(0, +) / Double(words.count))
    }

    public var text: String { words.map(\.text).joined(separator: " ") }
}

/// What the OCR read on one image.
public struct RecognizedPage: Sendable {
    public var width: Int
    public var height: Int
    public var lines: [RecognizedLine]
    /// Wall time spent in recognition (milliseconds).
    public var milliseconds: Double

    public init(width: Int, height: Int, lines: [RecognizedLine], milliseconds: Double) {
        self.width = width
        self.height = height
        self.lines = lines
        self.milliseconds = milliseconds
    }
}

extension RecognizedPage {
    /// The page read on a copy scaled by `1 / factor`, with its boxes mapped back by `factor`
    /// onto an image of `width` × `height` (the original).
    public func rescaled(by factor: Double, width: Int, height: Int) -> RecognizedPage {
        func clip(_ r: Box) -> Box {
            let x0 = max(0, r.x), y0 = max(0, r.y)
            let x1 = min(width, r.x + r.width), y1 = min(height, r.y + r.height)
            return Box(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
        }
        let mapped = lines.map { line in
            RecognizedLine(
                words: line.words.map { RecognizedWord(text: $0.text, rect: clip($0.rect.scaled(by: factor)), confidence: $0.confidence) },
                rect: clip(line.rect.scaled(by: factor)), confidence: line.confidence)
        }
        return RecognizedPage(width: width, height: height, lines: mapped, milliseconds: milliseconds)
    }
}
