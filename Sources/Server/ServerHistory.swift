import HTTPTypes
import Foundation
public import History
import NIOPosix
import Synchronization

/// The server's one history (SQLite or PostgreSQL): opened on first use, and again after
/// an open that failed; shared by every route and by the camera's recorder.
///
/// Its calls block (a SQLite lock, a PostgreSQL round trip), so the routes run them on
/// NIO's thread pool for blocking work (`call`), never on an event loop or on the
/// threads of Swift's cooperative pool.
public final class ServerHistory: Sendable {
    /// For messages: the file path, or the URL without its password.
    public let location: String
    private let open: @Sendable () throws(HistoryError) -> any HistoryBackend
    private let backend = Mutex<(any HistoryBackend)?>(nil)

    /// What a failure's fix ends with (serve has no --no-history).
    static let advice = "or start pricecam serve with another --history (a PostgreSQL URL or a SQLite file)"

    /// The history at `location` (its file or table is created when missing).
    public convenience init(_ location: HistoryLocation) {
        self.init(location: location.description) { () throws(HistoryError) in try location.open() }
    }

    /// `open` makes the backend: tests give a PostgreSQL table of their own.
    public init(location: String, open: @escaping @Sendable () throws(HistoryError) -> any HistoryBackend) {
        self.location = location
        self.open = open
    }

    /// The backend, opened on first use (blocks: not on an event loop).
    public func opened() throws(HistoryError) -> any HistoryBackend {
        do {
            return try backend.withLock { (b: inout (any HistoryBackend)?) throws(HistoryError) -> any HistoryBackend in
                if let b { return b }
                let made = try open()
                b = made
                return made
            }
        } catch {
            throw error.advising(Self.advice)
        }
    }

    /// Lets the backend go: a PostgreSQL connection closes once the last call using it ends.
    /// A later call opens it again.
    func close() {
        backend.withLock { $0 = nil }
    }

    /// `body` on the backend, on NIO's blocking thread pool. Failures are API errors naming
    /// the history and what to do: 503 `history_unavailable` when the database cannot be
    /// reached (or was never opened), else 500 `history_failed`.
    func call<T: Sendable>(_ body: @escaping @Sendable (any HistoryBackend) throws(HistoryError) -> T) async throws(APIError) -> T {
        let result: Result<T, APIError>
        do {
            result = try await NIOThreadPool.singleton.runIfActive { [self] () -> Result<T, APIError> in
                let store: any HistoryBackend
                do throws(HistoryError) { store = try opened() } catch {
                    return .failure(Self.apiError(error, code: "history_unavailable"))
                }
                do throws(HistoryError) { return .success(try body(store)) } catch {
                    let failure = error.advising(Self.advice)
                    return .failure(Self.apiError(failure, code: failure.unavailable ? "history_unavailable" : "history_failed"))
                }
            }
        } catch {
            throw APIError(
                .serviceUnavailable, code: "history_unavailable", message: "history \(location): not reached, the server is stopping")
        }
        return try result.get()
    }

    static func apiError(_ error: HistoryError, code: String) -> APIError {
        APIError(error.unavailable ? .serviceUnavailable : .internalServerError, code: code, message: error.description)
    }
}
