import Conversion
import Foundation
import History
public import Hummingbird
public import Logging
import HummingbirdCore
public import HummingbirdTLS
public import HummingbirdWebSocket
import MultipartKit
import NIOCore
import Pipeline

/// The request context: Hummingbird's, with WebSocket upgrades.
public typealias ServeContext = BasicWebSocketRequestContext

/// The web app: every route of the API, the live feed, the metrics and the page.
public enum ServeApp {
    /// The application for `configuration` (what `pricecam serve` runs and the tests drive).
    /// `onRunning` gets the port listened on (the one asked for, or the one picked for port 0).
    /// Over HTTPS when the configuration has a certificate (`tls`: the one loaded or made).
    public static func application(
        state: ServerState, tls: TLSConfiguration? = nil, logger: Logger? = nil, onRunning: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let router = router(state: state)
        let c = state.configuration
        var log = logger ?? Logger(label: "pricecam.serve")
        if logger == nil { log.logLevel = .warning }
        // A browser sends each camera frame as one WebSocket frame: the frame limit is the stream's.
        let http: HTTPServerBuilder = .http1WebSocketUpgrade(
            webSocketRouter: router, configuration: .init(ws: .init(maxFrameSize: c.stream.frameBytes)))
        return Application(
            router: router,
            server: try tls.map { try .tls(http, tlsConfiguration: $0) } ?? http,
            configuration: .init(address: .hostname(c.host, port: c.port), serverName: "pricecam"),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? c.port) },
            logger: log)
    }

    /// Serves until SIGINT or SIGTERM, then stops accepting and lets the requests
    /// in flight finish (the caller then calls `state.shutdown()`).
    public static func run(state: ServerState, tls: TLSConfiguration?, onRunning: @escaping @Sendable (Int) -> Void) async throws {
        try await application(state: state, tls: tls, onRunning: onRunning).runService()
    }

    public static func router(state: ServerState) -> Router<ServeContext> {
        let router = Router(context: ServeContext.self)
        router.add(middleware: GuardMiddleware(state: state))
        router.get("/") { _, _ in Response.text(Page.html, contentType: "text/html; charset=utf-8") }
        router.get("/metrics") { _, _ in Response.bytes(state.metrics.text(), contentType: "text/plain; version=0.0.4; charset=utf-8") }
        let api = router.group("/api/v1")
        SettingsRoutes.add(to: api, state: state)
        ScanRoute.add(to: api, state: state)
        HistoryRoutes.add(to: api, state: state)
        LiveRoutes.add(to: api, state: state)
        CameraStreamRoute.add(to: api, state: state)
        return router
    }
}

/// Rejects what must never reach a handler, and turns every failure into the
/// API's JSON error: a path that tries to climb (`..`, encoded or not) → 404; a
/// missing or wrong token when one is set → 401; a state-changing request from
/// another origin → 403.
struct GuardMiddleware: RouterMiddleware {
    typealias Context = ServeContext
    let state: ServerState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response: Response
        do {
            try check(request)
            response = try await next(request, context)
        } catch let error as APIError {
            response = error.response
        } catch let error as HTTPError {
            let apiError: APIError =
                switch error.status {
                case .notFound: .notFound(request.uri.path)
                case .contentTooLarge: .tooLarge(limit: state.configuration.uploadLimit)
                default: APIError(error.status, code: "http_\(error.status.code)", message: error.body ?? error.status.reasonPhrase)
                }
            response = apiError.response
        }
        if response.status.code >= 400 { state.metrics.error(code: String(response.status.code)) }
        state.metrics.answered()
        return response
    }

    func check(_ request: Request) throws(APIError) {
        let raw = request.uri.path
        let decoded = raw.removingPercentEncoding ?? raw
        if decoded.contains("..") || decoded.contains("\\") || decoded.contains("\0") || raw.lowercased().contains("%2f") {
            throw .notFound(raw)
        }
        let path = decoded
        if let token = state.configuration.token, path.hasPrefix("/api/") || path == "/metrics" {
            var given = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            // A browser cannot set headers on <img> and WebSocket requests: they may carry it in the query.
            if given == nil && request.method == .get { given = request.uri.queryParameters.get("access_token") }
            guard let given, Self.same(given, token) else {
                throw APIError(
                    .unauthorized, code: "unauthorized",
                    message: "this server needs its token: send `Authorization: Bearer TOKEN` (printed when pricecam serve started)")
            }
        }
        if [.put, .post, .delete, .patch].contains(request.method), let origin = request.headers[.origin] {
            let host = request.head.authority ?? ""
            guard origin == "http://\(host)" || origin == "https://\(host)" else {
                throw APIError(
                    .forbidden, code: "cross_origin",
                    message: "requests that change data must come from this server's own page (Origin \(origin) is not http://\(host))")
            }
        }
    }

    /// Compares in time independent of where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var diff = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) { diff |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0) }
        return diff == 0
    }
}

