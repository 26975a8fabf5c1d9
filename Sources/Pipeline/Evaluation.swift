public import Foundation
public import Geometry
import OCR

/// One evaluation set: a folder with a `gt.json` (format: docs/GUIDE.md, eval).
public struct EvaluationSet: Sendable {
    public struct Truth: Sendable, Equatable {
        public var total: Decimal?
        public var amounts: [Decimal]?
        /// Where each amount is in the image, same order as `amounts`
        /// (`"boxes": [[x, y, width, height], ...]`, pixels of the image file);
        /// nil when gt.json has no boxes.
        public var boxes: [Box]?
        /// The shop's currency (`"currency": "JPY"`), as that shop's stored settings would
        /// give the parser; nil when gt.json has none.
        public var currency: String?

        public init(total: Decimal?, amounts: [Decimal]?, boxes: [Box]? = nil, currency: String? = nil) {
            self.total = total
            self.amounts = amounts
            self.boxes = boxes
            self.currency = currency
        }
    }

    public var name: String
    /// Image path → its truth, in key order.
    public var entries: [(path: String, truth: Truth)]

    public enum LoadError: Error, CustomStringConvertible {
        case noGroundTruth(String)
        case invalid(file: String, reason: String)

        public var description: String {
            switch self {
            case .noGroundTruth(let dir):
                "\(dir): no gt.json here or in any subfolder (eval needs {\"image\": {\"total\": \"7.16\", \"amounts\": [...]}})"
            case .invalid(let file, let reason):
                "\(file): \(reason)"
            }
        }
    }

    /// The sets in `dir`: its own gt.json, or else every gt.json below it.
    public static func discover(_ dir: String) throws(LoadError) -> [EvaluationSet] {
        let own = (dir as NSString).appendingPathComponent("gt.json")
        if FileManager.default.fileExists(atPath: own) {
            return [try load(own, name: (dir as NSString).lastPathComponent)]
        }
        var found: [String] = []
        if let walker = FileManager.default.enumerator(atPath: dir) {
            while let rel = walker.nextObject() as? String {
                if (rel as NSString).lastPathComponent == "gt.json" { found.append(rel) }
            }
        }
        guard !found.isEmpty else { throw .noGroundTruth(dir) }
        return try found.sorted().map { rel throws(LoadError) in
            try load((dir as NSString).appendingPathComponent(rel), name: (rel as NSString).deletingLastPathComponent)
        }
    }

    /// Reads one gt.json. Keys are relative to the folder's `img/` when it exists, else to the folder.
    public static func load(_ file: String, name: String) throws(LoadError) -> EvaluationSet {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw .invalid(file: file, reason: "cannot read the file")
        }
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .invalid(file: file, reason: "not a JSON object of image → {total, amounts}")
        }
        let folder = (file as NSString).deletingLastPathComponent
        let imgDir = (folder as NSString).appendingPathComponent("img")
        var isDir: ObjCBool = false
        let base = FileManager.default.fileExists(atPath: imgDir, isDirectory: &isDir) && isDir.boolValue ? imgDir : folder
        var entries: [(String, Truth)] = []
        for key in root.keys.sorted() {
            guard let obj = root[key] as? [String: Any] else {
                throw .invalid(file: file, reason: "\(key): expected an object with total and amounts")
            }
            let total = try decimal(obj["total"], file: file, key: key)
            var amounts: [Decimal]?
            if let list = obj["amounts"] as? [Any] {
                amounts = try list.map { v throws(LoadError) in
                    guard let d = try decimal(v, file: file, key: key) else {
                        throw .invalid(file: file, reason: "\(key): null inside amounts")
                    }
                    return d
                }
            }
            let boxes = try rects(obj["boxes"], file: file, key: key)
            if let boxes, boxes.count != (amounts?.count ?? 0) {
                throw .invalid(file: file, reason: "\(key): \(boxes.count) boxes for \(amounts?.count ?? 0) amounts (one box per amount)")
            }
            var currency: String?
            switch obj["currency"] {
            case nil, is NSNull: break
            case let code as String where code.count == 3 && code.allSatisfy({ $0.isASCII && $0.isLetter }):
                currency = code.uppercased()
            default:
                throw .invalid(file: file, reason: "\(key): currency must be an ISO 4217 code like \"JPY\"")
            }
            entries.append(
                ((base as NSString).appendingPathComponent(key), Truth(total: total, amounts: amounts, boxes: boxes, currency: currency)))
        }
        return EvaluationSet(name: name.isEmpty ? (folder as NSString).lastPathComponent : name, entries: entries)
    }

    private static func rects(_ v: Any?, file: String, key: String) throws(LoadError) -> [Box]? {
        switch v {
        case nil, is NSNull: return nil
        case let list as [Any]:
            return try list.map { item throws(LoadError) in
                guard let n = item as? [Any], n.count == 4,
                    let x = n[0] as? Int, let y = n[1] as? Int, let w = n[2] as? Int, let h = n[3] as? Int,
                    x >= 0, y >= 0, w > 0, h > 0
                else {
                    throw .invalid(file: file, reason: "\(key): a box must be [x, y, width, height] in whole pixels (width, height > 0)")
                }
                return Box(x: x, y: y, width: w, height: h)
            }
        default:
            throw .invalid(file: file, reason: "\(key): boxes must be a list of [x, y, width, height]")
        }
    }

    private static func decimal(_ v: Any?, file: String, key: String) throws(LoadError) -> Decimal? {
        switch v {
        case nil, is NSNull: return nil
        case let s as String:
            guard let d = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")), s.allSatisfy({ "0123456789.-".contains($0) })
            else {
                throw .invalid(file: file, reason: "\(key): \"\(s)\" is not a plain decimal like \"7.16\"")
            }
            return d
        default:
            throw .invalid(file: file, reason: "\(key): amounts must be strings like \"7.16\" (exact decimals)")
        }
    }
}

