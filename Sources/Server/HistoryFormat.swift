import Conversion
public import Foundation
public import History
import Pipeline
import PriceParsing

/// Row formats for history list/export/stats.
public enum HistoryFormat {
    public enum Export: Sendable { case csv, jsonl }

    public static func exportFormat(_ file: String) -> Export? {
        switch (file as NSString).pathExtension.lowercased() {
        case "csv": return .csv
        case "jsonl", "ndjson", "json": return .jsonl
        default: return nil
        }
    }

    public static func parseSince(_ text: String, now: Date = Date()) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let unit = t.last, let n = Int(t.dropLast()), n >= 0, ["d", "h", "m"].contains(unit) {
            let seconds: Double = unit == "d" ? 86_400 : unit == "h" ? 3_600 : 60
            return now.addingTimeInterval(-Double(n) * seconds)
        }
        if let d = SettingsFile.parseDate(t) { return d }
        // A bare date: midnight UTC.
        return try? Date(t + "T00:00:00Z", strategy: .iso8601)
    }

    public static func converted(_ e: HistoryEntry) -> String { Money.plain(e.converted, minorUnits: MinorUnits.of(e.home)) }

    public static func jsonLine(_ e: HistoryEntry) -> String {
        JSON.object([
            ("time", .string(SettingsFile.formatDate(e.time))),
            ("source", .string(e.source)),
            ("text", .string(e.rawText)),
            ("amount", .string(Money.exact(e.amount))),
            ("currency", .optional(e.currency)),
            ("rate", .string(Money.exact(e.rate))),
            ("converted", .string(converted(e))),
            ("target", .optional(e.home)),
            ("confidence", .fixed(e.confidence, 2)),
            ("box", e.box.map { .array($0.map(JSON.int)) } ?? .null),
            ("run", .string(e.runID)),
        ]).serialized()
    }

    public static let csvHeader = "time,source,text,amount,currency,rate,converted,target,confidence,box,run"

    public static func csvLine(_ e: HistoryEntry) -> String {
        [
            SettingsFile.formatDate(e.time), e.source, e.rawText, Money.exact(e.amount), e.currency ?? "", Money.exact(e.rate),
            converted(e), e.home ?? "", String(format: "%.2f", e.confidence),
            e.box.map { $0.map(String.init).joined(separator: " ") } ?? "",
            e.runID,
        ].map(CSV.quote).joined(separator: ",")
    }

    public static func table(_ rows: [HistoryEntry]) -> String {
        if rows.isEmpty { return "(no history)\n" }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.dateFormat = "yyyy-MM-dd HH:mm:ss"  // local time
        var lines = [["time", "source", "text", "amount", "rate", "converted"]]
        for e in rows {
            lines.append([
                local.string(from: e.time), e.source, e.rawText,
                Money.grouped(e.amount, minorUnits: max(MinorUnits.of(e.currency), Money.fractionDigits(e.amount))) + " "
                    + (e.currency ?? "?"),
                Money.exact(e.rate),
                Money.grouped(e.converted, minorUnits: MinorUnits.of(e.home)) + " " + (e.home ?? ""),
            ])
        }
        return render(lines, rightAligned: [3, 4, 5])
    }

    public static func render(_ lines: [[String]], rightAligned: Set<Int>) -> String {
        let widths = (0..<lines[0].count).map { c in lines.map { $0[c].count }.max() ?? 0 }
        return lines.map { row in
            row.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return rightAligned.contains(c) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }

    public static func statsJSON(_ s: HistoryStats) -> String {
        JSON.object([
            ("count", .int(s.count)), ("runs", .int(s.runs)),
            ("first", .optional(s.first.map(SettingsFile.formatDate))), ("last", .optional(s.last.map(SettingsFile.formatDate))),
            (
                "by_currency",
                .array(
                    s.byCurrency.map { g in
                        .object([
                            ("currency", .string(g.currency)), ("target", .string(g.home)), ("count", .int(g.count)),
                            ("amount", .string(Money.exact(g.amountSum))),
                            ("converted", .string(Money.plain(g.convertedSum, minorUnits: MinorUnits.of(g.home)))),
                        ])
                    })
            ),
        ]).serialized()
    }

    public static func statsTable(_ s: HistoryStats) -> String {
        var out = "\(s.count) converted price(s) in \(s.runs) run(s)"
        if let first = s.first, let last = s.last {
            out += ", \(SettingsFile.formatDate(first)) to \(SettingsFile.formatDate(last))"
        }
        out += "\n"
        guard !s.byCurrency.isEmpty else { return out }
        var lines = [["currency", "count", "sum", "converted"]]
        for g in s.byCurrency {
            lines.append([
                g.currency, String(g.count),
                Money.grouped(g.amountSum, minorUnits: max(MinorUnits.of(g.currency), Money.fractionDigits(g.amountSum))),
                Money.grouped(g.convertedSum, minorUnits: MinorUnits.of(g.home)) + " " + g.home,
            ])
        }
        return out + render(lines, rightAligned: [1, 2, 3])
    }
}
