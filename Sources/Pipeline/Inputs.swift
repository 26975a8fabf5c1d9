import Foundation
import OCR

/// One thing to read: an image path, or a failure found while listing inputs
/// (kept in its place so the output stays in input order).
public enum InputItem: Sendable, Equatable {
    case image(path: String)
    case failed(path: String, InputFailure)

    public var path: String {
        switch self {
        case .image(let p), .failed(let p, _): p
        }
    }
}

/// Lists image files for scan and batch.
public enum Inputs {
    /// `scan IMAGE...`: each argument as given, in order. A directory is an
    /// error record pointing at `batch`.
    public static func explicit(_ paths: [String]) -> [InputItem] {
        paths.map { path in
            var st = stat()
            if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
                return .failed(path: path, InputFailure(ImageError.isDirectory(path: path)))
            }
            return .image(path: path)
        }
    }

    /// `batch DIR`: every image below `root`, recursively, sorted by path so
    /// runs are repeatable. Symlinks are followed; a symlink loop, an
    /// unreadable folder or a dangling image link becomes a failure record.
    /// A directory reached twice (through links) is read once.
    public static func walk(_ root: String) throws(InputFailure) -> [InputItem] {
        var st = stat()
        guard stat(root, &st) == 0 else {
            let e = ImageError(errno: errno, path: root)
            throw InputFailure(e)
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else {
            throw InputFailure(code: "not_a_directory", message: "\(root): not a directory (use `pricecam scan \(root)` for single images)")
        }
        var visited: Set<DirID> = []
        var out: [InputItem] = []
        walk(root, st: st, visited: &visited, into: &out)
        return out
    }

    private struct DirID: Hashable {
        var dev: UInt64
        var ino: UInt64
    }

    private static func walk(_ dir: String, st: stat, visited: inout Set<DirID>, into out: inout [InputItem]) {
        guard visited.insert(DirID(dev: UInt64(st.st_dev), ino: UInt64(st.st_ino))).inserted else { return }
        guard let handle = opendir(dir) else {
            let code = errno
            let failure =
                code == EACCES || code == EPERM
                ? InputFailure(
                    code: "permission_denied",
                    message: "\(dir): cannot list folder: permission denied (make it readable and listable, e.g. chmod a+rx)")
                : InputFailure(code: "io_error", message: "\(dir): cannot list folder: \(String(cString: strerror(code)))")
            out.append(.failed(path: dir, failure))
            return
        }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." || name.hasPrefix(".") { continue }
            names.append(name)
        }
        closedir(handle)
        for name in names.sorted() {
            let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
            var target = stat()
            if stat(path, &target) != 0 {
                let code = errno
                // A loop is reported whatever the name; a dangling link only when it names an image.
                if code == ELOOP || GrayImage.isImageFile(name) {
                    out.append(.failed(path: path, InputFailure(ImageError(errno: code, path: path))))
                }
                continue
            }
            switch target.st_mode & S_IFMT {
            case S_IFDIR: walk(path, st: target, visited: &visited, into: &out)
            case S_IFREG where GrayImage.isImageFile(name): out.append(.image(path: path))
            default: continue
            }
        }
    }
}
