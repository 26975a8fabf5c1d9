import Foundation

/// What a user may type for the shop's currency: an ISO 4217 code (`eur`), a symbol (`€`,
/// `$`, `¥`) or a marker word (`zł`, `Kč`, `руб.`), read with the parser's own marker tables.
public enum CurrencyHint {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Nothing the parser knows.
        case unknown(String)
        /// A symbol several currencies print, with no usual reading (`kr`).
        case shared(String, [String])

        public var description: String {
            switch self {
            case .unknown(let s):
                return "unknown currency '\(s)': give an ISO 4217 code (EUR, JPY), a symbol (€, $, ¥, ₽) "
                    + "or a marker word (zł, Kč, Ft, руб.)"
            case .shared(let s, let codes):
                return "'\(s)' is printed by several currencies (\(codes.joined(separator: ", "))): give one of those codes"
            }
        }
    }

    /// The ISO code (or BTC/ETH) `text` names; `$` is USD, `¥` JPY, as in the parser.
    public static func code(for text: String) -> Result<String, Failure> {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.unicodeScalars.count == 3, Currencies.isKnown(t) { return .success(t.uppercased()) }
        let scalars = Array(t.unicodeScalars)
        var kind: MarkerKind? = Markers.lookup(t) ?? (t.hasSuffix(".") ? Markers.lookup(String(t.dropLast())) : nil)
        if kind == nil, scalars.count == 1 { kind = Markers.symbols[scalars[0].value] ?? Markers.cjk[scalars[0].value] }
        guard let kind else { return .failure(.unknown(text)) }
        if let code = kind.resolve(hint: nil) { return .success(code) }
        if case .shared(_, let members) = kind { return .failure(.shared(text, members)) }
        return .failure(.unknown(text))
    }
}