extension APIError {
    static func tooLarge(limit: Int) -> APIError {
        APIError(
            .contentTooLarge, code: "upload_too_large",
            message: "the upload is over the \(limit)-byte limit (start the server with a larger --upload-limit if the photo is genuine)")
    }
}

enum SettingsRoutes {
    static func add(to api: RouterGroup<ServeContext>, state: ServerState) {
        api.get("/settings") { _, _ in
            Response.json(SettingsJSON.api(try state.settings(), file: state.settingsPath))
        }
        // Checks values as the user types: the same rules and messages as setup, nothing saved.
        api.get("/settings/check") { request, _ in
            let q = request.uri.queryParameters
            let problems = check(currency: q.get("currency"), rate: q.get("rate"), home: q.get("home")).problems
            return Response.json(
                .object([
                    ("valid", .bool(problems.isEmpty)),
                    ("errors", .array(problems.map { .object([("field", .string($0.field)), ("message", .string($0.message))]) })),
                ]))
        }
        api.put("/settings") { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: 64 << 10)
            guard let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] else {
                throw APIError(
                    .badRequest, code: "invalid_json",
                    message: "send a JSON object: {\"currency\": \"JPY\", \"rate\": \"0.0061\", \"home\": \"EUR\"}")
            }
            let result = check(currency: text(object["currency"]), rate: text(object["rate"]), home: text(object["home"]))
            if let first = result.problems.first {
                throw APIError(.badRequest, code: "invalid_\(first.field)", message: first.message, field: first.field)
            }
            var saved = result.settings!
            if let old = try state.settings() {
                saved.maxRateAgeDays = old.maxRateAgeDays
                if old.rate == saved.rate && old.currency == saved.currency { saved.updatedAt = old.updatedAt }
            }
            try state.save(saved)
            return Response.json(SettingsJSON.api(saved, file: state.settingsPath))
        }
    }

    /// A JSON value as the text a user typed (a number as written; null as absent).
    static func text(_ value: Any?) -> String? {
        switch value {
        case let s as String: return s
        case let n as NSNumber: return n.stringValue
        default: return nil
        }
    }

    /// Every problem with the values, in field order; the settings when there are none.
    static func check(currency: String?, rate: String?, home: String?) -> (
        problems: [(field: String, message: String)], settings: CurrencySettings?
    ) {
        var problems: [(field: String, message: String)] = []
        var code: String?
        var value: Decimal?
        var homeCode: String?
        do { code = try CurrencyCode.validate(currency ?? "", field: "currency") } catch {
            problems.append(("currency", error.description))
        }
        do { value = try ExchangeRate.validate(rate ?? "") } catch { problems.append(("rate", error.description)) }
        if let home, !home.trimmingCharacters(in: .whitespaces).isEmpty {
            do { homeCode = try CurrencyCode.validate(home, field: "home currency") } catch { problems.append(("home", error.description)) }
        }
        guard let code, let value, problems.isEmpty else { return (problems, nil) }
        return ([], CurrencySettings(currency: code, rate: value, home: homeCode, updatedAt: Date()))
    }
}

