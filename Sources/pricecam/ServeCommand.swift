import ArgumentParser
import Capture
import Conversion
import Foundation
import History
import OCR
import Pipeline
import PriceParsing
import Server

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the web app: camera, scan, history and settings in a browser.",
        discussion: """
            Examples:
              pricecam serve               # http://127.0.0.1:8080, /dev/video0 if present
              pricecam serve --replay Fixtures/clean --port 9000
              pricecam serve --host 0.0.0.0 --token "$(openssl rand -hex 16)"
              pricecam serve --host 0.0.0.0 --tls   # a phone's browser as the camera
              pricecam serve --history postgres://pricecam@db.example:5432/prices
            The API is under /api/v1 (docs/GUIDE.md); /metrics is Prometheus text.
            Scans and the camera's prices go to the history the CLI uses (--history,
            else $PRICECAM_HISTORY, else the SQLite default); a PostgreSQL history is
            connected to at start.
            Listening beyond loopback needs a token: give --token, or one is made and
            printed once.
            A phone's browser lets a page use its camera only over HTTPS: --tls makes a
            self-signed certificate on first use (kept beside the settings, in tls/) and
            prints its SHA-256 fingerprint, to compare with the one the phone shows
            before accepting it; --tls-cert and --tls-key use your own instead.
            Ctrl-C (or SIGTERM) stops accepting, finishes the requests in flight, saves the
            history and exits 0.
            """)

    @Option(help: "Address to listen on. Anything but loopback needs a token.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port, printed at start).")
    var port = 8080

    @Option(help: "Require `Authorization: Bearer TOKEN` on every /api request (made and printed when --host is not loopback).")
    var token: String?

    @Option(name: .customLong("upload-limit"), help: "Largest image upload, in MB.")
    var uploadLimitMB = 20

    @Flag(help: "Serve HTTPS with a self-signed certificate (made on first use, fingerprint printed).")
    var tls = false

    @Option(
        name: .customLong("tls-cert"), help: ArgumentHelp("Serve HTTPS with this certificate (PEM; with --tls-key).", valueName: "file"))
    var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The private key of --tls-cert (PEM, unencrypted).", valueName: "file"))
    var tlsKey: String?

    @Option(
        name: .customLong("frame-limit"),
        help: "Largest frame a browser camera may send, in KB (a bigger one closes its stream with 1009, message too big).")
    var frameLimitKB = 2048

    @Option(name: .customLong("stream-fps"), help: "Frames read per second from each browser camera, at most (newer frames replace older).")
    var streamFPS: Double = 10

    @Option(help: "Camera device for the Camera tab (default: /dev/video0 when it exists).")
    var device: String?

    @Option(help: "Replay this folder's images as the camera instead.")
    var replay: String?

    @Flag(help: "With --replay: start again after the last image.")
    var loop = false

    @Flag(name: .customLong("no-camera"), help: "No Camera tab feed, even when /dev/video0 exists.")
    var noCamera = false

    @Option(help: "Frame size to ask the camera for, WxH.")
    var size = "1280x720"

    @Option(help: "Frame rate to ask the camera for (with --replay: the replay rate).")
    var fps: Double = 15

    @Option(name: .long, help: "Camera stability: a price is shown once seen in K of the last M frames read, as K/M.")
    var stable: String = StabilityRule.default.description

    @Option(name: .shortAndLong, help: "OCR workers for scans and for the camera, each (default: the number of cores).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var ocr: OCROptions

    @OptionGroup var historyOption: HistoryOption

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        guard uploadLimitMB >= 1 && uploadLimitMB <= 1024 else {
            throw ValidationError("--upload-limit must be 1 to 1024 (MB), got \(uploadLimitMB)")
        }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        if device != nil && replay != nil { throw ValidationError("give either --device or --replay, not both") }
        if noCamera && (device != nil || replay != nil) {
            throw ValidationError("--no-camera cannot be combined with --device or --replay")
        }
        if loop && replay == nil { throw ValidationError("--loop only applies to --replay") }
        guard FrameSize(parsing: size) != nil else { throw ValidationError("--size must look like 1280x720, got \(size)") }
        guard fps > 0 && fps <= 1000 else { throw ValidationError("--fps must be between 0 and 1000, got \(fps)") }
        guard StabilityRule(parsing: stable) != nil else { throw ValidationError("--stable must be K/M with 1 <= K <= M, got \(stable)") }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("give --tls-cert and --tls-key together") }
        guard frameLimitKB >= 16 && frameLimitKB <= 64 << 10 else {
            throw ValidationError("--frame-limit must be 16 to 65536 (KB), got \(frameLimitKB)")
        }
        guard streamFPS > 0 && streamFPS <= 60 else {
            throw ValidationError("--stream-fps must be above 0 and at most 60, got \(streamFPS)")
        }
        if let token, token.count < 16 { throw ValidationError("--token must be at least 16 characters (e.g. openssl rand -hex 16)") }
    }

    func run() async throws {
        var token = self.token
        if token == nil && !ServeConfiguration.isLoopback(host) {
            token = Self.makeToken()
            Console.err("pricecam serve: listening on \(host) needs a token; this run's token (shown once):\n  \(token!)\n")
        }
        let ocr = self.ocr
        // Check the OCR set-up now, not at the first scan.
        _ = try ocr.configuration(currency: nil)
        let camera: CameraSource
        if let replay {
            camera = .replay(directory: replay, fps: fps, loop: loop)
        } else if noCamera {
            camera = .none
        } else {
            let path = device ?? "/dev/video0"
            let frame = FrameSize(parsing: size)!
            camera =
                device != nil || FileManager.default.fileExists(atPath: path)
                ? .device(path: path, width: frame.width, height: frame.height, fps: fps) : .none
        }
        let location = try historyOption.location()
        let configuration = ServeConfiguration(
            host: host, port: port, token: token, uploadLimit: uploadLimitMB << 20, scanWorkers: jobs, camera: camera, liveWorkers: jobs,
            stability: StabilityRule(parsing: stable)!,
            paths: PricecamPaths.current(), history: location,
            // One browser camera per OCR worker: each has its own engine.
            stream: StreamLimits(frameBytes: frameLimitKB << 10, fps: streamFPS, clients: jobs),
            extraction: { settings in
                let converter = Converter(settings: settings)
                return try ocr.extraction(currency: converter.currency, converter: converter)
            })
        var tlsSetup: TLSSetup?
        if let tlsCert, let tlsKey {
            tlsSetup = .files(certificate: tlsCert, key: tlsKey)
        } else if tls {
            let folder = (configuration.paths.settingsFile as NSString).deletingLastPathComponent
            tlsSetup = .selfSigned(directory: (folder as NSString).appendingPathComponent("tls"))
        }
        var loadedTLS: LoadedTLS?
        if let tlsSetup {
            do { loadedTLS = try tlsSetup.load() } catch {
                Console.error("error: \(error.description)")
                throw ExitCode(2)
            }
            let what = loadedTLS!.made ? "made a self-signed certificate" : "certificate"
            Console.err(
                "pricecam serve: \(what) \(loadedTLS!.certificatePath)\n  SHA-256 fingerprint \(loadedTLS!.fingerprint)\n"
                    + "  (the browser warns about a self-signed certificate: accept it only if it shows this fingerprint)\n")
        }
        let state = ServerState(configuration: configuration)
        // A PostgreSQL server that cannot be reached is an error now, not at the first scan
        // (a SQLite file is opened, and created, on first use).
        if case .postgres = location {
            do { _ = try state.history.opened() } catch {
                Console.error("error: \(error.description)")
                throw ExitCode(2)
            }
        }
        Console.err("pricecam serve: history in \(location.description)\n")
        state.startCamera()
        do {
            let fragment = token.map { "#token=\($0)" } ?? ""
            let scheme = loadedTLS == nil ? "http" : "https"
            try await ServeApp.run(state: state, tls: loadedTLS?.configuration) { port in
                Console.err("pricecam serve: \(scheme)://\(host):\(port)/\(fragment)  (Ctrl-C stops)\n")
            }
        } catch {
            state.shutdown()
            Console.error("cannot serve on \(host):\(port): \(error)")
            throw ExitCode(2)
        }
        state.shutdown()
        Console.err("pricecam serve: stopped; history saved\n")
    }

    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
