/// One recognised word: its text, where it is, and how sure the OCR was (0...1).
///
/// The OCR's words always have a box; the words of a plain text line (`pricecam parse`)
/// have none and full confidence.
public struct TextWord: Sendable, Hashable {
    public var text: String
    public var box: Box?
    public var confidence: Double

    public init(text: String, box: Box? = nil, confidence: Double = 1) {
        self.text = text
        self.box = box
        self.confidence = confidence
    }
}

/// One line of recognised text: its words in reading order. One type for the OCR's
/// readings and the parser's input; the line's box and confidence follow from its words.
public struct TextLine: Sendable, Hashable {
    public var words: [TextWord]

    public init(words: [TextWord]) {
        self.words = words
    }

    /// A plain text line. The text is kept exactly (no-break and thin spaces
    /// stay inside their token); tokens are split on ASCII spaces and tabs.
    public init(text: String) {
        self.words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            .map { TextWord(text: String($0)) }
    }

    /// The words joined with single spaces.
    public var text: String { words.map(\.text).joined(separator: " ") }

    /// The box around the words' boxes; nil when no word has one.
    public var box: Box? {
        words.compactMap(\.box).reduce(nil) { acc, b in acc.map { $0.union(b) } ?? b }
    }

    /// The words' mean confidence; 0 for a line of no words.
    public var confidence: Double {
        words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }

    /// The line with every word's box mapped by `transform` (text and confidence kept).
    public func mappingBoxes(_ transform: (Box) -> Box) -> TextLine {
        TextLine(words: words.map { TextWord(text: $0.text, box: $0.box.map(transform), confidence: $0.confidence) })
    }
}
