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
    private var capacity = 0

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

/// A number's digit groups: the first four held inline, so that the usual price (`12,99`,
/// `1.234,56`) needs no more room; further groups go to the line's `SpillArena`.
struct DigitGroups: RandomAccessCollection {
    private var g0 = DigitGroup(), g1 = DigitGroup(), g2 = DigitGroup(), g3 = DigitGroup()
    private var more = Spilled<DigitGroup>()
    private(set) var count = 0

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> DigitGroup {
        precondition(i >= 0 && i < count, "digit group index out of range")
        switch i {
        case 0: return g0
        case 1: return g1
        case 2: return g2
        case 3: return g3
        default: return more[i - 4]
        }
    }

    mutating func append(_ g: DigitGroup, spill: inout SpillArena?) {
        switch count {
        case 0: g0 = g
        case 1: g1 = g
        case 2: g2 = g
        case 3: g3 = g
        default: more.set(g, at: count - 4, arena: &spill)
        }
        count += 1
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
    private(set) var count = 0

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> UInt8 {
        precondition(i >= 0 && i < count, "separator index out of range")
        return i < 8 ? UInt8(truncatingIfNeeded: packed >> UInt64(8 * i)) : more[i - 8]
    }

    mutating func append(_ sep: UInt8, spill: inout SpillArena?) {
        if count < 8 { packed |= UInt64(sep) << UInt64(8 * count) } else { more.set(sep, at: count - 8, arena: &spill) }
        count += 1
    }

    mutating func append(contentsOf seps: Separators, spill: inout SpillArena?) {
        for s in seps { append(s, spill: &spill) }
    }
}

/// A list in memory owned elsewhere, with its room fixed up front: the scan's lists share one
/// temporary allocation per line (`Scan.withScan`) instead of an array each.
struct FixedList<Element: BitwiseCopyable>: RandomAccessCollection, MutableCollection {
    private let base: UnsafeMutablePointer<Element>
    let capacity: Int
    private(set) var count = 0

    init(base: UnsafeMutablePointer<Element>, capacity: Int) {
        self.base = base
        self.capacity = capacity
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

    mutating func removeAll() { count = 0 }
}

/// Places lists of trivial values one after another in one block of memory.
struct ListLayout {
    static let alignment = 8  // at least that of every element type placed (more costs an aligned malloc)
    private(set) var byteCount = 0

    /// Where a list of `capacity` values of `T` goes.
    struct Place<T: BitwiseCopyable> {
        let offset: Int
        let capacity: Int

        func list(in memory: UnsafeMutableRawBufferPointer) -> FixedList<T> {
            let p = (memory.baseAddress.unsafelyUnwrapped + offset).bindMemory(to: T.self, capacity: capacity)
            return FixedList(base: p, capacity: capacity)
        }
    }

    mutating func add<T: BitwiseCopyable>(_: T.Type, _ capacity: Int) -> Place<T> {
        precondition(MemoryLayout<T>.alignment <= Self.alignment)
        let offset = (byteCount + Self.alignment - 1) / Self.alignment * Self.alignment
        byteCount = offset + MemoryLayout<T>.stride * capacity
        return Place(offset: offset, capacity: capacity)
    }
}
