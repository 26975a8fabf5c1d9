/// A number's digit groups: the first four held inline, so that the usual price (`12,99`,
/// `1.234,56`) allocates nothing for them; further groups go to an array.
struct DigitGroups: RandomAccessCollection {
    private var g0 = DigitGroup(), g1 = DigitGroup(), g2 = DigitGroup(), g3 = DigitGroup()
    private var more: [DigitGroup] = []
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

    mutating func append(_ g: DigitGroup) {
        switch count {
        case 0: g0 = g
        case 1: g1 = g
        case 2: g2 = g
        case 3: g3 = g
        default: more.append(g)
        }
        count += 1
    }

    mutating func append(contentsOf groups: DigitGroups) {
        for g in groups { append(g) }
    }
}

/// A number's separators (`.`, `,`, `'`, space; normalised), the first eight packed into one
/// integer, further ones in an array.
struct Separators: RandomAccessCollection {
    private var packed: UInt64 = 0
    private var more: [UInt8] = []
    private(set) var count = 0

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> UInt8 {
        precondition(i >= 0 && i < count, "separator index out of range")
        return i < 8 ? UInt8(truncatingIfNeeded: packed >> UInt64(8 * i)) : more[i - 8]
    }

    mutating func append(_ sep: UInt8) {
        if count < 8 { packed |= UInt64(sep) << UInt64(8 * count) } else { more.append(sep) }
        count += 1
    }

    mutating func append(contentsOf seps: Separators) {
        for s in seps { append(s) }
    }
}
