import Foundation
import Testing

/// `batch --shard/--files-from/--output` and `merge`: the parts of a sharded run
/// are disjoint, cover the input, and merge into what one unsharded batch writes.
@Suite struct ShardCLITests {
    /// Records without their timing (the only field that differs between runs).
    static func records(_ text: String) -> [NSDictionary] {
        text.split(separator: "\n").compactMap { line in
            guard var object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            object["ms"] = nil
            return object as NSDictionary
        }
    }

    @Test func threeShardsMergeIntoTheUnshardedBatch() throws {
        let dir = try CLI.tempDir()
        let folder = "\(CLI.fixtures)/clean"
        let whole = try CLI.run(["batch", folder, "--no-convert", "--format", "jsonl", "--no-progress", "--jobs", "2"])
        #expect(whole.status == 0, "\(whole.stderr)")
        var files: [String] = []
        var counts: [Int] = []
        for i in 0..<3 {
            let out = "\(dir)/part-\(i).jsonl"
            let r = try CLI.run(["batch", folder, "--shard", "\(i)/3", "--no-convert", "--output", out, "--no-progress", "--jobs", "2"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.isEmpty)  // results go to the file
            files.append(out)
            counts.append(Self.records(try String(contentsOfFile: out, encoding: .utf8)).count)
        }
        let wholeRecords = Self.records(whole.stdout)
        #expect(counts.reduce(0, +) == wholeRecords.count)
        #expect(counts.allSatisfy { $0 > 0 }, "a part is empty: \(counts)")
        let merged = try CLI.run(["merge"] + files)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(Self.records(merged.stdout) == wholeRecords)
        #expect(merged.stderr.contains("\(wholeRecords.count) image(s)"))
        // A part given twice: the shards overlap.
        let twice = try CLI.run(["merge", files[0], files[0]])
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("overlap"))
    }

    @Test func csvPartsMergeWithOneHeader() throws {
        let dir = try CLI.tempDir()
        let folder = "\(CLI.fixtures)/clean"
        let whole = try CLI.run(["batch", folder, "--no-convert", "--format", "csv", "--no-progress"])
        let header = "file,text,amount,currency,confidence,x,y,width,height,converted,target,rate,role,error"
        #expect(whole.stdout.split(separator: "\n").first == Substring(header))
        for i in 0..<2 {
            let r = try CLI.run(["batch", folder, "--shard", "\(i)/2", "--no-convert", "--output", "\(dir)/p\(i).csv", "--no-progress"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let merged = try CLI.run(["merge", "\(dir)/p0.csv", "\(dir)/p1.csv", "--output", "\(dir)/all.csv"])
        #expect(merged.status == 0, "\(merged.stderr)")
        let text = try String(contentsOfFile: "\(dir)/all.csv", encoding: .utf8)
        func rows(_ t: String) -> [String] { t.split(separator: "\n").map { $0.split(separator: ",").prefix(4).joined(separator: ",") } }
        #expect(rows(text) == rows(whole.stdout))
        #expect(text.components(separatedBy: header).count == 2)  // the header once
    }

    @Test func filesFromStdinAndShardsByListedPath() throws {
        let folder = "\(CLI.fixtures)/clean"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted().prefix(6)
        let list = names.map { "\(folder)/\($0)" }.joined(separator: "\n") + "\n# a comment\n\n"
        var seen: [String] = []
        for i in 0..<2 {
            let r = try CLI.run(["batch", "--files-from", "-", "--shard", "\(i)/2", "--no-convert", "--format", "jsonl"], stdin: list)
            #expect(r.status == 0, "\(r.stderr)")
            seen += r.jsonLines.compactMap { $0["file"] as? String }
        }
        #expect(seen.sorted() == names.map { "\(folder)/\($0)" }.sorted())
    }

    @Test("bad --shard values: usage error (exit 2)", arguments: ["3/3", "-1/3", "0/0", "1", "a/b", "1/2/3", ""])
    func badShard(value: String) throws {
        let r = try CLI.run(["batch", "\(CLI.fixtures)/clean", "--shard", value, "--no-convert"])
        #expect(r.status == 2, "\(value): \(r.stderr)")
        #expect(r.stderr.contains("--shard"))
    }

    @Test func folderAndListAreExclusive() throws {
        let r = try CLI.run(["batch", "\(CLI.fixtures)/clean", "--files-from", "-", "--no-convert"], stdin: "")
        #expect(r.status == 2)
        let none = try CLI.run(["batch", "--no-convert"])
        #expect(none.status == 2)
    }

    @Test func outputAppearsOnlyWhenComplete() throws {
        let dir = try CLI.tempDir()
        let out = "\(dir)/prices.jsonl"
        // Killed while reading: no file under the final name.
        let run = try RunningCLI(
            ["batch", "\(CLI.fixtures)", "--no-convert", "--output", out, "--no-progress", "--jobs", "1"], home: try CLI.tempDir())
        usleep(1_500_000)
        run.send(SIGKILL)
        _ = run.wait(seconds: 10)
        #expect(!FileManager.default.fileExists(atPath: out))
        let partial = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(partial.allSatisfy { $0.hasPrefix(".prices.jsonl.partial-") }, "\(partial)")
        // An unwritable place: a clear error, exit 2.
        let bad = try CLI.run(["batch", "\(CLI.fixtures)/clean", "--no-convert", "--output", "/nonexistent/dir/p.jsonl"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("/nonexistent/dir/p.jsonl"))
    }
}
