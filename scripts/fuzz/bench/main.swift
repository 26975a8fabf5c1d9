// Benchmark driver for PriceParsing, compiled with the module sources by
// scripts/bench-parser.sh (swiftc -O). Prints lines per second per corpus.
import Foundation

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
