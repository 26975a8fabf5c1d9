public import Capture
import Conversion
public import Foundation
import OCR
import PriceParsing

/// A price as the live view knows it: what was read, when, and how late.
public struct LivePrice: Sendable {
    public var priced: PricedMatch
    /// The sequence number of the frame it was read on.
    public var frame: UInt64
    /// Result time − capture time of that frame (ms).
    public var latencyMs: Double
}

/// Identity of a price across frames: its exact amount and currency (boxes
/// move with the camera; a misread amount is a different price).
public struct PriceKey: Hashable, Sendable {
    public var amount: Decimal
    public var currency: String?

    public init(amount: Decimal, currency: String?) {
        self.amount = amount
        self.currency = currency
    }
}

/// What the live runner tells its output, always from one thread at a time.
public protocol LiveReporter: AnyObject {
    /// A price became stable (report it; append it to history).
    func appeared(_ price: LivePrice)
    /// A stable price left the view.
    func disappeared(_ price: LivePrice)
    /// After each processed frame: the prices in view, in their places.
    func updated(visible: [LivePrice], stats: LiveStats)
    /// Every `statsInterval`, and once at the end (`stats.final`).
    func stats(_ stats: LiveStats)
}

public struct LiveConfiguration: Sendable {
    public var jobs: Int
    public var stability: StabilityRule
    /// Stop after this many frames from the source.
    public var frames: UInt64?
    /// Stop after this many seconds.
    public var duration: Double?
    /// Report stats this often (seconds); nil: only at the end.
    public var statsInterval: Double?
    public var policy: MailboxPolicy
    /// After a device error or SIGINT/SIGTERM: how long a frame still in OCR may finish.
    public var stopGraceSeconds: Double = 2

    public init(
        jobs: Int = 1, stability: StabilityRule = .default, frames: UInt64? = nil, duration: Double? = nil,
        statsInterval: Double? = nil, policy: MailboxPolicy = .latest
    ) {
        self.jobs = jobs
        self.stability = stability
        self.frames = frames
        self.duration = duration
        self.statsInterval = statsInterval
        self.policy = policy
    }
}

/// Source → latest-frame mailbox → OCR workers (one engine each) → stability → reporter.
///
/// The capture loop runs on the calling thread; never blocks on the workers.
public final class LiveRunner {
    public let configuration: LiveConfiguration
    public let settings: ExtractionSettings
    /// The recognizer a worker uses; replaceable in tests (one per worker thread).
    let makeRecognizer: @Sendable (ExtractionSettings) throws -> any LiveRecognizer

    public init(configuration: LiveConfiguration, settings: ExtractionSettings) {
        self.configuration = configuration
        self.settings = settings
        self.makeRecognizer = { try ExtractorRecognizer(settings: $0) }
    }

    init(
        configuration: LiveConfiguration, settings: ExtractionSettings,
        makeRecognizer: @escaping @Sendable (ExtractionSettings) throws -> any LiveRecognizer
    ) {
        self.configuration = configuration
        self.settings = settings
        self.makeRecognizer = makeRecognizer
    }

