import Foundation
public import Hummingbird
public import Pipeline

/// An API failure: the HTTP status and `{"error": {"code", "message", "field"?}}`.
public struct APIError: Error, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var field: String?

    public init(_ status: HTTPResponse.Status, code: String, message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    public var json: JSON {
        var fields: [(String, JSON)] = [("code", .string(code))]
        if let field { fields.append(("field", .string(field))) }
        fields.append(("message", .string(message)))
        return .object([("error", .object(fields))])
    }

    var response: Response { Response.json(json, status: status) }

    static func notFound(_ path: String) -> APIError {
        APIError(.notFound, code: "not_found", message: "no such page or endpoint: \(path) (the API is under /api/v1, see docs/GUIDE.md)")
    }
}

extension Response {
    /// A JSON body (UTF-8) with its content type.
    static func json(_ value: JSON, status: HTTPResponse.Status = .ok) -> Response {
        text(value.serialized(), contentType: "application/json; charset=utf-8", status: status)
    }

    static func text(_ text: String, contentType: String, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:])
        -> Response
    {
        bytes(Array(text.utf8), contentType: contentType, status: status, headers: extra)
    }

    static func bytes(_ bytes: [UInt8], contentType: String, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:])
        -> Response
    {
        var headers = extra
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
