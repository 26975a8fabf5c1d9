import Foundation

/// Finds every price in lines of OCR text. Pure: no I/O, safe to share.
public struct PriceParser: Sendable {
    public var options: ParserOptions

    public init(options: ParserOptions = ParserOptions()) {
        self.options = options
    }

    /// Every price in one line, in reading order.
    public func parse(_ line: TextLine) -> [PriceMatch] {
        []  // replaced by the full parser (issue 3)
    }

    /// Every price on a page, line by line, in reading order; page context
    /// (receipt keywords) may mark roles.
    public func parse(lines: [TextLine]) -> [PriceMatch] {
        lines.flatMap { parse($0) }
    }

    /// Every price in a plain text line.
    public func parse(text: String) -> [PriceMatch] {
        parse(TextLine(text: text))
    }
}