    /// Runs until the source ends, `stop` is set, or a limit is reached.
    /// Returns the final stats; throws the source's error after shutting down cleanly.
    @discardableResult
    public func run(source: any FrameSource, stop: StopFlag, reporter: any LiveReporter) throws -> LiveStats {
        let mailbox = Mailbox<Frame>(capacity: configuration.jobs, policy: configuration.policy)
        let collector = LiveCollector(
            rule: configuration.stability, reporter: reporter,
            frameInterval: source.frameInterval)
        let workers = try startWorkers(mailbox: mailbox, collector: collector)

        if let duration = configuration.duration {
            DispatchQueue.global().asyncAfter(deadline: .now() + duration) { stop.set(reason: "duration") }
        }
        var captureError: CaptureError?
        var delivered: UInt64 = 0
        var nextStats = configuration.statsInterval.map { Monotonic.now() + UInt64($0 * 1e9) }
        var marks: [UInt64] = [1_000, 10_000]  // resident memory is noted when these are passed
        collector.start()
        do {
            while !stop.isSet, let frame = try source.next(stop: stop) {
                if delivered == 0, let path = ProcessInfo.processInfo.environment["PRICECAM_DUMP_FRAME"] {
                    FrameDump.writePGM(frame, to: path)
                }
                collector.delivered(delay: Monotonic.now() &- frame.timestamp)
                mailbox.put(frame)
                delivered += 1
                collector.source(counters: source.counters, mailboxDropped: mailbox.dropped)
                if let mark = marks.first, source.counters.captured >= mark {
                    collector.markResident(at: mark)
                    marks.removeFirst()
                }
                if let limit = configuration.frames, delivered >= limit { break }
                if let due = nextStats, Monotonic.now() >= due {
                    collector.emitStats(final: false)
                    nextStats = due + UInt64(configuration.statsInterval! * 1e9)
                }
            }
        } catch {
            captureError = error
        }
        mailbox.close()
        // A normal end reads what was taken; after a device error or a signal,
        // a frame still in OCR gets a short grace and is then abandoned (its
        // result is ignored), so stopping never hangs on a slow recognition.
        let interrupted = captureError != nil || (stop.reason?.hasPrefix("SIG") ?? false)
        if interrupted {
            if !workers.wait(timeout: configuration.stopGraceSeconds) { collector.close() }
        } else {
            workers.wait()
        }
        collector.source(counters: source.counters, mailboxDropped: mailbox.dropped)
        let final = collector.emitStats(final: true)
        if let captureError { throw captureError }
        return final
    }

    /// Worker threads, each with its own recognizer, started and initialised
    /// before the first frame is captured (an engine takes ~70 ms to load).
    private func startWorkers(mailbox: Mailbox<Frame>, collector: LiveCollector) throws -> WorkerPool<any Error> {
        let settings = self.settings
        let make = makeRecognizer
        // OCR runs a little below the capture loop's priority, so a busy machine
        // delays reading, never taking frames (which would age them).
        let pool = WorkerPool<any Error>(
            count: configuration.jobs, niceIncrement: 4,
            make: { try make(settings) }, next: { mailbox.take() }
        ) { recognizer, frame in
            let start = Monotonic.now()
            do {
                let prices = try recognizer.prices(in: frame)
                let end = Monotonic.now()
                collector.processed(frame: frame, prices: prices, started: start, finished: end)
            } catch {
                collector.failed(frame: frame, error: error)
            }
        }
        if let error = pool.waitStarted().firstError {
            mailbox.close()
            pool.wait()
            throw error
        }
        return pool
    }
}

/// Turns one frame into prices; one per worker thread (owns an OCR engine).
protocol LiveRecognizer {
    func prices(in frame: Frame) throws -> [PricedMatch]
}

final class ExtractorRecognizer: LiveRecognizer {
    let extractor: Extractor

    init(settings: ExtractionSettings) throws {
        // Frames never use the line recogniser (the total vote reads with it only on files:
        // a frame's re-reads keep a time budget), so a live worker does not load it.
        var settings = settings
        settings.ocr.recognizerModels = nil
        extractor = try Extractor(settings: settings)
        // Every engine is loaded before the first frame, so no frame waits for a model.
        try extractor.reader.loadEngines()
    }

    func prices(in frame: Frame) throws -> [PricedMatch] {
        try extractor.prices(in: GrayImage(frame: frame))
    }
}

/// Writes a frame as a binary PGM (diagnosis: `PRICECAM_DUMP_FRAME=first.pgm`).
enum FrameDump {
    static func writePGM(_ f: Frame, to path: String) {
        var data = Data("P5\n\(f.width) \(f.height)\n255\n".utf8)
        for y in 0..<f.height {
            data.append(contentsOf: f.pixels[(y * f.bytesPerRow)..<(y * f.bytesPerRow + f.width)])
        }
        if !FileManager.default.createFile(atPath: path, contents: data) {
            StandardOutput.err("pricecam: cannot write the frame dump to \(path) (PRICECAM_DUMP_FRAME)\n")
        }
    }
}