/// Total recall and amount precision/recall/F1 over a set.
public struct Score: Sendable, Equatable {
    public var images = 0
    public var failed = 0
    public var totalsExpected = 0
    public var totalsFound = 0
    /// Images whose price marked `role: "total"` has the truth's total amount.
    public var totalsMarked = 0
    public var truePositives = 0
    public var falsePositives = 0
    public var falseNegatives = 0
    /// Images whose amounts are listed (precision/recall only count those).
    public var imagesWithAmounts = 0

    public init() {}

    public var totalRecall: Double? { totalsExpected > 0 ? Double(totalsFound) / Double(totalsExpected) : nil }
    /// The share of images with a truth total whose marked total is that amount (the price a
    /// user converts first): a total found but not marked, or marked on another price, fails.
    public var totalMarkedRate: Double? { totalsExpected > 0 ? Double(totalsMarked) / Double(totalsExpected) : nil }
    public var precision: Double? {
        truePositives + falsePositives > 0
            ? Double(truePositives) / Double(truePositives + falsePositives) : (imagesWithAmounts > 0 ? 1 : nil)
    }
    public var recall: Double? {
        truePositives + falseNegatives > 0
            ? Double(truePositives) / Double(truePositives + falseNegatives) : (imagesWithAmounts > 0 ? 1 : nil)
    }
    public var f1: Double? {
        guard let p = precision, let r = recall else { return nil }
        return p + r > 0 ? 2 * p * r / (p + r) : 0
    }

    /// Adds one image: `found` are the amounts extracted from it, `marked` the amount of the
    /// price marked as its total (nil when none is).
    public mutating func add(truth: EvaluationSet.Truth, found: [Decimal], marked: Decimal? = nil, failed: Bool) {
        images += 1
        if failed { self.failed += 1 }
        if let total = truth.total {
            totalsExpected += 1
            if found.contains(total) { totalsFound += 1 }
            if marked == total { totalsMarked += 1 }
        }
        guard let expected = truth.amounts else { return }
        imagesWithAmounts += 1
        var remaining = expected
        for amount in found {
            if let i = remaining.firstIndex(of: amount) {
                remaining.remove(at: i)
                truePositives += 1
            } else {
                falsePositives += 1
            }
        }
        falseNegatives += remaining.count
    }

    public mutating func merge(_ o: Score) {
        images += o.images
        failed += o.failed
        totalsExpected += o.totalsExpected
        totalsFound += o.totalsFound
        totalsMarked += o.totalsMarked
        truePositives += o.truePositives
        falsePositives += o.falsePositives
        falseNegatives += o.falseNegatives
        imagesWithAmounts += o.imagesWithAmounts
    }
}

