import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@Suite("serve: history")
struct HistoryAPITests {
    static let rows = [
        (source: "shop/a.jpg", text: "¥800", amount: "800", currency: "JPY"),
        (source: "shop/b.jpg", text: "12,50 €", amount: "12.50", currency: "EUR"),
        (source: "menu/c.jpg", text: "¥1,200", amount: "1200", currency: "JPY"),
        (source: "menu/d.jpg", text: "100_% off", amount: "100", currency: "JPY"),
    ]

    @Test func newestFirstWithPagingAndTotal() async throws {
        let server = try TestServer()
        try seedHistory(server, Self.rows)
        try await server.test { client in
            try await client.execute(uri: "/api/v1/history?limit=2", method: .get) { r in
                #expect(r.object["total"] as? Int == 4)
                let rows = r.object["rows"] as? [[String: Any]] ?? []
                #expect(rows.compactMap { $0["source"] as? String } == ["menu/d.jpg", "menu/c.jpg"])
            }
            try await client.execute(uri: "/api/v1/history?limit=2&offset=2", method: .get) { r in
                let rows = r.object["rows"] as? [[String: Any]] ?? []
                #expect(rows.compactMap { $0["source"] as? String } == ["shop/b.jpg", "shop/a.jpg"])
                #expect(r.object["total"] as? Int == 4)
            }
        }
    }

    @Test func filtersByCurrencyAndText() async throws {
        let server = try TestServer()
        try seedHistory(server, Self.rows)
        try await server.test { client in
            try await client.execute(uri: "/api/v1/history?currency=jpy", method: .get) { r in
                #expect(r.object["total"] as? Int == 3)
            }
            try await client.execute(uri: "/api/v1/history?q=MENU", method: .get) { r in
                let rows = r.object["rows"] as? [[String: Any]] ?? []
                #expect(Set(rows.compactMap { $0["source"] as? String }) == ["menu/c.jpg", "menu/d.jpg"])
            }
            // LIKE wildcards in the text are literal.
            try await client.execute(uri: "/api/v1/history?q=_%25", method: .get) { r in
                #expect(r.object["total"] as? Int == 1)
            }
            try await client.execute(uri: "/api/v1/history?currency=JPY&q=shop", method: .get) { r in
                #expect(r.object["total"] as? Int == 1)
            }
        }
    }

    @Test("bad paging values: 400", arguments: ["limit=0", "limit=5000", "limit=x", "offset=-1"])
    func badPaging(query: String) async throws {
        let server = try TestServer()
        try await server.test { client in
            try await client.execute(uri: "/api/v1/history?\(query)", method: .get) { r in
                #expect(r.status == .badRequest)
                #expect(r.errorField == String(query.prefix { $0 != "=" }))
            }
        }
    }

    @Test func exportsCSVAndJSONLinesOldestFirst() async throws {
        let server = try TestServer()
        try seedHistory(server, Self.rows)
        try await server.test { client in
            try await client.execute(uri: "/api/v1/history/export?format=csv", method: .get) { r in
                #expect(r.headers[.contentType]?.hasPrefix("text/csv") == true)
                #expect(r.headers[.contentDisposition]?.contains("attachment") == true)
                let lines = r.text.split(separator: "\n")
                #expect(lines.count == 5)
                #expect(lines[0].hasPrefix("time,source,text,amount"))
                #expect(lines[1].contains("shop/a.jpg"))
                #expect(lines[2].contains("\"12,50 €\""))  // quoted: holds a comma
            }
            try await client.execute(uri: "/api/v1/history/export?format=jsonl", method: .get) { r in
                let lines = r.text.split(separator: "\n")
                #expect(lines.count == 4)
                let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
                #expect(first?["amount"] as? String == "800")
            }
            try await client.execute(uri: "/api/v1/history/export?format=xml", method: .get) { r in
                #expect(r.status == .badRequest)
                #expect(r.errorField == "format")
            }
        }
    }

    @Test func statsSumPerCurrencyExactly() async throws {
        let server = try TestServer()
        try seedHistory(server, Self.rows)
        try await server.test { client in
            try await client.execute(uri: "/api/v1/history/stats", method: .get) { r in
                #expect(r.object["count"] as? Int == 4)
                let groups = r.object["by_currency"] as? [[String: Any]] ?? []
                let jpy = groups.first { $0["currency"] as? String == "JPY" }
                #expect(jpy?["count"] as? Int == 3)
                #expect(jpy?["amount"] as? String == "2100")  // 800 + 1200 + 100
            }
        }
    }

