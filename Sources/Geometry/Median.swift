extension Array where Element: Comparable {
    /// The middle value once sorted: the upper of the two middle ones when the count is even,
    /// so it is always a value the array holds (a word's height, a price), never an average
    /// of two. Nil when the array is empty.
    public var median: Element? { isEmpty ? nil : sorted()[count / 2] }
}
