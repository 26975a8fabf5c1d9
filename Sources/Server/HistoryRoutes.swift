import WSCore
import HummingbirdWebSocket
import Foundation
import History
import Hummingbird
import Pipeline

enum HistoryRoutes {
    /// Most rows one page may ask for.
    static let maxLimit = 1000

    static func add(to api: RouterGroup<ServeContext>, state: ServerState) {
        api.get("/history") { request, _ in
            let query = try query(request)
            let (rows, total) = try await state.history.call { store throws(HistoryError) in
                (try store.list(query), try store.count(query))
            }
            let text = "{\"rows\":[" + rows.map(HistoryFormat.jsonLine).joined(separator: ",") + "],\"total\":\(total)}"
            return Response.text(text, contentType: "application/json; charset=utf-8")
        }
        api.get("/history/export") { request, _ in
            let format = request.uri.queryParameters.get("format") ?? "csv"
            var query = try query(request)
            query.limit = nil
            query.offset = 0
            // Oldest first in files.
            let rows = try await state.history.call { [query] store throws(HistoryError) in try store.list(query) }.reversed()
            let disposition: (String) -> HTTPFields = { [.contentDisposition: "attachment; filename=\"pricecam-history.\($0)\""] }
            switch format {
            case "csv":
                let text = HistoryFormat.csvHeader + "\n" + rows.map { HistoryFormat.csvLine($0) + "\n" }.joined()
                return Response.text(text, contentType: "text/csv; charset=utf-8", headers: disposition("csv"))
            case "jsonl":
                let text = rows.map { HistoryFormat.jsonLine($0) + "\n" }.joined()
                return Response.text(text, contentType: "application/x-ndjson; charset=utf-8", headers: disposition("jsonl"))
            default:
                throw APIError(
                    .badRequest, code: "invalid_format", message: "format must be csv or jsonl, got \"\(format)\"", field: "format")
            }
        }
        api.get("/history/stats") { _, _ in
            let stats = try await state.history.call { store throws(HistoryError) in try store.stats() }
            return Response.text(HistoryFormat.statsJSON(stats), contentType: "application/json; charset=utf-8")
        }
        api.delete("/history") { request, _ in
            guard request.uri.queryParameters.get("confirm") == "yes" else {
                throw APIError(
                    .badRequest, code: "confirmation_required", message: "clearing deletes every row: confirm with ?confirm=yes",
                    field: "confirm")
            }
            let deleted = try await state.history.call { store throws(HistoryError) in try store.clear() }
            return Response.json(.object([("deleted", .int(deleted))]))
        }
    }

    /// limit (1…1000, default 50), offset (≥ 0), currency, q.
    static func query(_ request: Request) throws(APIError) -> HistoryQuery {
        let q = request.uri.queryParameters
        func number(_ name: String, default value: Int, range: ClosedRange<Int>) throws(APIError) -> Int {
            guard let text = q.get(name) else { return value }
            guard let n = Int(text), range.contains(n) else {
                throw APIError(
                    .badRequest, code: "invalid_\(name)",
                    message: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(text)\"", field: name)
            }
            return n
        }
        let currency = q.get("currency").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
        let text = q.get("q").map { $0.trimmingCharacters(in: .whitespaces) }
        return HistoryQuery(
            limit: try number("limit", default: 50, range: 1...maxLimit),
            offset: try number("offset", default: 0, range: 0...Int(Int32.max)),
            currency: currency?.isEmpty == false ? currency : nil, text: text?.isEmpty == false ? text : nil)
    }
}

enum LiveRoutes {
    static func add(to api: RouterGroup<ServeContext>, state: ServerState) {
        api.get("/status") { _, _ in
            let configured = (try? state.settings()) != nil
            return Response.json(
                .object([
                    ("version", .string(Version.current)),
                    ("configured", .bool(configured)),
                    ("uptime_seconds", .fixed(Date().timeIntervalSince(state.started), 0)),
                    ("scan_workers", .int(state.configuration.scanWorkers)),
                    ("upload_limit", .int(state.configuration.uploadLimit)),
                    ("camera", state.live.status),
                ]))
        }
        api.get("/frame.jpg") { _, _ in
            guard let jpeg = state.live.displayFrame() else {
                throw APIError(
                    .notFound, code: "no_frame",
                    message: state.live.camera == .none
                        ? "no camera: start pricecam serve with --device /dev/video0 or --replay DIR"
                        : "no frame yet (the camera is starting, or see GET /api/v1/status for its error)")
            }
            return Response.bytes(jpeg, contentType: "image/jpeg")
        }
        api.ws("/live") { inbound, outbound, _ in
            let (id, messages) = state.live.subscribe()
            defer { state.live.unsubscribe(id) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await _ in inbound {}  // until the browser closes
                }
                group.addTask {
                    for await message in messages { try await outbound.write(.text(message)) }
                }
                _ = try await group.next()
                group.cancelAll()
            }
        }
    }
}

/// The version `GET /api/v1/status` reports.
public enum Version {
    public static let current = "0.9.0"
}
