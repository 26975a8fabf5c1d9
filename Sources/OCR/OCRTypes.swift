/// A rectangle in image pixels (x, y of the top-left corner, width, height).
public struct PixelRect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// One recognised word with its box and Tesseract's confidence (0...1).
public struct RecognizedWord: Sendable, Hashable {
    public var text: String
    public var rect: PixelRect
    public var confidence: Double

    public init(text: String, rect: PixelRect, confidence: Double) {
        self.text = text
        self.rect = rect
        self.confidence = confidence
    }
}

/// One recognised text line: its words in reading order.
public struct RecognizedLine: Sendable, Hashable {
    public var words: [RecognizedWord]
    public var rect: PixelRect
    public var confidence: Double

    public init(words: [RecognizedWord], rect: PixelRect, confidence: Double) {
        self.words = words
        self.rect = rect
        self.confidence = confidence
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
}
