import Conversion
import Foundation
import History
import OCR
import Pipeline
import Synchronization

/// What the routes share: settings (read from the settings file on each use,
/// so `pricecam setup` in a terminal is seen at once), the scan workers, the
/// history database, the camera and the metrics.
public final class ServerState: Sendable {
    public let configuration: ServeConfiguration
    public let metrics: ServerMetrics
    public let live: LiveHub
    let started = Date()
    /// The run id of this server's scan rows in history.
    let runID = HistoryRecorder.newRunID()

    private struct Scanning {
        var settings: CurrencySettings?
        var pool: ExtractorPool?
    }

    private let scanning = Mutex(Scanning())
    private let history = Mutex<HistoryStore?>(nil)

    public init(configuration: ServeConfiguration) {
        self.configuration = configuration
        let metrics = ServerMetrics()
        self.metrics = metrics
        self.live = LiveHub(
            camera: configuration.camera, workers: configuration.liveWorkers, stability: configuration.stability,
            historyPath: configuration.paths.historyDatabase,
            metrics: metrics, makeSettings: configuration.extraction)
    }

    /// Starts the camera when settings exist (else it starts when they are saved).
    public func startCamera() {
        if let s = try? settings() { live.start(settings: s) }
    }

    /// Stops the camera (flushing its history) and the scan workers after their queued scans.
    public func shutdown() {
        live.stop()
        let pool = scanning.withLock { s in
            defer { s.pool = nil }
            return s.pool
        }
        pool?.shutdown()
    }

    var settingsPath: String { configuration.paths.settingsFile }

    /// The stored settings; nil before setup.
    func settings() throws(APIError) -> CurrencySettings? {
        do { return try SettingsFile.load(path: settingsPath) } catch {
            throw APIError(.internalServerError, code: "settings_unreadable", message: error.description)
        }
    }

    func save(_ settings: CurrencySettings) throws(APIError) {
        do { try SettingsFile.save(settings, path: settingsPath) } catch {
            throw APIError(.internalServerError, code: "settings_unwritable", message: error.description)
        }
        live.start(settings: settings)
    }

    /// The scan workers for these settings, made (and the old ones let go) when they change.
    func scanPool(for settings: CurrencySettings) throws(APIError) -> ExtractorPool {
        try scanning.withLock { (s: inout Scanning) throws(APIError) -> ExtractorPool in
            if let pool = s.pool, s.settings == settings { return pool }
            s.pool?.close()  // its workers finish the scans already queued, then end
            s.pool = nil
            do {
                let pool = try ExtractorPool(settings: configuration.extraction(settings), workers: configuration.scanWorkers)
                s.pool = pool
                s.settings = settings
                return pool
            } catch {
                throw APIError(.internalServerError, code: "ocr_unavailable", message: "cannot start the OCR engine: \(error)")
            }
        }
    }

    /// The history database, opened (and created) on first use.
    func store() throws(APIError) -> HistoryStore {
        try history.withLock { (h: inout HistoryStore?) throws(APIError) -> HistoryStore in
            if let h { return h }
            do {
                let store = try HistoryStore(path: configuration.paths.historyDatabase)
                h = store
                return store
            } catch {
                throw APIError(.internalServerError, code: "history_unavailable", message: "\(error)")
            }
        }
    }

    func historyCall<T>(_ body: (HistoryStore) throws(HistoryError) -> T) throws(APIError) -> T {
        let s = try store()
        do { return try body(s) } catch {
            throw APIError(.internalServerError, code: "history_failed", message: error.description)
        }
    }
}