enum ScanRoute {
    /// Codes of `ImageError` that mean the bytes are not a usable image (422).
    static let undecodable: Set<String> = ["unreadable_image", "empty_file", "image_too_large"]

    static func add(to api: RouterGroup<ServeContext>, state: ServerState) {
        api.post("/scan") { request, _ in
            guard let settings = try state.settings() else {
                throw APIError(
                    .conflict, code: "not_configured", message: "no currency settings yet: save them first (PUT /api/v1/settings)")
            }
            let limit = state.configuration.uploadLimit
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw APIError.tooLarge(limit: limit) }
            var request = request
            let body: ByteBuffer
            do { body = try await request.collectBody(upTo: limit) } catch let error as HTTPError where error.status == .contentTooLarge {
                throw APIError.tooLarge(limit: limit)
            }
            let (bytes, name) = try image(in: body, contentType: request.headers[.contentType] ?? "")
            let pool = try state.scanPool(for: settings)
            let result = await pool.extract(bytes: bytes, name: name)
            if let error = result.error {
                let status: HTTPResponse.Status = undecodable.contains(error.code) ? .unprocessableContent : .internalServerError
                throw APIError(status, code: error.code, message: error.message)
            }
            let entries = entries(result, runID: state.runID)
            if !entries.isEmpty { try await state.history.call { store throws(HistoryError) in try store.append(entries) } }
            state.metrics.scanned(result)
            return Response.json(ResultFormatter.json(result))
        }
    }

    /// The image bytes and the name they go by: the whole body for `image/*`,
    /// the `image` field of a multipart form.
    static func image(in body: ByteBuffer, contentType: String) throws(APIError) -> ([UInt8], String) {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if type.hasPrefix("image/") { return (Array(body.readableBytesView), "upload") }
        if type == "multipart/form-data", let boundary = Multipart.boundary(contentType) {
            guard let part = Multipart.field("image", in: body, boundary: boundary) else {
                throw APIError(.badRequest, code: "missing_image", message: "the form has no `image` field holding a file", field: "image")
            }
            return (part.bytes, part.filename.map { "upload:\($0)" } ?? "upload")
        }
        throw APIError(
            .unsupportedMediaType, code: "unsupported_media_type",
            message:
                "send the image as the body with Content-Type image/jpeg (or image/png, …), or as the `image` field of a multipart/form-data form"
        )
    }

    /// One history row per converted price, as `scan` records them.
    static func entries(_ result: ImageResult, runID: String) -> [HistoryEntry] {
        result.prices.compactMap { HistoryEntry($0, source: result.file, runID: runID) }
    }
}

/// multipart/form-data through MultipartKit's parser.
enum Multipart {
    static func boundary(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    /// The first part named `name`: its bytes and file name.
    static func field(_ name: String, in body: ByteBuffer, boundary: String) -> (bytes: [UInt8], filename: String?)? {
        final class Collected {
            var headers: [String: String] = [:]
            var bytes: [UInt8] = []
            var found: (bytes: [UInt8], filename: String?)?
        }
        let c = Collected()
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { field, value in c.headers[field.lowercased()] = value }
        parser.onBody = { buffer in if c.found == nil { c.bytes += buffer.readableBytesView } }
        parser.onPartComplete = {
            if c.found == nil, let disposition = c.headers["content-disposition"],
                let params = Self.parameters(disposition), params["name"] == name
            {
                c.found = (c.bytes, params["filename"])
            }
            c.headers = [:]
            c.bytes = []
        }
        do { try parser.execute(body) } catch { return nil }
        return c.found
    }

    /// `form-data; name="image"; filename="a.jpg"` → ["name": "image", "filename": "a.jpg"].
    static func parameters(_ disposition: String) -> [String: String]? {
        var out: [String: String] = [:]
        for item in disposition.split(separator: ";").dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2 { out[pair[0].lowercased()] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        return out
    }
}
