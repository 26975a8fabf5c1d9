import History
public import ArgumentParser
import Capture
import Foundation
import OCR
import Pipeline
import PriceParsing
import Synchronization

struct Live: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert prices live from a webcam or a replayed image folder.",
        discussion: """
            Examples:
              pricecam live                          # /dev/video0, 1280x720 at 30 fps
              pricecam live --device /dev/video2 --size 640x480 --fps 15
              pricecam live --format jsonl --frames 300 --stats
              pricecam live --source Fixtures/clean --fps 30 --loop --duration 10
            A price is reported once it is seen in K of the last M frames read (--stable),
            once per appearance. Prices are converted with the stored settings; --currency
            and --rate convert this run with those instead, and store nothing.
            Ctrl-C stops cleanly; a second Ctrl-C exits at once (status 130) after saving
            the history recorded so far. Exit code 3 on a device error (missing, busy, not
            a capture device, no permission, unsupported format, unplugged mid-stream).
            """)

    @Option(name: .long, help: "Video capture device.")
    var device: String?

    @Option(name: .long, help: "Replay this folder's images as frames instead of a camera.")
    var source: String?

    @Flag(name: .long, help: "With --source: start again after the last image.")
    var loop = false

    @Option(name: .long, help: "Frame size to ask the camera for, WxH (the driver may pick the closest).")
    var size: String = "1280x720"

    @Option(name: .long, help: "Frame rate to ask the camera for (with --source: the replay rate).")
    var fps: Double = 30

    @Option(name: .shortAndLong, help: "OCR workers, one engine each (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: "Stability: report a price seen in K of the last M frames read, as K/M.")
    var stable: String = StabilityRule.default.description

    @Option(name: .long, help: "Stop after this many frames.")
    var frames: UInt64?

    @Option(name: .long, help: "Stop after this many seconds.")
    var duration: Double?

    @Flag(name: .long, help: "Show stats every few seconds ({\"event\":\"stats\"} lines with --format jsonl).")
    var stats = false

    @Option(name: .long, help: "Seconds between stats with --stats.")
    var statsInterval: Double = 2

    @Option(name: .long, help: "Use only this pixel format (a FourCC such as YUYV, NV12, GREY, MJPG); default: the best one offered.")
    var pixelFormat: String?

    @Option(name: .long, help: "mmap buffers to stream with (2-4).")
    var buffers: Int = 4

    @Option(
        name: .long, help: ArgumentHelp("Frame hand-off: latest (default) or fifo (unbounded; for benchmarks only).", visibility: .hidden))
    var queue: MailboxPolicy = .latest

    @OptionGroup var output: FormatOptions
    @OptionGroup var ocr: OCROptions

    @OptionGroup var accuracy: AccuracyOption
    @OptionGroup var conversion: ConversionOptions

    func validate() throws {
        if device != nil && source != nil { throw ValidationError("give either --device or --source, not both") }
        if loop && source == nil { throw ValidationError("--loop only applies to --source") }
        guard FrameSize(parsing: size) != nil else { throw ValidationError("--size must look like 1280x720, got \(size)") }
        guard fps > 0 && fps <= 1000 else { throw ValidationError("--fps must be between 0 and 1000, got \(fps)") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        guard StabilityRule(parsing: stable) != nil else { throw ValidationError("--stable must be K/M with 1 <= K <= M, got \(stable)") }
        if let pixelFormat, pixelFormat.isEmpty || pixelFormat.count > 4 || source != nil {
            throw ValidationError("--pixel-format takes a FourCC (YUYV, NV12, GREY, MJPG) and applies to --device only")
        }
        guard (2...4).contains(buffers) else { throw ValidationError("--buffers must be 2, 3 or 4, got \(buffers)") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be positive") }
        if let frames, frames == 0 { throw ValidationError("--frames must be positive") }
        if output.format == .csv { throw ValidationError("live output is table or jsonl, not csv") }
        guard statsInterval > 0 else { throw ValidationError("--stats-interval must be positive") }
    }

    func run() throws {
        let prepared = try conversion.prepare(interactiveSetupAllowed: true)
        let settings = try ocr.extraction(
            currency: prepared.currencyHint, converter: prepared.converter, accuracy: accuracy.options, live: true)
        let recorder = prepared.history
        let stop = StopFlag()
        let signals = LiveSignals(stop: stop, beforeExit: { _ = recorder?.finish() })
        defer { signals.cancel() }

        let frameSource: any FrameSource
        let origin: (key: String, value: String)
        let header: String
        do {
            if let source {
                frameSource = try CameraSource.replay(directory: source, fps: fps, loop: loop).open(limits: ocr.limits)!
                origin = ("source", source)
                header = "pricecam live: replaying \(source) at \(FrameInterval.formatFPS(fps)) fps"
            } else {
                let path = device ?? "/dev/video0"
                let frame = FrameSize(parsing: size)!
                frameSource = try CameraSource.device(
                    path: path, width: frame.width, height: frame.height, fps: fps, fourcc: pixelFormat, buffers: buffers
                ).open(limits: ocr.limits)!
                origin = ("device", path)
                header = "pricecam live: \(path) \((frameSource as? V4L2Capture)?.applied.summary ?? "")"
            }
        } catch {
            Console.error("\(error)")
            throw ExitCode(3)
        }

        let format = output.resolved
        let liveView =
            format == .table && isatty(STDERR_FILENO) == 1
            || format == .jsonl && isatty(STDERR_FILENO) == 1 && isatty(STDOUT_FILENO) == 0
        if !liveView { Console.err(header + "\n") }
        let reporter = LiveOutput(
            mode: format == .jsonl ? .jsonl : .table, origin: origin, header: header,
            liveView: liveView, periodicStats: stats,
            onAppear: { price in
                // The device (or replay folder) and the frame the price became stable on.
                recorder?.record(price.priced, source: "\(origin.value)#\(price.frame)")
            })
        let runner = LiveRunner(
            configuration: LiveConfiguration(
                jobs: jobs, stability: StabilityRule(parsing: stable)!, frames: frames,
                duration: duration, statsInterval: stats ? statsInterval : nil, policy: queue),
            settings: settings)
        var failure: (any Error)?
        do {
            try runner.run(source: frameSource, stop: stop, reporter: reporter)
        } catch {
            failure = error
        }
        let historyOK = recorder?.finish() ?? true
        if let error = failure as? CaptureError {
            Console.error("\(error)")
            throw ExitCode(3)
        } else if let failure {
            Console.error("\(failure)")
            throw ExitCode(2)
        }
        if let reason = stop.reason, reason.hasPrefix("SIG") { Console.error("stopped by \(reason)") }
        if !historyOK { throw ExitCode(1) }
    }
}

extension MailboxPolicy: ExpressibleByArgument {}

/// SIGINT and SIGTERM ask the live run to stop (streaming ends, buffers are
/// released, history is flushed). A second one exits at once with status 130,
/// after `beforeExit` (which saves the history recorded so far); a third one
/// while that runs exits without waiting for it.
final class LiveSignals {
    private let sources: [any DispatchSourceSignal]

    init(stop: StopFlag, beforeExit: @escaping @Sendable () -> Void) {
        let received = SignalCount()
        sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { sig, name in
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler {  // a cycle until cancel(), which releases the handler
                // Signals that arrive before the handler runs are merged into one
                // event; `data` says how many there were.
                let count = received.add(Int(s.data))
                if count >= 3 { Self.exitNow() }
                if count == 2 || stop.isSet {
                    // Not on this handler's thread: a third signal must still get through.
                    DispatchQueue.global().async {
                        beforeExit()
                        Self.exitNow()
                    }
                    return
                }
                stop.set(reason: name)
            }
            s.resume()
            return s
        }
    }

    func cancel() {
        for s in sources { s.cancel() }
    }

    /// Exits with status 130 at once, output flushed, without running exit handlers or static
    /// destructors: the workers are still reading, and `exit()` would destroy the globals of
    /// OpenCV and Tesseract under them (a segmentation fault in libopencv_core seen on a second
    /// Ctrl-C during a detection). What must survive is saved before (`beforeExit`: the history).
    static func exitNow() -> Never {
        fflush(nil)
        _exit(130)
    }
}

/// Signals received so far, by every signal source.
private final class SignalCount: Sendable {
    private let value = Atomic<Int>(0)

    /// Adds `n` and returns the new total.
    func add(_ n: Int) -> Int { value.add(max(n, 1), ordering: .relaxed).newValue }
}
