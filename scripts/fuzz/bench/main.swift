// Benchmark driver for PriceParsing, compiled with the module sources by
// scripts/bench-parse.sh (swiftc -O). Prints lines per second per corpus; with
// `--lines FILE N` it writes N deterministic shop lines to FILE, and with
// `--file FILE` it times one pass over FILE's lines (the peer comparison); with
// `--dump OUT [FILE...]` it writes every match of the corpora, of the lines of each FILE and
// of random lines to OUT (Dump.swift; the differential check is diff-check.sh).
import Foundation

/// N lines drawn from the corpora below and shop formats of many countries, with the
/// numbers varied by a fixed linear congruential sequence (same lines on every run).
func shopLines(_ count: Int) -> [String] {
    let templates = [
        "Milch 3,5%% 1L %d,%02d A", "Bananen 1,5 kg x 1,29 EUR/kg %d,%02d A", "SUMME EUR %d,%02d", "2 x %d,%02d",
        "Pizza Margherita ........ %d,%02d €", "Tiramisu €%d.%02d", "Lunch set ¥%d,%03d (税込)", "ラーメン %d%02d円",
        "$%d.%02d ea", "UVP %d,%02d € -20%%", "%d %03d Kč", "%d %03d ₽", "R$ %d,%02d", "Rs. %d,%03d", "CHF %d.%02d",
        "Price: USD %d.%02d incl. VAT", "from $%d.%02d", "ab %d,%02d €", "%d€ %02d", "Total%d.%02d", "%d.%03d Ft",
        "25.12.2018 17:37 Bon %d Kasse %d", "Tel. 030 1234%d%02d", "A12B3 SKU%d%02d 8:13:39", "%d,%02d zł/kg",
    ]
    var x: UInt64 = 12345
    func next(_ bound: Int) -> Int {
        x = x &* 6364136223846793005 &+ 1442695040888963407
        return Int((x >> 33) % UInt64(bound))
    }
    return (0..<count).map { i in String(format: templates[i % templates.count], 1 + next(99), next(100)) }
}

let receipt = [
    "REWE Markt GmbH", "Milch 3,5% 1L 1,09 A", "Bananen 1,5 kg x 1,29 EUR/kg 1,94 A", "2 x 0,99",
    "Pfand 0,25 A", "Rabatt -0,50", "SUMME EUR 7,16", "Geg. BAR EUR 10,00", "Rückgeld 2,84",
    "25.12.2018 17:37 Bon 4711 Kasse 3", "Steuer % Netto Steuer Brutto", "A 7% 6,69 0,47 7,16",
    "Tel. 030 1234567", "EAN 4006381333931",
]
let menu = [
    "Pizza Margherita ........ 8,50 €", "Spaghetti Carbonara 11,90", "Tiramisu €5.50", "Coffee $3.50 / Tea $2.75",
    "Lunch set ¥1,280 (税込)", "ラーメン 850円", "Wine 0,2 L 5,80 €", "Steak 250 g 24,90 €", "Menu €10–20",
]
let tags = ["579", "€ 2,99", "1O,50 €", "S12.99", "$4.99 ea", "2 für 5,00 €", "1 kg = 3,98 €", "UVP 19,99 € -20%"]
let noise = ["xk3 ;;; 0O0 |l| ___", "A12B3 SKU12345 8:13:39", "+49 30 1234567 (030) 123 456", "..,,''  --  ¢¢ $$"]

let args = CommandLine.arguments
if args.count == 4, args[1] == "--lines", let n = Int(args[3]) {
    try shopLines(n).map { $0 + "\n" }.joined().write(toFile: args[2], atomically: true, encoding: .utf8)
    exit(0)
}
if args.count >= 3, args[1] == "--dump" {
    var lines = shopLines(100_000) + receipt + menu + tags + noise
    for file in args.dropFirst(3) {
        lines += try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
    try writeDump(args[2], lines: lines)
    exit(0)
}
if args.count == 3, args[1] == "--file" {
    let lines = try String(contentsOfFile: args[2], encoding: .utf8).split(separator: "\n").map { TextLine(text: String($0)) }
    let parser = PriceParser()
    var best = Double.infinity, found = 0
    for _ in 0..<3 {
        let t0 = ContinuousClock.now
        found = 0
        for l in lines { found &+= parser.parse(l).count }
        let d = ContinuousClock.now - t0
        best = min(best, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
    }
    print(String(format: "%.0f %d", Double(lines.count) / best, found))
    exit(0)
}

func bench(_ name: String, _ lines: [String], seconds: Double = 1.0) {
    let parser = PriceParser()
    let textLines = lines.map(TextLine.init(text:))
    var n = 0, found = 0
    let clock = ContinuousClock()
    let start = clock.now
    var elapsed = 0.0
    while elapsed < seconds {
        for l in textLines { found &+= parser.parse(l).count }
        n += textLines.count
        let d = clock.now - start
        elapsed = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
    let bytes = lines.reduce(0) { $0 + $1.utf8.count } / lines.count
    print(String(format: "%-8@ %10.0f lines/s  (avg %d bytes/line, %d prices/pass)", name as NSString,
                 Double(n) / elapsed, bytes, found / (n / textLines.count)))
}

let secs = Double(ProcessInfo.processInfo.environment["BENCH_SECONDS"] ?? "1") ?? 1
bench("receipt", receipt, seconds: secs)
bench("menu", menu, seconds: secs)
bench("tags", tags, seconds: secs)
bench("noise", noise, seconds: secs)
bench("mixed", receipt + menu + tags + noise, seconds: secs)

// one large line: throughput in MB/s
let big = String(repeating: receipt.joined(separator: " ") + " ", count: 3_700)
let t0 = ContinuousClock.now
let count = PriceParser().parse(text: big).count
let d = ContinuousClock.now - t0
let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
print(String(format: "1 line of %.2f MB: %.3f s (%d prices)", Double(big.utf8.count) / 1e6, s, count))
