import Foundation
public import OCR

extension Extractor {
    /// The networks a worker runs (each one worker's at a time: neither is thread-safe).
    public struct Nets {
        public var detector: TextDetectorNet?
        public var recognizer: TextRecognizerNet?
        public init(detector: TextDetectorNet? = nil, recognizer: TextRecognizerNet? = nil) {
            self.detector = detector
            self.recognizer = recognizer
        }

        /// The detector net of the model at `path`: the one held when it runs that model,
        /// else a new one.
        func detector(for path: String) throws(DetectorError) -> TextDetectorNet {
            if let net = detector, net.path == path { return net }
            return try TextDetectorNet(path: path)
        }

        /// The recogniser net of the models in `directory`: the one held when it runs them,
        /// else a new one.
        func recognizer(for directory: String) throws(RecognizerError) -> TextRecognizerNet {
            if let net = recognizer, net.directory == directory { return net }
            return try TextRecognizerNet(directory: directory)
        }
    }

    /// This worker's networks, for the next batch's workers (`NetShelf`).
    public var nets: Nets { Nets(detector: reader.detector?.net, recognizer: reader.recognizer) }
}

/// Networks kept from one batch's workers for the next batch's, when a run reads several
/// batches one after another (`eval` reads each currency's images as a batch with that
/// shop's settings): the same models, so a worker takes a finished worker's nets instead of
/// making its own. Making them is most of a worker's start (the detector's 0.3–0.5 s of CPU,
/// the recogniser's per input width; a Tesseract model loads in 10–40 ms): the fixture
/// menus, 22 images in seven currencies, made 14 of each for two workers.
public final class NetShelf: @unchecked Sendable {
    private let lock = NSLock()
    /// Nets no worker holds.
    private var free: [Extractor.Nets] = []
    /// Nets a running batch's workers hold, free again when it ends (`release`).
    private var lent: [Extractor.Nets] = []

    public init() {}

    /// How many workers' nets are free (tests).
    var freeCount: Int { lock.withLock { free.count } }

    /// Nets for a new worker (empty when none is free: the worker makes its own).
    func take() -> Extractor.Nets {
        lock.withLock { free.popLast() ?? Extractor.Nets() }
    }

    /// A worker's nets, held until its batch ends.
    func lend(_ nets: Extractor.Nets) {
        lock.withLock { lent.append(nets) }
    }

    /// The batch has ended: its workers' nets are free for the next.
    func release() {
        lock.withLock {
            free += lent
            lent = []
        }
    }
}
