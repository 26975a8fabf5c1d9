import Foundation
import Testing

/// Tesseract's PNG handoff to its LSTM is written uncompressed (Sources/CTesseractHandoff):
/// the pricecam binary must really use it, and read exactly what Leptonica's default gives.
@Suite("Tesseract image handoff")
struct HandoffTests {
    static let marker = "tesseract image handoffs written uncompressed: "

    /// The count pricecam reports at exit with PRICECAM_DEBUG.
    static func handoffs(_ stderr: String) -> Int? {
        stderr.split(separator: "\n").last { $0.hasPrefix(marker) }.flatMap { Int($0.dropFirst(marker.count)) }
    }

    /// Prices without the timing field, in a stable order.
    static func prices(_ r: CLI.Result) -> [String] {
        r.jsonLines.map { object in
            var o = object
            o["ms"] = nil
            let data = (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
        .sorted()
    }

    @Test func fastHandoffIsUsedAndReadsTheSame() throws {
        // A tag family (region by region) and a receipt family (the whole page): both paths.
        for family in ["clean", "blur"] {
            let args = ["batch", "\(CLI.fixtures)/\(family)", "--format", "jsonl", "--no-convert", "--jobs", "1"]
            // No live budget on files and every family image is under 1 MP: results depend on pixels only.
            let fast = try CLI.run(args, environment: ["PRICECAM_DEBUG": "1"])
            let stock = try CLI.run(args, environment: ["PRICECAM_DEBUG": "1", "PRICECAM_PNG_HANDOFF": "default"])
            #expect(fast.status == 0 && stock.status == 0, "stderr: \(fast.stderr.suffix(400)) \(stock.stderr.suffix(400))")
            let n = try #require(Self.handoffs(fast.stderr), "no handoff count in the debug log")
            #expect(n > 0, "the executable does not take Tesseract's pixWriteMem (is it exported?)")
            #expect(Self.handoffs(stock.stderr) == 0)
            #expect(!fast.jsonLines.isEmpty)
            #expect(Self.prices(fast) == Self.prices(stock), "\(family): uncompressed handoff changed what was read")
        }
    }
}
