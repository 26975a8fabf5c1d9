import Foundation

/// A number's value once its separators are interpreted.
struct ResolvedAmount {
    var amount: Decimal
    /// A decimal part was written (`2,59`, `.99`, `12,-`).
    var hasDecimals: Bool
    /// Digits after the decimal separator (0 when none).
    var fractionDigits: Int
    /// The separator could be decimal or grouping and nothing settled it.
    var ambiguous: Bool
    /// A separator was read as the other kind (`1.234.56`).
    var repaired: Bool
    /// Any `.`, `,`, `'` or space separator was present.
    var hasSeparator: Bool
}

enum AmountResolver {
    /// Digit groups separated by thousands separators: `1`, `12`, `1,234,567`
    /// (first group 1–3 digits, the rest 3) or Indian `1,00,00,000`
    /// (first 1–2 digits, then 2-digit groups, the last group 3).
    /// Of the first `n` groups (all when nil).
    static func validGrouping(_ groups: DigitGroups, first n: Int? = nil) -> Bool {
        let n = n ?? groups.count
        guard n > 0, !groups[0].isEmpty else { return false }
        let first = groups[0]
        if n == 1 { return true }
        if first.count <= 3, (1..<n).allSatisfy({ groups[$0].count == 3 }) { return true }
        if first.count <= 2, groups[n - 1].count == 3, (1..<(n - 1)).allSatisfy({ groups[$0].count == 2 }) { return true }
        return false
    }

