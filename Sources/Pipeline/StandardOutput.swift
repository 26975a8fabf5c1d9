import Foundation
import Synchronization

/// Writes to stdout and stderr with plain `write(2)` calls.
///
/// When the reader of stdout goes away (`pricecam batch ... | head`), writes
/// fail with EPIPE instead of killing the process (SIGPIPE is ignored at
/// start): output stops quietly and the run finishes, so every converted
/// price still reaches the history.
public enum StandardOutput {
    private static let stdoutClosed = Atomic<Bool>(false)

    /// Call once at start, before any output.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    public static func out(_ text: String) {
        guard !stdoutClosed.load(ordering: .relaxed) else { return }
        if !writeAll(STDOUT_FILENO, text) { stdoutClosed.store(true, ordering: .relaxed) }
    }

    public static func err(_ text: String) {
        _ = writeAll(STDERR_FILENO, text)
    }

    /// False when the stream is gone (EPIPE or another write error).
    static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
