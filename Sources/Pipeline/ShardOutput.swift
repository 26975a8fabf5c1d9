import Foundation

/// One shard's output file, split into its records (`pricecam merge`).
public struct ShardOutput: Sendable {
    public enum Kind: Sendable, Equatable { case jsonl, csv }

    /// One image's lines (a JSON Lines record, or the CSV rows of one file).
    struct Record: Sendable {
        var file: String
        var lines: [Substring]
        var failed: Bool
        var prices: Int
    }

    public let path: String
    public let kind: Kind
    let header: Substring?
    let records: [Record]

    public init(path: String, text: String) throws(InputFailure) {
        self.path = path
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        if lines.first?.first == "{" || lines.isEmpty {
            kind = .jsonl
            header = nil
            records = try lines.enumerated().map { (i, line) throws(InputFailure) -> Record in
                try Self.jsonRecord(line, path: path, line: i + 1)
            }
        } else {
            guard lines[0].hasPrefix("file,") else {
                throw InputFailure(
                    code: "not_batch_output",
                    message: "\(path): neither JSON Lines nor batch CSV (merge takes the files `batch --output` writes)")
            }
            kind = .csv
            header = lines[0]
            var byFile: [Record] = []
            for line in lines.dropFirst() {
                let fields = CSV.fields(String(line))
                let file = fields.first ?? ""
                let failed = fields.count >= 14 && !fields[13].isEmpty
                let priced = fields.count >= 3 && !fields[2].isEmpty
                if let last = byFile.last, last.file == file {
                    byFile[byFile.count - 1].lines.append(line)
                    byFile[byFile.count - 1].prices += priced ? 1 : 0
                } else {
                    byFile.append(Record(file: file, lines: [line], failed: failed, prices: priced ? 1 : 0))
                }
            }
            records = byFile
        }
    }

    static func jsonRecord(_ line: Substring, path: String, line number: Int) throws(InputFailure) -> Record {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let file = object["file"] as? String
        else {
            throw InputFailure(code: "not_batch_output", message: "\(path):\(number): not a batch JSON Lines record (no \"file\")")
        }
        let failed = !(object["error"] is NSNull || object["error"] == nil)
        return Record(file: file, lines: [line], failed: failed, prices: (object["prices"] as? [Any])?.count ?? 0)
    }

    public struct Merged: Sendable {
        public var text: String
        public var images: Int
        public var failed: Int
        public var prices: Int
    }

    /// The records of every part in `batch`'s order; an image in two parts is an error.
    public static func merge(_ parts: [ShardOutput]) throws(InputFailure) -> Merged {
        guard let kind = parts.first?.kind else { return Merged(text: "", images: 0, failed: 0, prices: 0) }
        if let other = parts.first(where: { $0.kind != kind }) {
            throw InputFailure(
                code: "mixed_formats", message: "\(other.path): a \(other.kind) file among \(kind) files; merge one format at a time")
        }
        var seen: [String: String] = [:]
        var all: [Record] = []
        for part in parts {
            for r in part.records {
                if let first = seen[r.file] {
                    throw InputFailure(
                        code: "overlapping_shards",
                        message:
                            "\(r.file) is in both \(first) and \(part.path): the shards overlap (give every node the same N in --shard i/N)"
                    )
                }
                seen[r.file] = part.path
                all.append(r)
            }
        }
        all.sort { Inputs.walkOrder($0.file, $1.file) }
        var text = parts.compactMap(\.header).first.map { $0 + "\n" } ?? ""
        for r in all { for line in r.lines { text += line + "\n" } }
        return Merged(
            text: text, images: all.count, failed: all.filter(\.failed).count, prices: all.reduce(0) { $0 + $1.prices })
    }
}

extension CSV {
    /// The fields of one RFC 4180 row (quoted fields may hold commas and doubled quotes).
    public static func fields(_ row: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var chars = row.makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" {
                    // A doubled quote is a quote; a single one ends the quoted part.
                    var lookahead = chars
                    if lookahead.next() == "\"" {
                        field.append("\"")
                        chars = lookahead
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(c)
            }
        }
        fields.append(field)
        return fields
    }
}
