import Foundation

/// One of N disjoint parts of a batch's input, chosen by a hash of each image's
/// path relative to the folder (or as listed), so every node of a cluster
/// agrees on the split without talking to the others, and the parts' union is
/// the whole input.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 0-based, as Slurm's SLURM_ARRAY_TASK_ID (with --array=0-(N-1)) and
    /// Kubernetes' JOB_COMPLETION_INDEX count.
    public let index: Int
    public let count: Int

    /// Most parts a batch may be split into (a bound on typos, not on clusters).
    public static let maxCount = 1_000_000

    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maxCount, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// "i/N" with 0 ≤ i < N.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: i, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the image at `relativePath` belongs to this part.
    public func contains(relativePath: String) -> Bool {
        Int(Self.hash(relativePath) % UInt64(count)) == index
    }

    /// The items of this part, in their order. `root`: the folder the paths were
    /// found under (its prefix is dropped before hashing); nil for a file list.
    public func select(_ items: [InputItem], root: String?) -> [InputItem] {
        items.filter { contains(relativePath: Self.relative($0.path, to: root)) }
    }

    static func relative(_ path: String, to root: String?) -> String {
        guard let root else { return path }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// FNV-1a, 64 bits, over the UTF-8 bytes: stable across machines, runs and
    /// Swift versions (unlike `Hasher`, which is seeded per process).
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }
}

extension Inputs {
    /// `batch --files-from`: one image path per line (blank lines and lines
    /// starting with # skipped), each as `scan` takes it.
    public static func list(_ text: String) -> [InputItem] {
        let paths = text.split(whereSeparator: \.isNewline).map { String($0).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        return explicit(paths)
    }

    /// Orders paths as `walk` lists them: component by component, so a folder's
    /// files sort together (`a/x` before `a-b/x`, unlike a plain string sort).
    public static func walkOrder(_ a: String, _ b: String) -> Bool {
        a.split(separator: "/", omittingEmptySubsequences: false).lexicographicallyPrecedes(
            b.split(separator: "/", omittingEmptySubsequences: false))
    }
}
