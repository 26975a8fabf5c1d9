import Foundation
import Hummingbird
import Pipeline
import HummingbirdTesting
import NIOCore
import Server
import Testing

@testable import History

/// What the history endpoints must do on every backend: run on SQLite (HistoryAPITests) and
/// on PostgreSQL (PostgresHistoryAPITests, when PRICECAM_TEST_POSTGRES is set).
enum HistoryAPIChecks {
    static let rows = [
        (source: "shop/a.jpg", text: "¥800", amount: "800", currency: "JPY"),
        (source: "shop/b.jpg", text: "12,50 €", amount: "12.50", currency: "EUR"),
        (source: "menu/c.jpg", text: "¥1,200", amount: "1200", currency: "JPY"),
        (source: "menu/d.jpg", text: "100_% off", amount: "100", currency: "JPY"),
    ]

    static func newestFirstWithPagingAndTotal(_ server: TestServer) async throws {
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

    static func filtersByCurrencyAndText(_ server: TestServer) async throws {
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

    static func exportsCSVAndJSONLinesOldestFirst(_ server: TestServer) async throws {
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

    static func statsSumPerCurrencyExactly(_ server: TestServer) async throws {
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

    static func clearAsksForConfirmation(_ server: TestServer) async throws {
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

    /// A scan through the API is recorded; the list, stats, both exports and clear all see its rows.
    static func scanThenListStatsExportClear(_ server: TestServer) async throws {
        try server.configure(currency: "JPY", rate: "0.0061", home: "EUR")
        let truth = try fixtureTruth("clean", "frame_0003.png")  // JPY 800, JPY 280
        let image = try fixtureBytes("clean", "frame_0003.png")
        try await server.test { client in
            try await client.execute(uri: "/api/v1/scan", method: .post, headers: [.contentType: "image/png"], body: image) { r in
                #expect(r.status == .ok, "\(r.text)")
            }
            let converted = try await client.execute(uri: "/api/v1/history", method: .get) { r in
                #expect(r.object["total"] as? Int == truth.amounts.count)
                let rows = r.object["rows"] as? [[String: Any]] ?? []
                #expect(Set(rows.compactMap { $0["amount"] as? String }) == Set(truth.amounts))
                #expect(rows.allSatisfy { $0["source"] as? String == "upload" && $0["target"] as? String == "EUR" }, "\(rows)")
                return rows.compactMap { ($0["converted"] as? String).flatMap { Decimal(string: $0) } }
            }
            #expect(Set(converted) == [Decimal(string: "4.88")!, Decimal(string: "1.71")!])  // 800 and 280 × 0.0061, in cents
            try await client.execute(uri: "/api/v1/history/stats", method: .get) { r in
                #expect(r.object["count"] as? Int == truth.amounts.count)
                let jpy = (r.object["by_currency"] as? [[String: Any]] ?? []).first { $0["currency"] as? String == "JPY" }
                #expect(jpy?["amount"] as? String == "1080")
                #expect(jpy?["converted"] as? String == "6.59")
            }
            try await client.execute(uri: "/api/v1/history/export?format=csv", method: .get) { r in
                #expect(r.text.split(separator: "\n").count == 1 + truth.amounts.count)
            }
            try await client.execute(uri: "/api/v1/history/export?format=jsonl", method: .get) { r in
                let amounts = r.text.split(separator: "\n").compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["amount"] as? String
                }
                #expect(Set(amounts) == Set(truth.amounts))
            }
            try await client.execute(uri: "/api/v1/history?confirm=yes", method: .delete) { r in
                #expect(r.object["deleted"] as? Int == truth.amounts.count)
            }
            try await client.execute(uri: "/api/v1/history/stats", method: .get) { r in #expect(r.object["count"] as? Int == 0) }
        }
    }

    /// The camera's stable prices go to the server's own history (the one the routes read).
    static func theCameraRecordsToTheSameHistory(_ camera: (CameraSource) throws -> TestServer) async throws {
        let folder = try LiveAPITests.replayFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try camera(.replay(directory: folder, fps: 10, loop: true))
        try server.configure()
        server.state.startCamera()
        try await server.test { client in
            var sources: [String] = []
            let deadline = Date(timeIntervalSinceNow: 180)
            while sources.isEmpty && Date() < deadline {
                try await Task.sleep(for: .milliseconds(200))
                sources = try await client.execute(uri: "/api/v1/history", method: .get) { r in
                    #expect(r.status == .ok, "\(r.text)")
                    return (r.object["rows"] as? [[String: Any]] ?? []).compactMap { $0["source"] as? String }
                }
            }
            #expect(!sources.isEmpty, "no camera price reached the history in 3 minutes")
            #expect(sources.allSatisfy { $0.hasPrefix(folder) }, "\(sources)")
        }
    }
}

@Suite("serve: history")
struct HistoryAPITests {
    @Test func newestFirstWithPagingAndTotal() async throws { try await HistoryAPIChecks.newestFirstWithPagingAndTotal(TestServer()) }
    @Test func filtersByCurrencyAndText() async throws { try await HistoryAPIChecks.filtersByCurrencyAndText(TestServer()) }
    @Test func exportsCSVAndJSONLinesOldestFirst() async throws {
        try await HistoryAPIChecks.exportsCSVAndJSONLinesOldestFirst(TestServer())
    }
    @Test func statsSumPerCurrencyExactly() async throws { try await HistoryAPIChecks.statsSumPerCurrencyExactly(TestServer()) }
    @Test func clearAsksForConfirmation() async throws { try await HistoryAPIChecks.clearAsksForConfirmation(TestServer()) }
    @Test func scanThenListStatsExportClear() async throws { try await HistoryAPIChecks.scanThenListStatsExportClear(TestServer()) }
    @Test(.timeLimit(.minutes(5))) func theCameraRecordsToTheSameHistory() async throws {
        try await HistoryAPIChecks.theCameraRecordsToTheSameHistory { try TestServer(camera: $0) }
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
}

@Suite(
    "serve: history on PostgreSQL",
    .enabled(if: TestHistory.postgresURL != nil, "set PRICECAM_TEST_POSTGRES (scripts/test-postgres.sh does)"))
struct PostgresHistoryAPITests {
    @Test func newestFirstWithPagingAndTotal() async throws {
        try await HistoryAPIChecks.newestFirstWithPagingAndTotal(TestServer(history: .postgres))
    }
    @Test func filtersByCurrencyAndText() async throws {
        try await HistoryAPIChecks.filtersByCurrencyAndText(TestServer(history: .postgres))
    }
    @Test func exportsCSVAndJSONLinesOldestFirst() async throws {
        try await HistoryAPIChecks.exportsCSVAndJSONLinesOldestFirst(TestServer(history: .postgres))
    }
    @Test func statsSumPerCurrencyExactly() async throws {
        try await HistoryAPIChecks.statsSumPerCurrencyExactly(TestServer(history: .postgres))
    }
    @Test func clearAsksForConfirmation() async throws {
        try await HistoryAPIChecks.clearAsksForConfirmation(TestServer(history: .postgres))
    }
    @Test func scanThenListStatsExportClear() async throws {
        try await HistoryAPIChecks.scanThenListStatsExportClear(TestServer(history: .postgres))
    }
    @Test(.timeLimit(.minutes(5))) func theCameraRecordsToTheSameHistory() async throws {
        try await HistoryAPIChecks.theCameraRecordsToTheSameHistory { try TestServer(camera: $0, history: .postgres) }
    }

    /// The database ends the server's connection (as on a restart): calls answer a JSON
    /// error meanwhile, never crash, and a later call connects again and reads every row.
    @Test func aDroppedConnectionIsOpenedAgain() async throws {
        let server = try TestServer(history: .postgres)
        try seedHistory(server, HistoryAPIChecks.rows)
        let store = try #require(try server.state.history.opened() as? PostgresHistoryStore)
        let pid = try store.backendPID()
        let admin = try PostgresHistoryStore(url: store.url, table: store.table)
        #expect(try admin.terminateForTest(pid: pid))
        try await server.test { client in
            var total: Int?
            for _ in 0..<50 where total == nil {
                total = try await client.execute(uri: "/api/v1/history", method: .get) { r in
                    if r.status == .ok { return r.object["total"] as? Int }
                    #expect(r.status == .serviceUnavailable && r.errorCode == "history_unavailable", "\(r.text)")
                    return nil
                }
                if total == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(total == HistoryAPIChecks.rows.count)
            #expect(try store.backendPID() != pid)
        }
    }
}

/// No database needed: nothing listens on port 1.
@Suite("serve: history unreachable")
struct UnreachableHistoryTests {
    @Test func historyCallsAnswer503AndTheRestStillWorks() async throws {
        let url = PostgresURL(user: "u", password: "secret", host: "127.0.0.1", port: 1, database: "d")
        let server = try TestServer(history: .location(.postgres(url)))
        try await server.test { client in
            for (uri, method) in [
                ("/api/v1/history", HTTPRequest.Method.get), ("/api/v1/history/stats", .get), ("/api/v1/history/export?format=csv", .get),
                ("/api/v1/history?confirm=yes", .delete),
            ] {
                try await client.execute(uri: uri, method: method) { r in
                    #expect(r.status == .serviceUnavailable, "\(uri): \(r.text)")
                    #expect(r.errorCode == "history_unavailable", "\(uri)")
                    let message = (r.object["error"] as? [String: Any])?["message"] as? String ?? ""
                    #expect(
                        message.contains("postgres://u@127.0.0.1:1/d") && message.contains("no PostgreSQL server answers"), "\(message)")
                    #expect(message.contains("start pricecam serve with another --history"), "\(message)")
                    #expect(!message.contains("secret") && !message.contains("--no-history"), "\(message)")
                }
            }
            try await client.execute(uri: "/api/v1/settings", method: .get) { r in #expect(r.status == .ok) }
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
