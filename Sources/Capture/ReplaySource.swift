import Foundation

/// Feeds the images of a folder as frames at a fixed rate, like a camera:
/// frame `i` is due at `start + i × interval` and is stamped when delivered.
/// Images are decoded once, up front; frames share their pixel storage.
public final class ReplaySource: FrameSource {
    public let name: String
    public let frameInterval: UInt64?
    public private(set) var counters = SourceCounters()
    private let images: [Frame]
    private let loop: Bool
    private var start: UInt64?

    /// - Parameters:
    ///   - extensions: the file extensions (lowercase) that are images (the OCR module's list).
    ///   - decode: reads one image file as a gray frame (the OCR module's loader).
    ///   - loop: start again from the first image after the last (else the source ends).
    public init(directory: String, fps: Double, loop: Bool, extensions: Set<String>, decode: (String) throws -> Frame) throws(CaptureError)
    {
        precondition(fps > 0, "fps must be positive")
        name = directory
        frameInterval = UInt64((1_000_000_000 / fps).rounded())
        self.loop = loop
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted()
        } catch {
            throw .emptyReplay(directory: directory, reason: "cannot list the folder (\(error.localizedDescription))")
        }
        var decoded: [Frame] = []
        var firstError: String?
        for f in files {
            let path = (directory as NSString).appendingPathComponent(f)
            do { decoded.append(try decode(path)) } catch { firstError = firstError ?? "\(error)" }
        }
        guard !decoded.isEmpty else {
            throw .emptyReplay(
                directory: directory, reason: firstError ?? "no image files (\(extensions.sorted().joined(separator: ", "))) in it")
        }
        images = decoded
    }

    public func next(stop: StopFlag) throws(CaptureError) -> Frame? {
        let i = counters.captured
        if !loop && i >= UInt64(images.count) { return nil }
        let now = Monotonic.now()
        let start = self.start ?? now
        self.start = start
        let due = start + i * (frameInterval ?? 0)
        // Sleep in short steps so a stop request is seen promptly.
        while true {
            if stop.isSet { return nil }
            let t = Monotonic.now()
            if t >= due { break }
            let wait = min(due - t, 50_000_000)
            var ts = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
            nanosleep(&ts, nil)
        }
        let image = images[Int(i % UInt64(images.count))]
        counters.captured += 1
        return Frame(
            width: image.width, height: image.height, bytesPerRow: image.bytesPerRow,
            pixels: image.pixels, sequence: i, timestamp: Monotonic.now(), colour: image.colour)
    }
}
