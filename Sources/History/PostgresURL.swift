import Foundation

/// `postgres://USER[:PASS]@HOST[:PORT]/DB`, parsed. User and password may be
/// percent-encoded; the port defaults to 5432.
public struct PostgresURL: Sendable, Equatable {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String

    public init(user: String, password: String?, host: String, port: Int, database: String) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
    }

    public init(_ text: String) throws(HistoryError) {
        let shape = "postgres://USER[:PASS]@HOST:PORT/DB"
        func bad(_ problem: String) -> HistoryError {
            HistoryError(
                path: PostgresURL.redact(text), problem: "not a PostgreSQL URL: \(problem)",
                fix: "write it as \(shape), e.g. postgres://pricecam@db.example:5432/pricecam")
        }
        guard let c = URLComponents(string: text), c.scheme == "postgres" || c.scheme == "postgresql" else {
            throw bad("cannot be parsed")
        }
        guard let user = c.user, !user.isEmpty else { throw bad("no user name") }
        guard let host = c.host, !host.isEmpty else { throw bad("no host") }
        let database = String(c.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw bad("no database name after the host") }
        if let port = c.port, !(1...65535).contains(port) { throw bad("port \(port) is out of range") }
        self.user = user.removingPercentEncoding ?? user
        self.password = c.password.map { $0.removingPercentEncoding ?? $0 }
        self.host = host
        self.port = c.port ?? 5432
        self.database = database.removingPercentEncoding ?? database
    }

    /// The URL without the password, for messages.
    public var redacted: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// `text` with any password replaced by `***` (for messages about URLs that do not parse).
    static func redact(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let scheme = text.range(of: "://"), scheme.upperBound < at,
            let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
        else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }
}
