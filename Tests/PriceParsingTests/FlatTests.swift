import Geometry
import Testing

/// `Box.isFlat(onLineOf:)`, the one share (`flatShare`) by which the parser and the second
/// pass tell a leader or a rule from printed glyphs.
@Suite struct FlatTests {
    @Test func underAThirdOfTheLinesTextIsFlat() {
        #expect(Box(x: 0, y: 0, width: 200, height: 3).isFlat(onLineOf: 23))
        #expect(Box(x: 0, y: 0, width: 200, height: 9).isFlat(onLineOf: 30))
    }

    @Test func aThirdAndMoreIsNot() {
        #expect(!Box(x: 0, y: 0, width: 200, height: 10).isFlat(onLineOf: 30))
        #expect(!Box(x: 0, y: 0, width: 12, height: 20).isFlat(onLineOf: 20))
    }

    @Test func nothingIsFlatOnALineOfNoHeight() {
        #expect(!Box(x: 0, y: 0, width: 200, height: 0).isFlat(onLineOf: 0))
    }
}
