import Foundation
import Synchronization

/// A result file that appears complete or not at all: written to a hidden
/// temporary name beside it (`.NAME.partial-PID`), flushed to disk, and renamed
/// over NAME only by `commit()`. A run killed midway leaves the temporary file,
/// never a half file under the final name (`batch --output`, `merge --output`).
public final class OutputFile: Sendable {
    public let path: String
    public let temporaryPath: String
    private let fd: Int32
    private let failure = Mutex<String?>(nil)

    public init(path: String) throws(InputFailure) {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        self.path = path
        temporaryPath = (dir.isEmpty ? "." : dir) + "/.\(url.lastPathComponent).partial-\(getpid())"
        fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 {
            throw InputFailure(
                code: "output_unwritable",
                message:
                    "\(path): cannot write the output here (\(String(cString: strerror(errno)))); check the folder exists and is writable")
        }
    }

    deinit { close(fd) }

    /// Appends `text`; the first failure is kept and reported by `commit()`.
    public func write(_ text: String) {
        if !StandardOutput.writeAll(fd, text) {
            let reason = String(cString: strerror(errno))
            failure.withLock { if $0 == nil { $0 = reason } }
        }
    }

    /// Flushes to disk and renames into place; throws (leaving the temporary
    /// file for inspection) when a write or the rename failed.
    public func commit() throws(InputFailure) {
        var problem = failure.withLock { $0 }
        if problem == nil && fsync(fd) != 0 { problem = String(cString: strerror(errno)) }
        if problem == nil && rename(temporaryPath, path) != 0 { problem = String(cString: strerror(errno)) }
        if let problem {
            throw InputFailure(
                code: "output_unwritable",
                message: "\(path): the output could not be completed (\(problem)); the partial file is \(temporaryPath)")
        }
    }
}
