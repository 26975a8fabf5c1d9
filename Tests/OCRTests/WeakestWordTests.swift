import Geometry
@testable import OCR
import Testing

/// `SecondPass.weakest`: what makes a line worth reading again, and what ends its tries.
@Suite struct WeakestWordTests {
    func line(_ words: [(String, Double)]) -> TextLine {
        TextLine(words: words.map { TextWord(text: $0.0, confidence: $0.1) })
    }

    @Test func onALineWithDigitsOnlyTheWordsWithDigitsCount() {
        // An unsure dish name beside a sure price: sure.
        let sure = SecondPass.weakest(line([("Wiener", 0.42), ("35", 0.96)]))
        #expect(sure.confidence == 0.96)
        #expect(!sure.unsure)
        // The price under `lowConfidence`: unsure.
        let unsure = SecondPass.weakest(line([("Wiener", 0.96), ("35", 0.52)]))
        #expect(unsure.confidence == 0.52)
        #expect(unsure.unsure)
    }

    @Test func onALineWithoutDigitsOnlyAGarbledWordIsUnsure() {
        // `Ti,` for `1,77`: under `garbledConfidence`.
        #expect(SecondPass.weakest(line([("Water", 0.9), ("Ti,", 0.3)])).unsure)
        // Text read fairly surely, under `lowConfidence` but over `garbledConfidence`.
        #expect(!SecondPass.weakest(line([("Water", 0.9), ("still", 0.6)])).unsure)
    }

    @Test func theBoundsThemselvesAreSure() {
        #expect(!SecondPass.weakest(line([("12", SecondPass.lowConfidence)])).unsure)
        #expect(!SecondPass.weakest(line([("Soup", SecondPass.garbledConfidence)])).unsure)
    }
}
