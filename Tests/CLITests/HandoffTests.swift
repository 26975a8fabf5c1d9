import Foundation
import Testing

/// Tesseract's PNG handoff to its LSTM is written uncompressed (Sources/CTesseractHandoff):
/// the pricecam binary must really use it, and read exactly what Leptonica's default gives.
@Suite("Tesseract image handoff")
struct HandoffTests {
    static let marker = "tesseract image handoffs written uncompressed: "

    /// The count pricecam reports at exit with PRICECAM_DEBUG.
    static func handoffs(_ stderr: String) -> Int? {
        count(marker, in: stderr)
    }

    /// The number after the last debug-log line that starts with `marker`.
    static func count(_ marker: String, in stderr: String) -> Int? {
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

/// Tesseract's universal ambigs table is not loaded (Sources/CTesseractHandoff/ambigs.c): the
/// binary must really skip it, and read exactly what it reads with the table loaded (only
/// Tesseract's legacy engine uses it).
@Suite("Tesseract universal ambigs")
struct UniversalAmbigsTests {
    static let marker = "tesseract engine loads without the universal ambigs: "

    @Test func tableIsSkippedAndReadingsAreTheSame() throws {
        // Yen prices (eng, jpn and the price model load) on tags and frames, and a receipt
        // family read as pages.
        for (family, currency) in [("clean", "JPY"), ("blur", nil)] {
            var args = ["batch", "\(CLI.fixtures)/\(family)", "--format", "jsonl", "--jobs", "1"]
            args += currency.map { ["--currency", $0, "--rate", "1", "--no-history"] } ?? ["--no-convert"]
            let skipped = try CLI.run(args, environment: ["PRICECAM_DEBUG": "1"])
            let loaded = try CLI.run(args, environment: ["PRICECAM_DEBUG": "1", "PRICECAM_UNIVERSAL_AMBIGS": "load"])
            #expect(skipped.status == 0 && loaded.status == 0, "stderr: \(skipped.stderr.suffix(400)) \(loaded.stderr.suffix(400))")
            #expect(
                (HandoffTests.count(Self.marker, in: skipped.stderr) ?? 0) > 0,
                "the executable does not take Tesseract's LoadUniversal (is it exported?)")
            #expect(!skipped.jsonLines.isEmpty)
            #expect(HandoffTests.prices(skipped) == HandoffTests.prices(loaded), "\(family): skipping the table changed what was read")
        }
    }
}

/// The process keeps freed heap for the next image (Sources/CTesseractHandoff/process_memory.c,
/// called first thing in main.swift): the binary must really apply it.
@Suite("Malloc policy")
struct MallocPolicyTests {
    @Test func thePolicyIsApplied() throws {
        let r = try CLI.run(["parse", "12,50 €"], environment: ["PRICECAM_DEBUG": "1"])
        #expect(r.status == 0)
        #expect(HandoffTests.count("malloc policy applied (freed heap kept for the next image): ", in: r.stderr) == 1, "\(r.stderr)")
    }
}

/// The last images of a batch are read on every core (`ReadingHelp`): an idle worker reads
/// some of a busy one's regions, and what is read is what one worker alone reads.
@Suite("Batch reading help")
struct BatchReadingHelpTests {
    static let marker = "region readings shared with idle workers: "

    @Test func idleWorkersHelpAndReadTheSame() throws {
        // Scenes only (read region by region, no time budget): a small tag and a camera frame
        // of many more regions on two workers, so the tag's worker is idle while the frame is read.
        let names = ["tag_0001.png", "frame_0005.png"]
        let list = names.map { "\(CLI.fixtures)/clean/\($0)" }.joined(separator: "\n") + "\n"
        let base = ["batch", "--files-from", "-", "--format", "jsonl", "--no-convert"]
        let one = try CLI.run(base + ["--jobs", "1"], stdin: list, environment: ["PRICECAM_DEBUG": "1"])
        let two = try CLI.run(base + ["--jobs", "2"], stdin: list, environment: ["PRICECAM_DEBUG": "1"])
        #expect(one.status == 0 && two.status == 0, "stderr: \(one.stderr.suffix(400)) \(two.stderr.suffix(400))")
        let shared = { (r: CLI.Result) in HandoffTests.count(Self.marker, in: r.stderr) }
        #expect(shared(one) == 0)
        #expect((shared(two) ?? 0) > 0, "no region reading was shared with the idle worker")
        #expect(one.jsonLines.count == names.count)
        #expect(HandoffTests.prices(one) == HandoffTests.prices(two), "a shared reading changed what was read")
    }
}
