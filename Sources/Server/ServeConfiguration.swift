public import Conversion
import Foundation
public import History
public import Pipeline

/// Everything `pricecam serve` is started with.
public struct ServeConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Required on every /api request (and /metrics) when set: `Authorization: Bearer TOKEN`.
    public var token: String?
    /// Largest upload accepted, in bytes (checked before the body is read).
    public var uploadLimit: Int
    /// OCR workers for scans (one engine each).
    public var scanWorkers: Int
    public var camera: CameraSource
    /// OCR workers for the camera.
    public var liveWorkers: Int
    /// When a camera price counts as seen (`live --stable`).
    public var stability: StabilityRule
    /// The settings file (and the default history file).
    public var paths: PricecamPaths
    /// Where the history lives: a SQLite file (default: `paths`' history file) or PostgreSQL.
    public var history: HistoryLocation
    /// The browser camera stream's per-client limits.
    public var stream: StreamLimits
    /// HTTPS (browsers give a page the camera only over HTTPS, or on localhost); nil: plain HTTP.
    public var tls: TLSSetup?
    /// The extraction settings for the stored currency settings (OCR language,
    /// parser hint, converter): made by the CLI from its OCR options.
    public var extraction: @Sendable (CurrencySettings) throws -> ExtractionSettings

    public init(
        host: String = "127.0.0.1", port: Int = 8080, token: String? = nil, uploadLimit: Int = 20 << 20, scanWorkers: Int = 1,
        camera: CameraSource = .none, liveWorkers: Int = 1, stability: StabilityRule = .default, paths: PricecamPaths,
        history: HistoryLocation? = nil, stream: StreamLimits = StreamLimits(), tls: TLSSetup? = nil,
        extraction: @escaping @Sendable (CurrencySettings) throws -> ExtractionSettings
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.uploadLimit = uploadLimit
        self.scanWorkers = scanWorkers
        self.camera = camera
        self.liveWorkers = liveWorkers
        self.stability = stability
        self.paths = paths
        self.history = history ?? .sqlite(path: paths.historyDatabase)
        self.stream = stream
        self.tls = tls
        self.extraction = extraction
    }

    /// True for 127.0.0.1, ::1, localhost and the rest of 127/8.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
