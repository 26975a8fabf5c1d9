import Foundation
import Geometry
import Testing
@testable import PriceParsing

/// The language table (`Language.all`): every language's total keywords name the total on
/// a receipt, its currencies are real, its Tesseract model is installed by the bootstrap.
@Suite struct LanguagesTests {
    /// (language code, keyword) for every keyword in the table.
    static let keywords: [(String, String)] = Language.all.flatMap { l in l.totals.map { (l.code, $0) } }

    /// A receipt in the language: an item line, the total line, a line after it.
    static func receipt(_ l: Language, keyword: String) -> (lines: [String], total: Decimal) {
        let currency = l.currencies[0]
        if Currencies.minorUnits(currency) == 0 {
            return (["item 980", "\(keyword) 1250", "0123 4567"], 1250)
        }
        return (["item 3\(l.decimal)20", "\(keyword) 12\(l.decimal)50", "0123 4567"], Decimal(string: "12.50")!)
    }

    @Test("each language's total keyword marks the total", arguments: keywords)
    func totalKeyword(_ k: (String, String)) throws {
        let l = try #require(Language.all.first { $0.code == k.0 })
        let (lines, total) = Self.receipt(l, keyword: k.1)
        let parser = PriceParser(options: ParserOptions(currencyHint: l.currencies[0]))
        let totals = parser.parse(lines: lines.map(TextLine.init(text:))).filter { $0.role == .total }.map(\.amount)
        #expect(totals == [total], "\(l.name) \(lines)")
    }

    @Test("keywords survive OCR's usual confusions (upper case, 0 for o, 1 for l)")
    func folded() {
        let parser = PriceParser(options: ParserOptions(currencyHint: "EUR"))
        for line in ["T0TALE 12,50", "TOTAAL 12,50", "SUMA 12,50", "ÖSSZESEN 12,50", "ИТОГО 12,50"] {
            #expect(parser.parse(lines: [TextLine(text: line)]).contains { $0.role == .total }, "\(line)")
        }
        #expect(!parser.parse(lines: [TextLine(text: "Milch 12,50")]).contains { $0.role == .total })
    }

    @Test("the table is consistent: known currencies, one entry per code and model")
    func consistent() {
        #expect(Set(Language.all.map(\.code)).count == Language.all.count)
        #expect(Set(Language.all.map(\.tesseract)).count == Language.all.count)
        for l in Language.all {
            #expect(!l.totals.isEmpty, "\(l.name)")
            for c in l.currencies { #expect(Currencies.isKnown(c), "\(l.name): \(c)") }
            #expect(!l.group.contains(l.decimal), "\(l.name)")
        }
        // At least the languages of the most visited countries (issue 12).
        for code in [
            "fr", "es", "it", "pt", "nl", "pl", "cs", "hu", "tr", "el", "ru", "uk", "bg", "th", "vi", "ms", "id", "hi", "ja", "ko", "zh",
        ] {
            #expect(Language.named(code) != nil, "\(code)")
        }
    }

    @Test("named: ISO 639-1, Tesseract code or English name, any case")
    func named() {
        #expect(Language.named("fr")?.tesseract == "fra")
        #expect(Language.named("FRA")?.code == "fr")
        #expect(Language.named("japanese")?.tesseract == "jpn")
        #expect(Language.named("chi_sim")?.code == "zh")
        #expect(Language.named("klingon") == nil)
    }

    @Test("script models by currency: only scripts eng cannot read")
    func scriptModels() {
        #expect(Language.scriptModels(for: "JPY") == ["jpn"])
        #expect(Language.scriptModels(for: "rub") == ["rus"])
        #expect(Language.scriptModels(for: "THB") == ["tha"])
        #expect(Language.scriptModels(for: "EUR") == [])
        #expect(Language.scriptModels(for: "PLN") == [])
        #expect(Language.scriptModels(for: nil) == [])
    }

    @Test("scripts/bootstrap.sh --langs installs every language's model")
    func bootstrapInstallsModels() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/bootstrap.sh")
        let text = try String(contentsOf: script, encoding: .utf8)
        let row = try #require(text.components(separatedBy: "\"--langs").dropFirst().first?.components(separatedBy: "\"").first)
        for l in Language.all where l.tesseract != "eng" {
            #expect(
                row.contains("pkg:\(l.debianPackage) ") || row.contains("pkg:\(l.debianPackage)\n"),
                "\(l.debianPackage) missing from --langs")
            #expect(row.contains("/\(l.tesseract).traineddata"), "\(l.tesseract).traineddata not checked by --langs")
        }
    }
}