/// What another run found, scored instead of reading the images (`eval --found`): the
/// records of `batch --format jsonl` (one per image: `file`, `prices`, `error`), or a
/// folder of `parse --format jsonl` outputs, one file per image named `<image>.jsonl`
/// (a peer engine's text run through pricecam's parser). Only `prices[].amount` counts.
public enum FoundReadings {
    public struct Reading: Sendable, Equatable {
        public var amounts: [Decimal]
        /// The amount of the price marked `"role": "total"`, if one is.
        public var markedTotal: Decimal?
        /// The record says the image failed (`"error"` not null), and why when it says.
        public var failed: Bool
        public var error: String?

        public init(amounts: [Decimal], markedTotal: Decimal? = nil, failed: Bool = false, error: String? = nil) {
            self.amounts = amounts
            self.markedTotal = markedTotal
            self.failed = failed
            self.error = error
        }
    }

    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(String)
        case invalid(file: String, line: Int, reason: String)

        public var description: String {
            switch self {
            case .unreadable(let path): "\(path): cannot read it (give a batch JSON Lines file or a folder of <image>.jsonl files)"
            case .invalid(let file, let line, let reason): "\(file):\(line): \(reason)"
            }
        }
    }

    /// The reading of each of `paths` (image paths of an evaluation set), from `source`; an
    /// image no record names found nothing. A record names an image by its path or by its
    /// path's tail (`img_01.jpg`, `shop/img_01.jpg`); several records of one image add up.
    public static func load(_ source: String, for paths: [String]) throws(LoadError) -> [Reading] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDir) else { throw .unreadable(source) }
        var named: [(name: String, reading: Reading)] = []
        if isDir.boolValue {
            guard let walker = FileManager.default.enumerator(atPath: source) else { throw .unreadable(source) }
            while let rel = walker.nextObject() as? String {
                guard rel.hasSuffix(".jsonl") else { continue }
                let file = (source as NSString).appendingPathComponent(rel)
                var reading = Reading(amounts: [])
                for (_, r) in try records(file) {
                    reading.amounts += r.amounts
                    reading.markedTotal = reading.markedTotal ?? r.markedTotal
                    reading.failed = reading.failed || r.failed
                    reading.error = reading.error ?? r.error
                }
                named.append((String(rel.dropLast(".jsonl".count)), reading))
            }
        } else {
            for (name, r) in try records(source) {
                guard let name else { throw .invalid(file: source, line: 0, reason: "a record without \"file\"") }
                named.append((name, r))
            }
        }
        return paths.map { path in
            var reading = Reading(amounts: [])
            for (name, r) in named where path == name || path.hasSuffix("/" + name) {
                reading.amounts += r.amounts
                reading.markedTotal = reading.markedTotal ?? r.markedTotal
                reading.failed = reading.failed || r.failed
                reading.error = reading.error ?? r.error
            }
            return reading
        }
    }

    /// The JSON Lines records of `file`: each one's `file` (if any) and amounts.
    static func records(_ file: String) throws(LoadError) -> [(String?, Reading)] {
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(file)
        }
        var out: [(String?, Reading)] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.allSatisfy(\.isWhitespace) {
            guard let obj = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                throw .invalid(file: file, line: i + 1, reason: "not a JSON object")
            }
            var amounts: [Decimal] = []
            var marked: Decimal?
            for p in obj["prices"] as? [Any] ?? [] {
                guard let text = (p as? [String: Any])?["amount"] as? String,
                    let d = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
                else {
                    throw .invalid(file: file, line: i + 1, reason: "a price without a decimal \"amount\" string")
                }
                amounts.append(d)
                if (p as? [String: Any])?["role"] as? String == "total", marked == nil { marked = d }
            }
            let error = obj["error"].flatMap { $0 is NSNull ? nil : (($0 as? [String: Any])?["message"] as? String ?? "\($0)") }
            out.append((obj["file"] as? String, Reading(amounts: amounts, markedTotal: marked, failed: error != nil, error: error)))
        }
        return out
    }
}
