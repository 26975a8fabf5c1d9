/// An axis-aligned rectangle in image pixels: x, y of the top-left corner, width, height.
/// One type for every box: the OCR's words and regions, the parser's matches, the ground
/// truth's prices.
public struct Box: Sendable, Hashable, Codable {
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

    /// The smallest box that holds both.
    public func union(_ other: Box) -> Box {
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(x + width, other.x + other.width)
        let bottom = max(y + height, other.y + other.height)
        return Box(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Pixels this box shares with `other`.
    public func intersectionArea(_ other: Box) -> Int {
        max(0, min(x + width, other.x + other.width) - max(x, other.x))
            * max(0, min(y + height, other.y + other.height) - max(y, other.y))
    }

    /// The box with every coordinate multiplied by `factor` (rounded outwards).
    public func scaled(by factor: Double) -> Box {
        let left = Int((Double(x) * factor).rounded(.down)), top = Int((Double(y) * factor).rounded(.down))
        let right = Int((Double(x + width) * factor).rounded(.up)), bottom = Int((Double(y + height) * factor).rounded(.up))
        return Box(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// `[x, y, width, height]`, the form the output contract uses.
    public var array: [Int] { [x, y, width, height] }
}
