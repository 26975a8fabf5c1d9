import HTTPTypes
import Conversion
import Foundation
import History
import OCR
import Pipeline
import Synchronization

/// What the routes share: settings (read from the settings file on each use,
/// so `pricecam setup` in a terminal is seen at once), the scan workers, the
/// history (one backend, SQLite or PostgreSQL), the camera and the metrics.
public final class ServerState: Sendable {
    public let configuration: ServeConfiguration
    public let metrics: ServerMetrics
    public let live: LiveHub
    /// The history every route and the camera use.
    public let history: ServerHistory
    let started = Date()
    /// The browser cameras being read (`GET /api/v1/camera/stream`).
    let streams = StreamSlots()
    /// The run id of this server's scan rows in history.
    let runID = HistoryRecorder.newRunID()

    private struct Scanning {
        var settings: CurrencySettings?
        var pool: ExtractorPool?
    }

    private let scanning = Mutex(Scanning())

    /// `history`: the configuration's history location unless given (tests give a table of their own).
    public init(configuration: ServeConfiguration, history: ServerHistory? = nil) {
        self.configuration = configuration
        let metrics = ServerMetrics()
        self.metrics = metrics
        let history = history ?? ServerHistory(configuration.history)
        self.history = history
        self.live = LiveHub(
            camera: configuration.camera, workers: configuration.liveWorkers, stability: configuration.stability, history: history,
            metrics: metrics, makeSettings: configuration.extraction)
    }

    /// Starts the camera when settings exist (else it starts when they are saved).
    public func startCamera() {
        if let s = try? settings() { live.start(settings: s) }
    }

    /// Stops the camera (flushing its history) and the scan workers after their queued scans,
    /// then lets the history go (a PostgreSQL connection is closed).
    public func shutdown() {
        live.stop()
        let pool = scanning.withLock { s in
            defer { s.pool = nil }
            return s.pool
        }
        pool?.shutdown()
        history.close()
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
}
