import Geometry
import Conversion
public import Foundation
import PriceParsing

/// The output formats of scan, batch and parse.
public enum OutputFormat: String, Sendable, CaseIterable {
    case table, jsonl, csv

    /// Table on a terminal, JSON Lines otherwise.
    public static func `default`(stdoutIsTTY: Bool = isatty(STDOUT_FILENO) == 1) -> OutputFormat {
        stdoutIsTTY ? .table : .jsonl
    }
}

/// Money as the contract writes it: exact, '.' decimal point, no grouping,
/// padded to the currency's minor units when it has fewer decimals.
public enum ContractMoney {
    public static func amount(_ value: Decimal, currency: String?) -> String {
        guard let currency else { return Money.exact(value) }
        let minor = Currencies.minorUnits(currency)
        return Money.fractionDigits(value) <= minor ? Money.plain(value, minorUnits: minor) : Money.exact(value)
    }
}

/// The contract's JSON for one price (shared by scan, batch, parse and live).
public enum PriceJSON {
    public static func fields(_ p: PricedMatch) -> [(String, JSON)] {
        let m = p.match
        return [
            ("text", .string(m.text)),
            ("amount", .string(ContractMoney.amount(m.amount, currency: m.currency))),
            ("currency", .optional(m.currency)),
            ("confidence", .fixed(m.confidence, 2)),
            ("box", m.box.map { .array($0.array.map(JSON.int)) } ?? .null),
            ("converted", p.conversion.map { .string($0.plain) } ?? .null),
            ("target", .optional(p.conversion?.target)),
            ("rate", p.conversion.map { .string(Money.exact($0.rate)) } ?? .null),
            ("marker", .optional(m.marker)),
            ("flags", .array(m.flags.names.map(JSON.string))),
            ("role", .optional(m.role?.rawValue)),
            ("unit", .optional(m.unit)),
        ]
    }

    public static func object(_ p: PricedMatch) -> JSON { .object(fields(p)) }
}

/// Renders image results one at a time, in the chosen format.
public struct ResultFormatter: Sendable {
    public let format: OutputFormat

    public init(format: OutputFormat) {
        self.format = format
    }

    /// Lines written before the first record (CSV header, table header).
    public func header() -> String? {
        switch format {
        case .jsonl: nil
        case .csv: "file,text,amount,currency,confidence,x,y,width,height,converted,target,rate,role,error\n"
        case .table: Table.row(["FILE", "PRICE", "AMOUNT", "CUR", "CONVERTED", "CONF"])
        }
    }

    /// The text for one image (ends with a newline).
    public func render(_ r: ImageResult) -> String {
        switch format {
        case .jsonl: return Self.json(r).serialized() + "\n"
        case .csv: return csv(r)
        case .table: return table(r)
        }
    }

    /// The contract's per-image object (version 1).
    public static func json(_ r: ImageResult) -> JSON {
        .object([
            ("file", .string(r.file)),
            ("width", r.width.map(JSON.int) ?? .null),
            ("height", r.height.map(JSON.int) ?? .null),
            ("ms", .fixed(r.milliseconds, 1)),
            ("prices", .array(r.prices.map(PriceJSON.object))),
            ("error", r.error.map { .object([("code", .string($0.code)), ("message", .string($0.message))]) } ?? .null),
        ])
    }

    private func csv(_ r: ImageResult) -> String {
        if let e = r.error {
            return CSV.row([r.file, "", "", "", "", "", "", "", "", "", "", "", "", e.message])
        }
        if r.prices.isEmpty { return CSV.row([r.file] + Array(repeating: "", count: 13)) }
        return r.prices.map { p in
            let m = p.match
            let box = m.box.map { $0.array.map(String.init) } ?? ["", "", "", ""]
            return CSV.row(
                [
                    r.file, m.text, ContractMoney.amount(m.amount, currency: m.currency), m.currency ?? "",
                    String(format: "%.2f", m.confidence),
                ] + box + [
                    p.conversion?.plain ?? "",
                    p.conversion?.target ?? "",
                    p.conversion.map { Money.exact($0.rate) } ?? "",
                    m.role?.rawValue ?? "", "",
                ])
        }.joined()
    }

    private func table(_ r: ImageResult) -> String {
        if let e = r.error { return Table.row([r.file, "error: \(e.message)"]) }
        if r.prices.isEmpty { return Table.row([r.file, "(no prices)"]) }
        return r.prices.enumerated().map { i, p in
            let m = p.match
            let converted = p.conversion.map { $0.grouped + ($0.target.map { " \($0)" } ?? "") } ?? "-"
            return Table.row([
                i == 0 ? r.file : "", m.text + (m.role.map { " (\($0.label))" } ?? ""),
                ContractMoney.amount(m.amount, currency: m.currency), m.currency ?? "?", converted,
                String(format: "%.2f", m.confidence),
            ])
        }.joined()
    }
}

/// CSV as RFC 4180 writes it: a field holding a comma, quote or line break is quoted, its
/// quotes doubled (scan, batch, parse and history export).
public enum CSV {
    public static func row(_ fields: [String]) -> String {
        fields.map(quote).joined(separator: ",") + "\n"
    }

    public static func quote(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

enum Table {
    static let widths = [32, 18, 12, 4, 18, 5]

    static func row(_ cells: [String]) -> String {
        var out = ""
        for (i, cell) in cells.enumerated() {
            let last = i == cells.count - 1
            let w = i < widths.count ? widths[i] : 0
            out += last ? cell : cell.padding(toLength: max(w, cell.count), withPad: " ", startingAt: 0) + "  "
        }
        return out + "\n"
    }
}