    @Test func clearAsksForConfirmation() async throws {
        let server = try TestServer()
        try seedHistory(server, Self.rows)
        try await server.test { client in
            try await client.execute(uri: "/api/v1/history", method: .delete) { r in
                #expect(r.status == .badRequest)
                #expect(r.errorCode == "confirmation_required")
            }
            try await client.execute(uri: "/api/v1/history", method: .get) { r in #expect(r.object["total"] as? Int == 4) }
            try await client.execute(uri: "/api/v1/history?confirm=yes", method: .delete) { r in
                #expect(r.status == .ok)
                #expect(r.object["deleted"] as? Int == 4)
            }
            try await client.execute(uri: "/api/v1/history", method: .get) { r in #expect(r.object["total"] as? Int == 0) }
        }
    }
}

@Suite("serve: safety")
struct SafetyTests {
    static let token = "0123456789abcdef0123"

    @Test func tokenGuardsTheAPIAndMetrics() async throws {
        let server = try TestServer(token: Self.token)
        try await server.test { client in
            for uri in ["/api/v1/settings", "/api/v1/history", "/api/v1/status", "/metrics"] {
                try await client.execute(uri: uri, method: .get) { r in
                    #expect(r.status == .unauthorized, "\(uri)")
                    #expect(r.errorCode == "unauthorized")
                }
                try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer wrong-token-0000000"]) { r in
                    #expect(r.status == .unauthorized, "\(uri)")
                }
                try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer \(Self.token)"]) { r in
                    #expect(r.status == .ok, "\(uri)")
                }
            }
            // The page itself holds no data; it asks for the token in its address.
            try await client.execute(uri: "/", method: .get) { r in #expect(r.status == .ok) }
            try await client.execute(uri: "/api/v1/status?access_token=\(Self.token)", method: .get) { r in #expect(r.status == .ok) }
            try await client.execute(uri: "/api/v1/history?confirm=yes&access_token=\(Self.token)", method: .delete) { r in
                #expect(r.status == .unauthorized)  // the query form is for GET (images, WebSocket) only
            }
        }
    }

    @Test func otherOriginsCannotChangeState() async throws {
        let server = try TestServer()
        try await server.test { client in
            let body = ByteBuffer(json: #"{"currency":"JPY","rate":"0.0061"}"#)
            try await client.execute(
                uri: "/api/v1/settings", method: .put, headers: [.origin: "http://evil.example"], body: body
            ) { r in
                #expect(r.status == .forbidden)
                #expect(r.errorCode == "cross_origin")
            }
            try await client.execute(uri: "/api/v1/history?confirm=yes", method: .delete, headers: [.origin: "http://evil.example"]) { r in
                #expect(r.status == .forbidden)
            }
            try await client.execute(uri: "/api/v1/settings", method: .get) { r in #expect(r.text == #"{"configured":false}"#) }
        }
    }

    @Test func noCORSHeaders() async throws {
        let server = try TestServer()
        try await server.test { client in
            try await client.execute(uri: "/api/v1/settings", method: .get, headers: [.origin: "http://evil.example"]) { r in
                #expect(r.headers[.accessControlAllowOrigin] == nil)
            }
        }
    }

    @Test(
        "paths that climb or are unknown: 404",
        arguments: [
            "/../etc/passwd", "/%2e%2e/etc/passwd", "/api/v1/..%2f..%2fetc%2fpasswd", "/api/v1/%2E%2E/settings", "/index.html",
            "/api/v2/settings",
        ])
    func climbingPathsAre404(path: String) async throws {
        let server = try TestServer()
        try await server.test { client in
            try await client.execute(uri: path, method: .get) { r in
                #expect(r.status == .notFound, "\(path)")
                #expect(r.errorCode == "not_found", "\(path): \(r.text)")
                #expect(!r.text.contains("root:"))
            }
        }
    }
}

@Suite("serve: page, status and metrics")
struct PageStatusMetricsTests {
    @Test func pageIsServedWithoutExternalResources() async throws {
        let server = try TestServer()
        try await server.test { client in
            try await client.execute(uri: "/", method: .get) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType]?.hasPrefix("text/html") == true)
                #expect(r.text.contains("id=\"settings-form\""))
                #expect(!r.text.contains("http://") && !r.text.contains("https://") && !r.text.contains("//cdn"))
            }
        }
    }

    @Test func statusAndMetricsCountScans() async throws {
        let server = try TestServer()
        try server.configure()
        let image = try fixtureBytes("clean", "frame_0003.png")
        try await server.test { client in
            try await client.execute(uri: "/api/v1/status", method: .get) { r in
                #expect(r.object["configured"] as? Bool == true)
                #expect((r.object["camera"] as? [String: Any])?["source"] is NSNull)
            }
            try await client.execute(uri: "/api/v1/frame.jpg", method: .get) { r in
                #expect(r.status == .notFound)
                #expect(r.errorCode == "no_frame")
            }
            try await client.execute(uri: "/api/v1/scan", method: .post, headers: [.contentType: "image/png"], body: image) { r in
                #expect(r.status == .ok)
            }
            try await client.execute(uri: "/metrics", method: .get) { r in
                #expect(r.headers[.contentType]?.hasPrefix("text/plain") == true)
                #expect(r.text.contains("pricecam_scans_total 1"))
                #expect(r.text.contains("pricecam_scan_duration_seconds_count 1"))
                #expect(r.text.contains("pricecam_http_errors_total{status=\"404\"} 1"))
            }
        }
    }
}
