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
    static func validGrouping(_ groups: ArraySlice<[UInt8]>) -> Bool {
        guard let first = groups.first, !first.isEmpty else { return false }
        if groups.count == 1 { return true }
        let rest = groups.dropFirst()
        if first.count <= 3, rest.allSatisfy({ $0.count == 3 }) { return true }
        if first.count <= 2, rest.last?.count == 3, rest.dropLast().allSatisfy({ $0.count == 2 }) { return true }
        return false
    }

    /// Builds an exact Decimal from digit strings (never through Double).
    static func decimal(int: [UInt8], frac: [UInt8]) -> Decimal? {
        let total = int.count + frac.count
        if total == 0 { return nil }
        if total <= 19 {
            var m: UInt64 = 0
            for d in int { m = m &* 10 &+ UInt64(d - 0x30) }
            for d in frac { m = m &* 10 &+ UInt64(d - 0x30) }
            return Decimal(sign: .plus, exponent: -frac.count, significand: Decimal(m))
        }
        var str = String(decoding: int.isEmpty ? [0x30] : int, as: UTF8.self)
        if !frac.isEmpty { str += "." + String(decoding: frac, as: UTF8.self) }
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
            guard groups.count == 1, groups[0].count <= 3, let a = decimal(int: [], frac: groups[0]) else { return nil }
            return ResolvedAmount(amount: a, hasDecimals: true, fractionDigits: groups[0].count, ambiguous: false,
                                  repaired: false, hasSeparator: true)
        }
        let seps = num.seps
        if seps.isEmpty {
            guard let a = decimal(int: groups[0], frac: []) else { return nil }
            return ResolvedAmount(amount: a, hasDecimals: num.wholeDash, fractionDigits: 0, ambiguous: false,
                                  repaired: false, hasSeparator: num.wholeDash)
        }
        // dates: 12.03.2020, 12.03.20, 1.1.24
        if seps.count == 2, seps[0] == seps[1], seps[0] == 0x2E || seps[0] == 0x2C,
            groups[0].count <= 2, groups[1].count <= 2, groups[2].count == 2 || groups[2].count == 4
        {
            return nil
        }
        let dc = seps.indices.filter { seps[$0] == 0x2E || seps[$0] == 0x2C }
        func whole(_ gs: ArraySlice<[UInt8]>) -> [UInt8] { gs.flatMap { $0 } }
        func make(intGroups: ArraySlice<[UInt8]>, frac: [UInt8], ambiguous: Bool = false, repaired: Bool = false)
            -> ResolvedAmount?
        {
            // Up to 3 decimals, more for currencies that have them (CLF 4, BTC 8), and up to 8
            // after a zero (`0,1234 €/kWh`, `0.0045 BTC`): `12.3456 €` is no price.
            let int = whole(intGroups)
            guard frac.count <= max(3, minorUnits ?? 0) || (frac.count <= 8 && int.allSatisfy { $0 == 0x30 }),
                let a = decimal(int: int, frac: frac)
            else { return nil }
            return ResolvedAmount(amount: a, hasDecimals: !frac.isEmpty || num.wholeDash, fractionDigits: frac.count,
                                  ambiguous: ambiguous, repaired: repaired, hasSeparator: true)
        }
        if num.wholeDash {
            // `1.234,-`: the separator before the dash was the decimal one, the rest group
            guard validGrouping(groups[...]) else { return nil }
            return make(intGroups: groups[...], frac: [])
        }
        if dc.isEmpty {
            // only ' or space separators: all grouping
            guard validGrouping(groups[...]) else { return nil }
            return make(intGroups: groups[...], frac: [])
        }
        let last = dc[dc.count - 1]
        let kinds = Set(dc.map { seps[$0] })
        if kinds.count == 2 {
            // `1.234,56`, `1,234.56`, `1,00,000.00`: the last one is decimal
            guard last == seps.count - 1 else { return nil }
            let decKind = seps[last]
            guard !seps[..<last].contains(decKind), validGrouping(groups[...last]) else { return nil }
            return make(intGroups: groups[...last], frac: groups[last + 1])
        }
        if dc.count >= 2 {
            // one kind, repeated: grouping (`1.234.567`) ...
            if validGrouping(groups[...]) {
                return make(intGroups: groups[...], frac: [])
            }
            // ... or a decimal separator read as the grouping one (`1.234.56`)
            if last == seps.count - 1, groups[last + 1].count <= 2, validGrouping(groups[...last]) {
                return make(intGroups: groups[...last], frac: groups[last + 1], repaired: true)
            }
            return nil
        }
        // exactly one `.` or `,`
        guard last == seps.count - 1 else { return nil }
        let frac = groups[last + 1]
        if last > 0 {
            // `1'234.50`, `1 234,56`: the others group, this one is decimal
            guard validGrouping(groups[...last]) else { return nil }
            return make(intGroups: groups[...last], frac: frac)
        }
        if frac.count != 3 {
            return make(intGroups: groups[...0], frac: frac)
        }
        if groups[0] == [0x30] || groups[0].count > 3 {
            return make(intGroups: groups[...0], frac: frac)
        }
        switch minorUnits {
        case 0?: return make(intGroups: groups[...], frac: [])
        case let m? where m >= 3: return make(intGroups: groups[...0], frac: frac)
        default:
            guard var r = make(intGroups: groups[...], frac: []) else { return nil }
            r.ambiguous = true
            return r
        }
    }
}
