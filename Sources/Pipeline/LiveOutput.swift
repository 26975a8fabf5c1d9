import Capture
import Conversion
import Foundation
import PriceParsing

/// Writes what the live runner reports: `{"event":...}` lines or table rows on
/// stdout, a live view redrawn in place on stderr when it is a terminal, and
/// a stats summary on stderr at the end.
public final class LiveOutput: LiveReporter {
    public enum Mode: Sendable { case jsonl, table }

    public let mode: Mode
    /// `("device", "/dev/video0")` or `("source", "replay/")`, added to every event.
    public let origin: (key: String, value: String)
    public let liveView: Bool
    public let periodicStats: Bool
    private let onAppear: (LivePrice) -> Void
    private let write: (String) -> Void
    private let writeErr: (String) -> Void
    private var drawnLines = 0
    private var lastDraw: UInt64 = 0
    private var lastStats: LiveStats?
    private var header: String

    public init(
        mode: Mode, origin: (key: String, value: String), header: String, liveView: Bool, periodicStats: Bool,
        onAppear: @escaping (LivePrice) -> Void = { _ in },
        write: @escaping (String) -> Void = { StandardOutput.out($0) },
        writeErr: @escaping (String) -> Void = { StandardOutput.err($0) }
    ) {
        self.mode = mode
        self.origin = origin
        self.header = header
        self.liveView = liveView
        self.periodicStats = periodicStats
        self.onAppear = onAppear
        self.write = write
        self.writeErr = writeErr
    }

    public func appeared(_ price: LivePrice) {
        onAppear(price)
        switch mode {
        case .jsonl:
            write(Self.priceEvent(price, origin: origin).serialized() + "\n")
        case .table where !liveView:
            write(Self.row(price))
        case .table:
            break
        }
    }

    public func disappeared(_ price: LivePrice) {
        if mode == .jsonl {
            let m = price.priced.match
            write(
                JSON.object([
                    ("event", .string("gone")), ("text", .string(m.text)),
                    ("amount", .string(ContractMoney.amount(m.amount, currency: m.currency))),
                    ("currency", .optional(m.currency)), ("frame", .number(String(price.frame))),
                    (origin.key, .string(origin.value)),
                ]).serialized() + "\n")
        }
    }

    public func updated(visible: [LivePrice], stats: LiveStats) {
        guard liveView else { return }
        let now = Monotonic.now()
        guard now - lastDraw >= 100_000_000 else { return }
        lastDraw = now
        draw(visible: visible, stats: stats)
    }

    public func stats(_ stats: LiveStats) {
        lastStats = stats
        if stats.final {
            if liveView { clear() }
            if mode == .jsonl { write(stats.json.serialized() + "\n") }
            writeErr("pricecam live: " + stats.text)
        } else if periodicStats {
            if mode == .jsonl { write(stats.json.serialized() + "\n") }
            if !liveView { writeErr("pricecam live: " + stats.text) }
        }
    }

    /// The contract's price object plus the live fields.
    public static func priceEvent(_ p: LivePrice, origin: (key: String, value: String)) -> JSON {
        .object(
            [("event", .string("price"))] + PriceJSON.fields(p.priced) + [
                ("frame", .number(String(p.frame))),
                (origin.key, .string(origin.value)),
                ("latency_ms", .fixed(p.latencyMs, 1)),
            ])
    }

    static func row(_ p: LivePrice) -> String {
        let m = p.priced.match
        let amount = ContractMoney.amount(m.amount, currency: m.currency) + " " + (m.currency ?? "?")
        let converted =
            p.priced.conversion.map {
                "→ " + Money.grouped($0.value, minorUnits: Currencies.minorUnits($0.target ?? "")) + ($0.target.map { " \($0)" } ?? "")
            } ?? ""
        return m.text.padding(toLength: max(18, m.text.count), withPad: " ", startingAt: 0) + "  "
            + amount.padding(toLength: max(16, amount.count), withPad: " ", startingAt: 0) + "  " + converted + "\n"
    }

    private func draw(visible: [LivePrice], stats: LiveStats) {
        var text = ""
        if drawnLines > 0 { text += "\u{1B}[\(drawnLines)F" }
        text += "\u{1B}[J"
        var lines = [
            header,
            String(
                format: "%llu frames, %llu read, %llu dropped · latency p50 %.0f ms, p99 %.0f ms · OCR p50 %.0f ms",
                stats.captured, stats.processed, stats.dropped, stats.latency.p50, stats.latency.p99, stats.ocr.p50),
        ]
        lines += visible.isEmpty ? ["  (no price in view)"] : visible.map { "  " + Self.row($0).dropLast() }
        text += lines.joined(separator: "\n") + "\n"
        drawnLines = lines.count
        writeErr(text)
    }

    private func clear() {
        if drawnLines > 0 { writeErr("\u{1B}[\(drawnLines)F\u{1B}[J") }
        drawnLines = 0
    }
}
