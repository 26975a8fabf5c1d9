import Conversion
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@Suite("serve: settings")
struct SettingsAPITests {
    @Test func beforeSetupOnlyConfiguredFalse() async throws {
        let server = try TestServer()
        try await server.test { client in
            try await client.execute(uri: "/api/v1/settings", method: .get) { r in
                #expect(r.status == .ok)
                #expect(r.text == #"{"configured":false}"#)
            }
        }
    }

    @Test func putSavesAndGetShowsTheSettings() async throws {
        let server = try TestServer()
        try await server.test { client in
            try await client.execute(
                uri: "/api/v1/settings", method: .put, headers: jsonHeaders,
                body: ByteBuffer(json: #"{"currency":"jpy","rate":"0,0061","home":"eur"}"#)
            ) { r in
                #expect(r.status == .ok)
                #expect(r.object["currency"] as? String == "JPY")
                #expect(r.object["rate"] as? String == "0.0061")
                #expect(r.object["home"] as? String == "EUR")
            }
            try await client.execute(uri: "/api/v1/settings", method: .get) { r in
                #expect(r.object["configured"] as? Bool == true)
                #expect(r.object["currency"] as? String == "JPY")
                #expect(r.object["max_rate_age_days"] as? Int == 30)
                #expect(r.object["stale_warning"] is NSNull)
            }
            // Saved where `pricecam settings` reads it.
            let text = try String(contentsOfFile: server.home + "/settings.toml", encoding: .utf8)
            #expect(text.contains("JPY"))
        }
    }

    @Test(
        "invalid values: 400 naming the field",
        arguments: [
            (#"{"currency":"J1Y","rate":"0.1"}"#, "currency"),
            (#"{"currency":"","rate":"0.1"}"#, "currency"),
            (#"{"currency":"JPY","rate":"abc"}"#, "rate"),
            (#"{"currency":"JPY","rate":"0"}"#, "rate"),
            (#"{"currency":"JPY","rate":"1,000.5"}"#, "rate"),
            (#"{"currency":"JPY"}"#, "rate"),
            (#"{"currency":"JPY","rate":"0.1","home":"E-R"}"#, "home"),
        ])
    func invalidValues(body: String, field: String) async throws {
        let server = try TestServer()
        try await server.test { client in
            try await client.execute(uri: "/api/v1/settings", method: .put, headers: jsonHeaders, body: ByteBuffer(json: body)) { r in
                #expect(r.status == .badRequest)
                #expect(r.errorField == field)
                #expect(r.errorCode == "invalid_\(field)")
                let message = (r.object["error"] as? [String: Any])?["message"] as? String
                #expect(message?.isEmpty == false)
            }
            #expect(!FileManager.default.fileExists(atPath: server.home + "/settings.toml"))
        }
    }

    @Test func notJSONIs400() async throws {
        let server = try TestServer()
        try await server.test { client in
            try await client.execute(uri: "/api/v1/settings", method: .put, body: ByteBuffer(string: "currency=JPY")) { r in
                #expect(r.status == .badRequest)
                #expect(r.errorCode == "invalid_json")
            }
        }
    }

    @Test func checkGivesSetupsMessagesWithoutSaving() async throws {
        let server = try TestServer()
        try await server.test { client in
            try await client.execute(uri: "/api/v1/settings/check?currency=JPY&rate=-1", method: .get) { r in
                #expect(r.object["valid"] as? Bool == false)
                let errors = r.object["errors"] as? [[String: Any]] ?? []
                #expect(errors.map { $0["field"] as? String } == ["rate"])
                #expect((errors.first?["message"] as? String)?.contains("-1") == true)
            }
            try await client.execute(uri: "/api/v1/settings/check?currency=JPY&rate=0.0061", method: .get) { r in
                #expect(r.object["valid"] as? Bool == true)
            }
            #expect(!FileManager.default.fileExists(atPath: server.home + "/settings.toml"))
        }
    }

    @Test func staleRateIsFlagged() async throws {
        let server = try TestServer()
        var old = try CurrencySettingsForTest.make()
        old.updatedAt = Date(timeIntervalSinceNow: -90 * 86_400)
        try CurrencySettingsForTest.save(old, home: server.home)
        try await server.test { client in
            try await client.execute(uri: "/api/v1/settings", method: .get) { r in
                #expect((r.object["stale_warning"] as? String)?.isEmpty == false)
            }
        }
    }
}

@Suite("serve: scan")
struct ScanAPITests {
    @Test func beforeSetupIs409() async throws {
        let server = try TestServer()
        let image = try fixtureBytes("clean", "frame_0003.png")
        try await server.test { client in
            try await client.execute(uri: "/api/v1/scan", method: .post, headers: [.contentType: "image/png"], body: image) { r in
                #expect(r.status == .conflict)
                #expect(r.errorCode == "not_configured")
            }
        }
    }

    @Test func rawBodyIsReadConvertedAndRecorded() async throws {
        let server = try TestServer()
        try server.configure(currency: "JPY", rate: "0.0061", home: "EUR")
        let truth = try fixtureTruth("clean", "frame_0003.png")  // JPY 800, JPY 280
        let image = try fixtureBytes("clean", "frame_0003.png")
        try await server.test { client in
            try await client.execute(uri: "/api/v1/scan", method: .post, headers: [.contentType: "image/png"], body: image) { r in
                #expect(r.status == .ok)
                let prices = r.object["prices"] as? [[String: Any]] ?? []
                #expect(Set(prices.compactMap { $0["amount"] as? String }) == Set(truth.amounts))
                // 800 × 0.0061 = 4.88 and 280 × 0.0061 = 1.708 → 1.71 EUR.
                let converted = Dictionary(uniqueKeysWithValues: prices.map { ($0["amount"] as? String ?? "", $0["converted"] as? String) })
                #expect(converted["800"] == "4.88")
                #expect(converted["280"] == "1.71")
                #expect(prices.allSatisfy { $0["target"] as? String == "EUR" })
                #expect(r.object["error"] is NSNull)
            }
            try await client.execute(uri: "/api/v1/history", method: .get) { r in
                #expect(r.object["total"] as? Int == truth.amounts.count)
                let rows = r.object["rows"] as? [[String: Any]] ?? []
                #expect(Set(rows.compactMap { $0["amount"] as? String }) == Set(truth.amounts))
            }
        }
    }

    @Test func multipartImageFieldIsRead() async throws {
        let server = try TestServer()
        try server.configure()
        let truth = try fixtureTruth("clean", "frame_0003.png")
        let image = try Data(contentsOf: URL(fileURLWithPath: "\(TestServer.fixtures)/clean/frame_0003.png"))
        let boundary = "pricecam-test-boundary"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n".utf8)
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"tag.png\"\r\n".utf8)
        body += Data("Content-Type: image/png\r\n\r\n".utf8) + image + Data("\r\n--\(boundary)--\r\n".utf8)
        let form = ByteBuffer(bytes: body)
        try await server.test { client in
            try await client.execute(
                uri: "/api/v1/scan", method: .post, headers: [.contentType: "multipart/form-data; boundary=\(boundary)"],
                body: form
            ) { r in
                #expect(r.status == .ok)
                #expect(r.object["file"] as? String == "upload:tag.png")
                let prices = r.object["prices"] as? [[String: Any]] ?? []
                #expect(Set(prices.compactMap { $0["amount"] as? String }) == Set(truth.amounts))
            }
            let noImage = "--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n--\(boundary)--\r\n"
            try await client.execute(
                uri: "/api/v1/scan", method: .post, headers: [.contentType: "multipart/form-data; boundary=\(boundary)"],
                body: ByteBuffer(string: noImage)
            ) { r in
                #expect(r.status == .badRequest)
                #expect(r.errorCode == "missing_image")
            }
        }
    }

    @Test func overTheLimitIs413() async throws {
        let server = try TestServer(uploadLimit: 1000)
        try server.configure()
        try await server.test { client in
            try await client.execute(
                uri: "/api/v1/scan", method: .post, headers: [.contentType: "image/png"],
                body: ByteBuffer(bytes: [UInt8](repeating: 7, count: 5000))
            ) { r in
                #expect(r.status == .contentTooLarge)
                #expect(r.errorCode == "upload_too_large")
            }
        }
    }

    @Test(
        "bytes that are no image: 422",
        arguments: [
            ("garbage", Array("this is not an image at all".utf8)),
            ("empty", []),
            // A 100 000 × 100 000 gray image declared by its header: refused before decoding.
            ("bomb-pnm", Array("P5\n100000 100000\n255\n".utf8) + [UInt8](repeating: 0, count: 64)),
            ("bomb-png", PNGBomb.bytes(width: 60_000, height: 60_000)),
            // A 10 kB JPEG whose frame header declares 65 535 × 65 535: over the limit even at ⅛,
            // and too little data for a JPEG that size, so refused, not decoded to grey.
            ("bomb-jpeg", JPEGBomb.bytes()),
        ])
    func undecodableIs422(name: String, bytes: [UInt8]) async throws {
        let server = try TestServer()
        try server.configure()
        try await server.test { client in
            try await client.execute(
                uri: "/api/v1/scan", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(bytes: bytes)
            ) {
                r in
                #expect(r.status == .unprocessableContent, "\(name): \(r.text)")
                #expect(["unreadable_image", "empty_file", "image_too_large"].contains(r.errorCode ?? ""), "\(name): \(r.text)")
            }
        }
    }

    @Test func otherContentTypeIs415() async throws {
        let server = try TestServer()
        try server.configure()
        try await server.test { client in
            try await client.execute(
                uri: "/api/v1/scan", method: .post, headers: [.contentType: "text/plain"], body: ByteBuffer(string: "x")
            ) {
                r in
                #expect(r.status == .unsupportedMediaType)
                #expect(r.errorCode == "unsupported_media_type")
            }
        }
    }
}

/// A PNG whose header declares a huge image over a few bytes of data.
enum PNGBomb {
    static func bytes(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be(UInt32(data.count)) + body + be(crc32(body))
        }
        let ihdr = be(width) + be(height) + [8, 0, 0, 0, 0]  // 8-bit gray
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00])
            + chunk("IEND", [])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// A fixture JPEG whose baseline frame header (SOF0) declares 65 535 × 65 535.
enum JPEGBomb {
    static func bytes() -> [UInt8] {
        var data = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(TestServer.fixtures)/jpeg/frame_0001.jpg")))) ?? []
        if let sof = (0..<max(0, data.count - 9)).first(where: { data[$0] == 0xFF && data[$0 + 1] == 0xC0 }) {
            data.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFF, 0xFF, 0xFF, 0xFF])
        }
        return data
    }
}
