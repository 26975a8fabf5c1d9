import Foundation
import Testing

/// Bad inputs through the real binary: each gets an error record naming the
/// file and a stderr message; the batch goes on; exit code 1 at the end.
@Suite("Bad input", .serialized)
struct BadInputTests {
    /// A folder holding one good fixture and every kind of bad input.
    static func badFolder() throws -> (dir: String, good: String) {
        let dir = try CLI.tempDir()
        let clean = "\(CLI.fixtures)/clean"
        let goodName = try #require(try FileManager.default.contentsOfDirectory(atPath: clean).sorted().first { $0.hasSuffix(".png") })
        try FileManager.default.copyItem(atPath: "\(clean)/\(goodName)", toPath: "\(dir)/m_good.png")
        #expect(FileManager.default.createFile(atPath: "\(dir)/a_empty.png", contents: Data()))
        #expect(FileManager.default.createFile(atPath: "\(dir)/b_text.png", contents: Data("hello, I am text\n".utf8)))
        let jpegName = try #require(
            FileManager.default.enumerator(atPath: CLI.fixtures)?.allObjects.compactMap { $0 as? String }.first { $0.hasSuffix(".jpg") })
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: "\(CLI.fixtures)/\(jpegName)"))
        #expect(FileManager.default.createFile(atPath: "\(dir)/c_truncated.jpg", contents: jpeg.prefix(jpeg.count / 3)))
        #expect(FileManager.default.createFile(atPath: "\(dir)/d_bomb.png", contents: Data(pngHeader(width: 60_000, height: 60_000))))
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/e_loop.png", withDestinationPath: "\(dir)/e_loop.png")
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/f_dangling.png", withDestinationPath: "\(dir)/nowhere.png")
        return (dir, "m_good.png")
    }

    /// A well-formed PNG whose header claims a huge image but whose data holds
    /// one row (a decompression bomb's shape): the pixel limit must refuse it
    /// from the header alone, before decoding.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
            }
            return ~crc
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be(UInt32(data.count)) + body + be(crc32(body))
        }
        // One filter byte + one row of zeros, as a stored (uncompressed) zlib block.
        let row = [UInt8](repeating: 0, count: Int(width) + 1)
        let len = UInt16(row.count)
        let adler: UInt32 = (UInt32(row.count % 65521) << 16) | 1
        let zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(len & 0xFF), UInt8(len >> 8), UInt8(~len & 0xFF), UInt8(~len >> 8)] + row + be(adler)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be(width) + be(height) + [8, 0, 0, 0, 0])
            + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    @Test("batch: every bad file gets its own error record, the good one is still read")
    func batchGoesOn() throws {
        let (dir, good) = try Self.badFolder()
        let r = try CLI.run(["batch", dir, "--format", "jsonl", "--no-convert", "--jobs", "2"])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        let records = r.jsonLines
        let byName = Dictionary(
            uniqueKeysWithValues: records.map { (($0["file"] as? String).map { ($0 as NSString).lastPathComponent } ?? "", $0) })
        let expected: [String: String] = [
            "a_empty.png": "empty_file", "b_text.png": "unreadable_image", "c_truncated.jpg": "unreadable_image",
            "d_bomb.png": "image_too_large", "e_loop.png": "symlink_loop", "f_dangling.png": "not_found",
        ]
        for (name, code) in expected {
            let record = try #require(byName[name], "no record for \(name): \(r.stdout)")
            let error = try #require(record["error"] as? [String: Any], "\(name) has no error")
            #expect(error["code"] as? String == code, "\(name): \(error)")
            #expect((record["prices"] as? [Any])?.isEmpty == true)
            #expect(r.stderr.contains(name), "stderr does not name \(name)")
        }
        let goodRecord = try #require(byName[good])
        #expect(goodRecord["error"] is NSNull)
        #expect(!((goodRecord["prices"] as? [Any]) ?? []).isEmpty)
        // Input order is path order.
        let names = records.compactMap { ($0["file"] as? String).map { ($0 as NSString).lastPathComponent } }
        #expect(names == names.sorted())
    }

    @Test("scan: a missing path and a directory are error records; exit 1")
    func scanMissing() throws {
        let dir = try CLI.tempDir()
        let r = try CLI.run(["scan", "\(dir)/missing.png", dir, "--format", "jsonl", "--no-convert"])
        #expect(r.status == 1)
        let codes = r.jsonLines.compactMap { ($0["error"] as? [String: Any])?["code"] as? String }
        #expect(codes == ["not_found", "is_directory"])
        #expect(r.stderr.contains("\(dir)/missing.png"))
    }

    @Test("a file and a folder without read permission (run unprivileged)")
    func permissions() throws {
        let dir = try CLI.tempDir()
        let clean = "\(CLI.fixtures)/clean"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: clean).sorted().first { $0.hasSuffix(".png") })
        try FileManager.default.copyItem(atPath: "\(clean)/\(name)", toPath: "\(dir)/a_secret.png")
        try FileManager.default.copyItem(atPath: "\(clean)/\(name)", toPath: "\(dir)/b_open.png")
        try FileManager.default.createDirectory(atPath: "\(dir)/c_locked", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(clean)/\(name)", toPath: "\(dir)/c_locked/x.png")
        chmod("\(dir)/a_secret.png", 0o200)
        chmod("\(dir)/b_open.png", 0o644)
        chmod("\(dir)/c_locked", 0o300)
        let home = try CLI.tempDir()
        chmod(home, 0o777)
        let r = try CLI.run(["batch", dir, "--format", "jsonl", "--no-convert", "--no-history"], home: home, asNobody: true)
        #expect(r.status == 1, "stderr: \(r.stderr)")
        let codes = r.jsonLines.map { (($0["file"] as? String) ?? "", (($0["error"] as? [String: Any])?["code"] as? String) ?? "ok") }
        #expect(codes.contains { $0.0.hasSuffix("a_secret.png") && $0.1 == "permission_denied" }, "\(codes)")
        #expect(codes.contains { $0.0.hasSuffix("b_open.png") && $0.1 == "ok" }, "\(codes)")
        #expect(codes.contains { $0.0.hasSuffix("c_locked") && $0.1 == "permission_denied" }, "\(codes)")
        #expect(r.stderr.contains("a_secret.png") && r.stderr.contains("c_locked"))
    }

    @Test(
        "usage errors exit 2",
        arguments: [
            ["batch"], ["scan"], ["batch", "/nonexistent-folder-pricecam"], ["scan", "x.png", "--jobs", "0"],
            ["scan", "x.png", "--format", "xml"], ["frobnicate"],
        ])
    func usage(args: [String]) throws {
        let r = try CLI.run(args + ["--no-convert"])
        #expect(r.status == 2, "\(args): status \(r.status) stderr \(r.stderr)")
        #expect(!r.stderr.isEmpty)
    }

    @Test("a bad tessdata folder is a settings error naming what was tried")
    func badTessdata() throws {
        let dir = try CLI.tempDir()
        let r = try CLI.run(["scan", "x.png", "--tessdata", dir, "--no-convert"])
        #expect(r.status == 2)
        #expect(r.stderr.contains(dir) && r.stderr.contains("eng.traineddata"))
    }

    /// Without ONNX Runtime's library (missing, or a file that is not it) no image is read: an
    /// error naming the file and the installer, before any image.
    @Test("a missing or broken ONNX Runtime library is an error naming it and its installer")
    func missingRuntime() throws {
        let dir = try CLI.tempDir()
        try FileManager.default.copyItem(atPath: "\(CLI.fixtures)/clean/frame_0001.png", toPath: "\(dir)/tag.png")
        let notALibrary = "\(dir)/libonnxruntime.so.1.31.1"
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: notALibrary))
        for library in ["\(dir)/absent/libonnxruntime.so.1.31.1", notALibrary] {
            let r = try CLI.run(["scan", "\(dir)/tag.png", "--no-convert"], environment: ["PRICECAM_ONNXRUNTIME": library])
            #expect(r.status == 2, "\(library): status \(r.status) stderr \(r.stderr)")
            #expect(r.stderr.contains(library) && r.stderr.contains("scripts/onnxruntime/install.sh"), "\(r.stderr)")
        }
    }

    /// Without the line recogniser's models a file is not read (a settings error naming the
    /// folder and the installer), while `live`, which never uses them, reads its frames.
    @Test("missing recogniser models stop scan, not live")
    func missingRecognizerModels() throws {
        let empty = try CLI.tempDir()
        let frames = try CLI.tempDir()
        try FileManager.default.copyItem(atPath: "\(CLI.fixtures)/clean/frame_0001.png", toPath: "\(frames)/tag.png")
        let env = ["PRICECAM_RECOGNIZER_MODELS": empty]
        let scan = try CLI.run(["scan", "\(frames)/tag.png", "--no-convert"], environment: env)
        #expect(scan.status == 2)
        #expect(scan.stderr.contains(empty) && scan.stderr.contains("scripts/recognizer-model/install.sh"), "\(scan.stderr)")
        let live = try CLI.run(["live", "--source", frames, "--frames", "1", "--jobs", "1", "--no-convert"], environment: env)
        #expect(live.status == 0, "\(live.stderr)")
    }
}
