import Foundation
import Synchronization

/// Folders the tests make for their files, all inside one folder per test process,
/// `pricecam-test-run-PID` in the system's temporary folder, which is removed when the process
/// exits. A test that fails keeps nothing it needs after the run: its output is in the report.
/// A run killed before its exit leaves its folder; the next test process removes the folders
/// of processes no longer running. `PRICECAM_KEEP_TEST_FILES=1` keeps them, to look at.
///
/// Without it every run left its folders behind: about 140 `pricecam-cli-*` homes, the
/// history tests' databases and the OCR tests' copies (84 MB after six runs).
public enum Scratch {
    /// A new empty folder `PREFIX-UUID` in this process's run folder, readable by others (a
    /// test may run pricecam as another user).
    public static func folder(_ prefix: String) throws -> String {
        let dir = (try runFolder() as NSString).appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chmod(dir, 0o755)
        return dir
    }

    /// This process's run folder, made (and the stale ones of dead processes removed) on first use.
    static func runFolder() throws -> String {
        try run.withLock { made throws -> String in
            if let made { return made }
            let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(runPrefix)\(getpid())")
            removeStale()
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            chmod(dir, 0o755)
            made = dir
            if ProcessInfo.processInfo.environment["PRICECAM_KEEP_TEST_FILES"] != "1" {
                atexit { Scratch.removeRunFolder() }
            }
            return dir
        }
    }

    static let runPrefix = "pricecam-test-run-"
    private static let run = Mutex<String?>(nil)

    private static func removeRunFolder() {
        if let dir = run.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: dir) }
    }

    /// Removes the run folders of processes that are no longer running (a run killed before
    /// its exit handler).
    private static func removeStale() {
        let tmp = NSTemporaryDirectory()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: tmp) else { return }
        for name in names where name.hasPrefix(runPrefix) {
            guard let pid = pid_t(name.dropFirst(runPrefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: (tmp as NSString).appendingPathComponent(name))
            }
        }
    }
}
