import Foundation

/// Why an image could not be read. Each case names the file and says what to do.
public enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(path: String)
    case permissionDenied(path: String)
    case isDirectory(path: String)
    case symlinkLoop(path: String)
    case empty(path: String)
    case fileTooLarge(path: String, bytes: Int64, limit: Int64)
    case tooManyPixels(path: String, width: Int, height: Int, limit: Int)
    case unreadable(path: String, reason: String)
    case io(path: String, reason: String)

    /// The error a failed system call on `path` means.
    public init(errno code: Int32, path: String) {
        switch code {
        case ENOENT, ENOTDIR: self = .notFound(path: path)
        case EACCES, EPERM: self = .permissionDenied(path: path)
        case ELOOP: self = .symlinkLoop(path: path)
        case EISDIR: self = .isDirectory(path: path)
        default: self = .io(path: path, reason: String(cString: strerror(code)))
        }
    }

    /// A stable machine-readable code for the output contract.
    public var code: String {
        switch self {
        case .notFound: "not_found"
        case .permissionDenied: "permission_denied"
        case .isDirectory: "is_directory"
        case .symlinkLoop: "symlink_loop"
        case .empty: "empty_file"
        case .fileTooLarge, .tooManyPixels: "image_too_large"
        case .unreadable: "unreadable_image"
        case .io: "io_error"
        }
    }

    public var path: String {
        switch self {
        case .notFound(let p), .permissionDenied(let p), .isDirectory(let p), .symlinkLoop(let p),
            .empty(let p), .fileTooLarge(let p, _, _), .tooManyPixels(let p, _, _, _),
            .unreadable(let p, _), .io(let p, _):
            p
        }
    }

    public var description: String {
        switch self {
        case .notFound(let p):
            "\(p): no such file or directory (check the path)"
        case .permissionDenied(let p):
            "\(p): permission denied (make it readable, e.g. chmod a+r)"
        case .isDirectory(let p):
            "\(p): is a directory (use `pricecam batch \(p)` for folders)"
        case .symlinkLoop(let p):
            "\(p): too many levels of symbolic links (a symlink loop; fix or remove the link)"
        case .empty(let p):
            "\(p): empty file (0 bytes); nothing to read"
        case .fileTooLarge(let p, let bytes, let limit):
            "\(p): file is \(bytes) bytes, over the \(limit)-byte limit"
        case .tooManyPixels(let p, let w, let h, let limit):
            "\(p): image is \(w)x\(h) = \(w * h) pixels, over the limit of \(limit) (raise it with --max-pixels if the image is genuine)"
        case .unreadable(let p, let reason):
            "\(p): \(reason)"
        case .io(let p, let reason):
            "\(p): read error: \(reason)"
        }
    }
}

/// Limits that guard against hostile or accidental giant inputs.
public struct ImageLimits: Sendable, Hashable {
    /// Largest width × height accepted, checked from the header before decoding
    /// (a decompression-bomb guard). Default 100 megapixels.
    public var maxPixels: Int
    /// Largest file size read into memory. Default 256 MiB.
    public var maxFileBytes: Int64

    public static let `default` = ImageLimits(maxPixels: 100_000_000, maxFileBytes: 256 << 20)

    public init(maxPixels: Int, maxFileBytes: Int64) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
    }
}
