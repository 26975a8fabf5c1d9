/// Where the digit groups and separators of a line's few long numbers go past what a number
/// holds inline: memory that lives as long as the line's scan, so that numbers can point into
/// it and stay plain values (copying one costs no reference counting; an array of them is
/// freed without visiting each).
///
/// A number appends only to groups it built itself from empty (`scanNumber`, the joining of
/// spaced groups), so a region is never written through two numbers.
final class SpillArena {
    private var blocks: [UnsafeMutableRawPointer] = []

    /// Uninitialized room for `capacity` values of a trivial type, freed with the arena.
    func allocate<T: BitwiseCopyable>(_: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: capacity)
        blocks.append(UnsafeMutableRawPointer(p))
        return p
    }

    deinit {
        for b in blocks { b.deallocate() }
    }
}

/// The part of a growing list kept in a `SpillArena`: moved to a region twice as large
/// when full (the old one stays valid for copies that still read it).
struct Spilled<T: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<T>? = nil
    /// In 32 bits, with the owner's count after it in the same 16 bytes (`RawNumber`'s size).
    private var storedCapacity: Int32 = 0
    private var capacity: Int {
        get { Int(storedCapacity) }
        set { storedCapacity = Int32(newValue) }
    }

    /// Writes `value` at `index` (one past the last written), growing first when needed.
    mutating func set(_ value: T, at index: Int, arena: inout SpillArena?) {
        if index == capacity {
            let a = arena ?? SpillArena()
            arena = a
            let grown = a.allocate(T.self, capacity: max(8, 2 * capacity))
            if let base { grown.update(from: base, count: index) }
            base = grown
            capacity = max(8, 2 * capacity)
        }
        base.unsafelyUnwrapped[index] = value
    }

    subscript(i: Int) -> T { base.unsafelyUnwrapped[i] }
}

/// A number's digit groups: the first three held inline, so that the usual price (`12,99`,
/// `1.234,56`) needs no more room; further groups go to the line's `SpillArena`. (Three, not
/// four: a `RawNumber` of 128 bytes lets the numbers of a line with up to 8 runs of digits
/// stay in `withUnsafeTemporaryAllocation`'s 1 KB of stack.)
struct DigitGroups: RandomAccessCollection {
    private var g0 = DigitGroup(), g1 = DigitGroup(), g2 = DigitGroup()
    private var more = Spilled<DigitGroup>()
    private var storedCount: Int32 = 0
    var count: Int { Int(storedCount) }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> DigitGroup {
        precondition(i >= 0 && i < count, "digit group index out of range")
        switch i {
        case 0: return g0
        case 1: return g1
        case 2: return g2
        default: return more[i - 3]
        }
    }

    mutating func append(_ g: DigitGroup, spill: inout SpillArena?) {
        switch count {
        case 0: g0 = g
        case 1: g1 = g
        case 2: g2 = g
        default: more.set(g, at: count - 3, arena: &spill)
        }
        storedCount += 1
    }

    mutating func append(contentsOf groups: DigitGroups, spill: inout SpillArena?) {
        for g in groups { append(g, spill: &spill) }
    }
}

/// A number's separators (`.`, `,`, `'`, space; normalised), the first eight packed into one
/// integer, further ones in the line's `SpillArena`.
struct Separators: RandomAccessCollection {
    private var packed: UInt64 = 0
    private var more = Spilled<UInt8>()
    private var storedCount: Int32 = 0
    var count: Int { Int(storedCount) }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> UInt8 {
        precondition(i >= 0 && i < count, "separator index out of range")
        return i < 8 ? UInt8(truncatingIfNeeded: packed >> UInt64(8 * i)) : more[i - 8]
    }

    mutating func append(_ sep: UInt8, spill: inout SpillArena?) {
        if count < 8 { packed |= UInt64(sep) << UInt64(8 * count) } else { more.set(sep, at: count - 8, arena: &spill) }
        storedCount += 1
    }

    mutating func append(contentsOf seps: Separators, spill: inout SpillArena?) {
        for s in seps { append(s, spill: &spill) }
    }
}

/// A list in memory owned elsewhere, with its room fixed up front: the scan's lists live in
/// temporary allocations (`Scan.withScan`) instead of an array each.
struct FixedList<Element: BitwiseCopyable>: RandomAccessCollection, MutableCollection {
    private let base: UnsafeMutablePointer<Element>
    let capacity: Int
    private(set) var count = 0

    init(base: UnsafeMutablePointer<Element>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// The list in `buffer`, with room for `capacity` values (at most the buffer's, which is at
    /// least one: a temporary allocation of none may have no address).
    init(_ buffer: UnsafeMutableBufferPointer<Element>, capacity: Int) {
        precondition(capacity <= buffer.count)
        self.init(base: buffer.baseAddress.unsafelyUnwrapped, capacity: capacity)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// Addressed in place: reading one field of a large element (`RawNumber`) copies no more.
    subscript(i: Int) -> Element {
        unsafeAddress {
            precondition(i >= 0 && i < count, "index out of range")
            return UnsafePointer(base + i)
        }
        unsafeMutableAddress {
            precondition(i >= 0 && i < count, "index out of range")
            return base + i
        }
    }

    mutating func append(_ e: Element) {
        precondition(count < capacity, "list full")
        base[count] = e
        count += 1
    }

    /// The values in `range` as a buffer, valid during `body` (checked once, not per value).
    func withUnsafeElements<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<Element>) -> R) -> R {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of bounds")
        return body(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// Appends what `body` writes to the room after the last value (at most `maxCount`
    /// values, checked once rather than per value); `body` returns how many it wrote.
    mutating func append(upTo maxCount: Int, _ body: (UnsafeMutablePointer<Element>) -> Int) {
        precondition(maxCount >= 0 && count + maxCount <= capacity, "list full")
        let written = body(base + count)
        precondition(written >= 0 && written <= maxCount, "wrote past the room given")
        count += written
    }

    mutating func removeAll() { count = 0 }
}
