import Conversion
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import OCR
import Pipeline
import PriceParsing
import Server
import Testing

@testable import History
import TestSupport

/// Where a test server keeps its history.
enum TestHistory {
    /// history.sqlite in the server's temporary folder.
    case sqlite
    /// A table of its own in the database PRICECAM_TEST_POSTGRES names, so that tests running at once do not see each other's rows.
    case postgres
    /// This location, as `pricecam serve --history` would take it.
    case location(HistoryLocation)

    /// The database PRICECAM_TEST_POSTGRES names (scripts/test-postgres.sh starts one); the suites that need it are skipped without it.
    static let postgresURL: PostgresURL? = ProcessInfo.processInfo.environment["PRICECAM_TEST_POSTGRES"].flatMap { try? PostgresURL($0) }

    /// nil: the configuration's (the SQLite file in `home`).
    var server: ServerHistory? {
        switch self {
        case .sqlite: return nil
        case .location(let location): return ServerHistory(location)
        case .postgres:
            let url = Self.postgresURL!
            let table = "serve_test_" + UUID().uuidString.prefix(13).lowercased().replacingOccurrences(of: "-", with: "")
            return ServerHistory(location: url.redacted) { () throws(HistoryError) in try PostgresHistoryStore(url: url, table: table) }
        }
    }
}

/// A server over a fresh settings file and history (a SQLite file in a temporary folder, unless told).
struct TestServer {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .path
    static let fixtures = "\(root)/Fixtures"

    let home: String
    let state: ServerState

    init(
        token: String? = nil, uploadLimit: Int = 20 << 20, camera: CameraSource = .none, history: TestHistory = .sqlite,
        stream: StreamLimits = StreamLimits()
    ) throws {
        home = try Scratch.folder("pricecam-serve")
        let ocr = OCRConfiguration(
            tessdata: try Tessdata.locate(explicit: nil), priceModel: Tessdata.locatePriceModel(explicit: nil),
            detectorModel: try Tessdata.locateDetectorModel(),
            recognizerModels: try Tessdata.locateRecognizerModels())
        state = ServerState(
            configuration: ServeConfiguration(
                host: "127.0.0.1", port: 0, token: token, uploadLimit: uploadLimit, scanWorkers: 1, camera: camera, liveWorkers: 1,
                // Camera tests: a price counts on the first frame it is read on (the tests wait for it, not for a rate).
                stability: StabilityRule(k: 1, m: 1),
                paths: PricecamPaths(settingsFile: home + "/settings.toml", historyDatabase: home + "/history.sqlite"),
                stream: stream,
                extraction: { settings in
                    let converter = Converter(settings: settings)
                    return ExtractionSettings(ocr: ocr, parser: ParserOptions(currencyHint: converter.currency), converter: converter)
                }), history: history.server)
    }

    /// Runs `body` against the app (in process, or on a real socket for `.live`), then stops everything.
    func test<T>(_ setup: TestingSetup = .router, _ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        defer {
            state.shutdown()
            try? FileManager.default.removeItem(atPath: home)
        }
        return try await ServeApp.application(state: state).test(setup, body)
    }

    /// Settings saved as a user would (through the API's own file format).
    func configure(currency: String = "JPY", rate: String = "0.0061", home homeCurrency: String? = "EUR") throws {
        try SettingsFile.save(CurrencySettings.validated(currency: currency, rate: rate, home: homeCurrency), path: home + "/settings.toml")
    }
}

extension TestClientProtocol {
    /// A GET on a server under test, asked again whenever the test client stops waiting for its
    /// answer. Hummingbird's `.live` client waits a fixed 20 s; in a full `swift test` run,
    /// synchronous OCR tests can hold both threads of Swift's cooperative pool (two on this
    /// machine) for longer than that, and the server's handler waits with them. That is load,
    /// not the server's answer: the answer is checked, its time is not (the test's own time limit
    /// bounds the waiting).
    func get(_ uri: String) async throws -> TestResponse {
        while true {
            do {
                return try await executeRequest(uri: uri, method: .get, headers: [:], body: nil)
            } catch TestClient.Error.readTimeout {
                try Task.checkCancellation()
            }
        }
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The body as a JSON object.
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// `error.code` of an API error body.
    var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
    var errorField: String? { (object["error"] as? [String: Any])?["field"] as? String }
}

extension ByteBuffer {
    init(json: String) { self.init(string: json) }
}

/// Ground truth of a fixture image, from the generator's gt.json.
func fixtureTruth(_ family: String, _ file: String) throws -> (amounts: [String], currencies: [String]) {
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(TestServer.fixtures)/\(family)/gt.json"))
    let all = try JSONSerialization.jsonObject(with: data) as! [String: Any]
    let entry = all[file] as! [String: Any]
    return (entry["amounts"] as! [String], entry["currencies"] as! [String])
}

func fixtureBytes(_ family: String, _ file: String) throws -> ByteBuffer {
    ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: "\(TestServer.fixtures)/\(family)/\(file)")))
}

let jsonHeaders: HTTPFields = [.contentType: "application/json"]

enum CurrencySettingsForTest {
    static func make() throws -> CurrencySettings { try CurrencySettings.validated(currency: "JPY", rate: "0.0061", home: "EUR") }
    static func save(_ s: CurrencySettings, home: String) throws { try SettingsFile.save(s, path: home + "/settings.toml") }
}

/// Rows put straight into the server's history (the scan tests cover recording).
func seedHistory(_ server: TestServer, _ rows: [(source: String, text: String, amount: String, currency: String)]) throws {
    let store = try server.state.history.opened()
    let rate = Decimal(string: "0.5")!
    try store.append(
        rows.enumerated().map { i, r in
            let amount = Decimal(string: r.amount)!
            return HistoryEntry(
                time: Date(timeIntervalSince1970: 1_700_000_000 + Double(i)), source: r.source, rawText: r.text, amount: amount,
                currency: r.currency, rate: rate, converted: amount * rate, home: "EUR", confidence: 0.9, box: [1, 2, 3, 4], runID: "seed")
        })
}
