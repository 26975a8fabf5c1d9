public import Foundation
import Synchronization

/// A one-line progress bar with rate and ETA, redrawn in place on stderr.
/// Draws nothing unless stderr is a terminal.
public final class ProgressBar: Sendable {
    private let total: Int
    private let enabled: Bool
    private let start = DispatchTime.now().uptimeNanoseconds
    /// When the bar was last drawn; held while drawing, so lines never interleave.
    private let lastDraw = Mutex<UInt64>(0)

    public init(total: Int, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = total
        self.enabled = enabled && total > 0
    }

    /// Call after each item; redraws at most ten times a second and on the last item.
    public func update(done: Int, failed: Int) {
        guard enabled else { return }
        lastDraw.withLock { lastDraw in
            let now = DispatchTime.now().uptimeNanoseconds
            guard done == total || now - lastDraw > 100_000_000 else { return }
            lastDraw = now
            StandardOutput.err("\r\u{1B}[2K" + Self.line(done: done, total: total, failed: failed, seconds: Double(now - start) / 1e9))
        }
    }

    /// Clears the bar so a message can be printed on a clean line.
    public func clearLine() {
        guard enabled else { return }
        StandardOutput.err("\r\u{1B}[2K")
    }

    public func finish() {
        guard enabled else { return }
        StandardOutput.err("\n")
    }

    /// `[########----------]  12/40  3.1 img/s  ETA 9s  (1 failed)`
    public static func line(done: Int, total: Int, failed: Int, seconds: Double, width: Int = 24) -> String {
        let filled = total > 0 ? min(width, done * width / total) : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let eta = rate > 0 ? Int((Double(total - done) / rate).rounded(.up)) : nil
        var s = "[\(bar)] \(done)/\(total)  " + String(format: "%.1f img/s", rate)
        s += "  ETA " + (eta.map { $0 >= 60 ? "\($0 / 60)m\($0 % 60)s" : "\($0)s" } ?? "?")
        if failed > 0 { s += "  (\(failed) failed)" }
        return s
    }
}
