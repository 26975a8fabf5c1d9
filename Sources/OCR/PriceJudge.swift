public import Foundation
public import Geometry

/// A price as the OCR stage needs to know it to judge a reading: its amount, how sure the
/// parser is, and whether it is a range end or a receipt's total.
public struct PriceReading: Sendable, Hashable {
    public var text: String
    public var amount: Decimal
    public var confidence: Double
    public var isRange: Bool
    public var isTotal: Bool

    public init(text: String, amount: Decimal, confidence: Double, isRange: Bool = false, isTotal: Bool = false) {
        self.text = text
        self.amount = amount
        self.confidence = confidence
        self.isRange = isRange
        self.isTotal = isTotal
    }
}

/// Which prices lines of text hold. The OCR stage judges its readings by it (which of two
/// readings of a line is better, which lines are worth reading again) without knowing how
/// prices are parsed; the pipeline supplies the price parser.
public protocol PriceJudge: Sendable {
    func prices(in lines: [TextLine]) -> [PriceReading]
    /// Whether `line` has a word that names a receipt's total (`Total`, `Summe`, `合計`), with
    /// or without an amount read on it.
    func namesTotal(_ line: TextLine) -> Bool
    /// Whether `line` names another amount than the one to pay: a subtotal, a tax, a
    /// discount, a rounding, a count of items (`Sub Total`, `Total GST`, `Total Qty`).
    func namesAnotherAmount(_ line: TextLine) -> Bool
    /// Whether the rest of the page confirms `amount` as the total read on line `line` of
    /// `lines` (printed again, paid, or the sum of the lines above): such a reading is not
    /// misread, and the second pass does not vote on it.
    func confirmsTotal(_ amount: Decimal, line: Int, of lines: [TextLine]) -> Bool
    /// Whether the stored currency's prices are printed without decimals (TWD, CZK, HUF, JPY:
    /// CLDR's cash digits 0), so a decimal point read inside a price is more likely a speck.
    var printsWholeNumbers: Bool { get }
}

extension PriceReading {
    /// Whether a price text has a separator followed by exactly two digits ("1,72", "€57.75").
    static func hasCents(_ text: String) -> Bool {
        let c = Array(text)
        for i in c.indices where (c[i] == "." || c[i] == ",") && i > 0 && c[i - 1].isNumber {
            var j = i + 1, n = 0
            while j < c.count && c[j].isNumber { j += 1; n += 1 }
            if n == 2 { return true }
        }
        return false
    }
}

/// Weights of `score`: a price read whole, one that kept its decimal separator, and a range.
enum ScoreWeight {
    static let price = 1.0
    /// A kept decimal separator ("57.75", not "5775") is the commonest thing a re-read loses.
    static let priceWithCents = 1.3
    /// A "range" is most often a misread dash: it counts against the reading.
    static let range = -0.5
}

extension PriceJudge {
    /// A judge that knows no receipt words: no line names a total.
    public func namesTotal(_ line: TextLine) -> Bool { false }
    /// ... nor another amount.
    public func namesAnotherAmount(_ line: TextLine) -> Bool { false }
    /// ... nor a confirmed total.
    public func confirmsTotal(_ amount: Decimal, line: Int, of lines: [TextLine]) -> Bool { false }
    /// ... nor a currency: decimals are as likely as whole numbers.
    public var printsWholeNumbers: Bool { false }

    /// The amounts read on `line`, without their order or repeats: what two readings of one
    /// line are compared by.
    func amounts(in line: TextLine) -> Set<Decimal> { Set(prices(in: [line]).map(\.amount)) }

    /// How good a reading of one line is: parser validity first (each price counts 1, a
    /// "range" — often a misread dash — −0.5), then the prices' own confidence (the words they
    /// were read from), or the line's when it holds none.
    func score(_ line: TextLine) -> Double {
        let matches = prices(in: [line])
        return matches.map { m in
            if m.isRange { return ScoreWeight.range }
            return PriceReading.hasCents(m.text) ? ScoreWeight.priceWithCents : ScoreWeight.price
        }.reduce(0, +) + (matches.isEmpty ? line.confidence : matches.map(\.confidence).reduce(0, +) / Double(matches.count))
    }
}
