// libFuzzer entry for PriceParsing: compiled together with Sources/PriceParsing
// by scripts/fuzz-parser.sh (swiftc -sanitize=fuzzer,address).
import Foundation

private let parsers: [PriceParser] = [
    PriceParser(),
    PriceParser(options: ParserOptions(currencyHint: "JPY", bareNumbers: .all)),
    PriceParser(options: ParserOptions(currencyHint: "KWD", bareNumbers: .never)),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    // first byte picks the parser; lines split on newlines to exercise page logic
    let parser = parsers[Int(bytes.first ?? 0) % parsers.count]
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { TextLine(text: String($0)) }
    for m in parser.parse(lines: lines) {
        precondition(!m.text.isEmpty, "empty match text")
        precondition(m.confidence >= 0 && m.confidence <= 1, "confidence out of range")
        precondition(!m.amount.isNaN, "NaN amount")
        if m.amount < 0 { precondition(m.flags.contains(.negative), "negative amount without flag") }
    }
    return 0
}
