/// The share of a line's text height, and of the width each character of a word takes, that a
/// word's box must be at least as tall as for it to hold printed glyphs: a digit or a letter is
/// as tall as the line's text and taller than it is wide in any face (about 1.2–1.5 times, 0.6
/// in a receipt printer's double width), while a dot leader or a rule read as a word is 3–8 px
/// on rows of 21–68 px text (the fixture menus, their dim copy and sroie-dev: under a fifth).
/// One share for the parser (`PriceParser.readFromFlatWords`: digits read in a leader are no
/// price) and the OCR's second pass (`SecondPass.withoutLeaders`: a leader is painted over
/// before a line is read again), so the two never disagree on what a leader is.
public let flatShare = 1.0 / 3.0

extension Box {
    /// Whether this box is flatter than a glyph on a line of text `height` px tall (`flatShare`).
    public func isFlat(onLineOf height: Int) -> Bool { Double(self.height) < flatShare * Double(height) }
}