    /// Builds an exact Decimal from digit strings, the integer part's in the first `intCount`
    /// groups (never through Double).
    static func decimal(_ groups: DigitGroups, intCount: Int, frac: DigitGroup) -> Decimal? {
        // the digits' count and, while they fit in 64 bits, their value, in one pass
        var total = frac.count, m: UInt64 = 0
        for i in 0..<intCount {
            let g = groups[i]
            total += g.count
            if total <= DigitGroup.packedDigits { m = m &* DigitGroup.powerOfTen(g.count) &+ g.value }
        }
        if total == 0 { return nil }
        if total <= DigitGroup.packedDigits {
            m = m &* DigitGroup.powerOfTen(frac.count) &+ frac.value
            return Decimal(sign: .plus, exponent: -frac.count, significand: Decimal(m))
        }
        let intGroups = (0..<intCount).lazy.map { groups[$0] }
        let int: [UInt8] = intGroups.flatMap(\.digits)
        var str = String(decoding: int.isEmpty ? [0x30] : int, as: UTF8.self)
        if !frac.isEmpty { str += "." + String(decoding: frac.digits, as: UTF8.self) }
        return Decimal(string: str, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// Interprets the separators of `num`.
    ///
    /// `minorUnits` is the currency's (explicit or hinted), nil when unknown.
    /// A single `.` or `,` followed by exactly three digits (`1.234`, `3,350`) is:
    /// grouping for zero-minor-unit currencies (JPY `3.350` = 3350), decimal for
    /// three-minor-unit currencies (KWD `3.350` = 3.350), and otherwise
    /// **ambiguous**: the grouping reading (1234) is reported, because two-minor-unit
    /// currencies do not write three decimals in prices, and `ambiguous` is set so
    /// that callers can lower their trust or ask. A leading `0` (`0,125`) or a
    /// first group of more than three digits (`1234,567`) makes it decimal.
    static func resolve(_ num: RawNumber, minorUnits: Int?) -> ResolvedAmount? {
        if num.rejected || num.digitCount == 0 || num.digitCount > 30 { return nil }
        let groups = num.groups
        if num.leadingSep != nil {
            guard groups.count == 1, groups[0].count <= 3, let a = decimal(groups, intCount: 0, frac: groups[0]) else { return nil }
            return ResolvedAmount(
                amount: a, hasDecimals: true, fractionDigits: groups[0].count, ambiguous: false,
                repaired: false, hasSeparator: true)
        }
        let seps = num.seps
        if seps.isEmpty {
            guard let a = decimal(groups, intCount: 1, frac: DigitGroup()) else { return nil }
            return ResolvedAmount(
                amount: a, hasDecimals: num.wholeDash, fractionDigits: 0, ambiguous: false,
                repaired: false, hasSeparator: num.wholeDash)
        }
        // dates: 12.03.2020, 12.03.20, 1.1.24
        if seps.count == 2, seps[0] == seps[1], seps[0] == 0x2E || seps[0] == 0x2C,
            groups[0].count <= 2, groups[1].count <= 2, groups[2].count == 2 || groups[2].count == 4
        {
            return nil
        }
        let dc = DecimalSeparators(seps)
        func make(intCount: Int, frac: DigitGroup = DigitGroup(), ambiguous: Bool = false, repaired: Bool = false)
            -> ResolvedAmount?
        {
            // Up to 3 decimals, more for currencies that have them (CLF 4, BTC 8), and up to 8
            // after a zero (`0,1234 €/kWh`, `0.0045 BTC`): `12.3456 €` is no price.
            guard
                frac.count <= max(3, minorUnits ?? 0)
                    || (frac.count <= 8 && (0..<intCount).allSatisfy { groups[$0].isAllZeros }),
                let a = decimal(groups, intCount: intCount, frac: frac)
            else { return nil }
            return ResolvedAmount(
                amount: a, hasDecimals: !frac.isEmpty || num.wholeDash, fractionDigits: frac.count,
                ambiguous: ambiguous, repaired: repaired, hasSeparator: true)
        }
        if num.wholeDash {
            // `1.234,-`: the separator before the dash was the decimal one, the rest group
            guard validGrouping(groups) else { return nil }
            return make(intCount: groups.count)
        }
        if dc.isEmpty {
            // only ' or space separators: all grouping
            guard validGrouping(groups) else { return nil }
            return make(intCount: groups.count)
        }
        let last = dc.last
        if dc.bothKinds {
            // `1.234,56`, `1,234.56`, `1,00,000.00`: the last one is decimal
            guard last == seps.count - 1 else { return nil }
            let decKind = seps[last]
            guard !seps[..<last].contains(decKind), validGrouping(groups, first: last + 1) else { return nil }
            return make(intCount: last + 1, frac: groups[last + 1])
        }
        if dc.count >= 2 {
            // one kind, repeated: grouping (`1.234.567`) ...
            if validGrouping(groups) {
                return make(intCount: groups.count)
            }
            // ... or a decimal separator read as the grouping one (`1.234.56`)
            if last == seps.count - 1, groups[last + 1].count <= 2, validGrouping(groups, first: last + 1) {
                return make(intCount: last + 1, frac: groups[last + 1], repaired: true)
            }
            return nil
        }
        // exactly one `.` or `,`
        guard last == seps.count - 1 else { return nil }
        let frac = groups[last + 1]
        if last > 0 {
            // `1'234.50`, `1 234,56`: the others group, this one is decimal
            guard validGrouping(groups, first: last + 1) else { return nil }
            return make(intCount: last + 1, frac: frac)
        }
        if frac.count != 3 {
            return make(intCount: 1, frac: frac)
        }
        if groups[0].count == 1 && groups[0].first == 0x30 || groups[0].count > 3 {
            return make(intCount: 1, frac: frac)
        }
        switch minorUnits {
        case 0?: return make(intCount: groups.count)
        case let m? where m >= 3: return make(intCount: 1, frac: frac)
        default:
            guard var r = make(intCount: groups.count) else { return nil }
            r.ambiguous = true
            return r
        }
    }
}

/// The `.` and `,` among a number's separators, counted in one pass.
struct DecimalSeparators {
    private(set) var count = 0
    /// Index in the separators of the last one (when `count > 0`).
    private(set) var last = 0
    /// Both `.` and `,` occur.
    private(set) var bothKinds = false

    init(_ seps: Separators) {
        var first: UInt8? = nil
        for (i, c) in seps.enumerated() where c == 0x2E || c == 0x2C {
            count += 1
            last = i
            if let f = first, f != c { bothKinds = true }
            first = first ?? c
        }
    }

    var isEmpty: Bool { count == 0 }
}

/// One run of digits of a number, kept as its value: a plain value (no array), so that copying
/// numbers and their groups costs no reference counting.
struct DigitGroup {
    /// The value of the first `packedDigits` digits (leading zeros are in `count`).
    private(set) var value: UInt64 = 0
    /// The value of the digits after those, up to `packedDigits` more. Longer runs keep only
    /// their count and first digit: the resolver refuses numbers of more than 30 digits
    /// before it reads any digit.
    private var tail: UInt64 = 0
    /// `count` and `first` in 32 and 8 bits (0: none): 24 bytes a group instead of 32, so that a
    /// line's numbers fit on the stack (`Scan.withScan`).
    private var storedCount: UInt32 = 0
    private var storedFirst: UInt8 = 0

    /// Digits in the run.
    var count: Int { Int(storedCount) }
    /// The first digit (ASCII).
    var first: UInt8? { storedFirst == 0 ? nil : storedFirst }

    static let packedDigits = 19  // 10^19 - 1 < 2^64

    init() {}
    init(_ digits: [UInt8]) {
        for d in digits { append(d) }
    }

    var isEmpty: Bool { count == 0 }
    var isAllZeros: Bool { value == 0 && tail == 0 }

    /// The digits, ASCII (exact up to `2 * packedDigits` digits).
    var digits: [UInt8] {
        let head = min(count, Self.packedDigits)
        return Self.ascii(value, width: head) + Self.ascii(tail, width: min(count, 2 * Self.packedDigits) - head)
    }

    private static func ascii(_ value: UInt64, width: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0x30, count: width)
        var v = value, i = width
        while v > 0 {
            i -= 1
            out[i] = UInt8(v % 10) + 0x30
            v /= 10
        }
        return out
    }

    /// Appends an ASCII digit.
    mutating func append(_ d: UInt8) {
        if count == 0 { storedFirst = d }
        if count < Self.packedDigits {
            value = value &* 10 &+ UInt64(d - 0x30)
        } else if count < 2 * Self.packedDigits {
            tail = tail &* 10 &+ UInt64(d - 0x30)
        }
        storedCount += 1
    }

    /// 10^n, wrapping above `packedDigits` as the product of n tens would (a switch: LLVM makes it
    /// a table in constant memory, read without a global's one-time initialisation check).
    @inline(__always) static func powerOfTen(_ n: Int) -> UInt64 {
        switch n {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        case 19: 10_000_000_000_000_000_000
        default: (19..<n).reduce(10_000_000_000_000_000_000) { p, _ in p &* 10 }
        }
    }
}
