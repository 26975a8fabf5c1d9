#if canImport(Geometry)
    import Geometry  // (absent when the parser is compiled alone: scripts/bench-parse.sh)
#endif
/// One recognised word: its text, where it is, and how sure the OCR was (0...1).
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

/// One line of text as the parser reads it: words in reading order.
///
/// OCR gives words with boxes; `pricecam parse` gives plain text, which becomes
/// one word per whitespace-separated token with no box and full confidence.
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

    public var box: Box? {
        words.compactMap(\.box).reduce(nil) { acc, b in acc.map { $0.union(b) } ?? b }
    }
}
