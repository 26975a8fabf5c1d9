import Geometry
import Testing

/// `Array.median`, the one middle value every rule of words' heights and prices takes.
@Suite struct MedianTests {
    @Test func theMiddleOfAnOddCountWhateverTheOrder() {
        #expect([31, 9, 20].median == 20)
        #expect([5].median == 5)
    }

    @Test func theUpperMiddleOfAnEvenCountAValueTheArrayHolds() {
        #expect([4, 1, 3, 2].median == 3)
        #expect([0.5, 0.25].median == 0.5)
    }

    @Test func noneOfNothing() {
        #expect([Int]().median == nil)
    }
}
