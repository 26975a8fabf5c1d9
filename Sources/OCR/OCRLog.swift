import Foundation

/// Diagnostics of the OCR stage: with `PRICECAM_DEBUG` set, each step (regions found, the
/// reading chosen, every re-read and its scores) is written to stderr.
public enum OCRLog {
    public static let enabled = ProcessInfo.processInfo.environment["PRICECAM_DEBUG"] != nil

    public static func write(_ message: @autoclosure () -> String) {
        guard enabled else { return }
        // `write(contentsOf:)` throws when stderr's reader is gone (`2>&1 | head`), where
        // `write(_:)` traps: diagnostics never stop a run.
        try? FileHandle.standardError.write(contentsOf: Data((message() + "\n").utf8))
    }
}
