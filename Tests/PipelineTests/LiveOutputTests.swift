import Conversion
import Foundation
import Geometry
import PriceParsing
import Testing
@testable import Pipeline

@Suite struct LiveOutputTests {
    static let price = LivePrice(
        priced: PricedMatch(
            match: PriceMatch(
                text: "$12.99", amount: Decimal(string: "12.99")!, currency: "USD", marker: "$",
                box: Box(x: 1, y: 2, width: 3, height: 4), confidence: 0.97),
            conversion: ConvertedAmount(value: Decimal(string: "409.19")!, rate: Decimal(string: "31.5")!, target: "TWD")),
        frame: 42, latencyMs: 61.25)

    @Test func priceEventCarriesTheContractFieldsAndTheLiveOnes() {
        let line = LiveOutput.priceEvent(Self.price, origin: ("device", "/dev/video0")).serialized()
        #expect(
            line.hasPrefix(
                #"{"event":"price","text":"$12.99","amount":"12.99","currency":"USD","confidence":0.97,"box":[1,2,3,4],"converted":"409.19","target":"TWD","rate":"31.5""#
            ))
        #expect(
            line.hasSuffix(#""frame":42,"device":"/dev/video0","latency_ms":61.2}"#)
                || line.hasSuffix(#""frame":42,"device":"/dev/video0","latency_ms":61.3}"#))
    }

    @Test func jsonlModeWritesPriceGoneAndFinalStatsLines() {
        var out: [String] = []
        var err: [String] = []
        let o = LiveOutput(
            mode: .jsonl, origin: ("source", "dir"), header: "h", liveView: false, periodicStats: false,
            write: { out.append($0) }, writeErr: { err.append($0) })
        o.appeared(Self.price)
        o.disappeared(Self.price)
        let stats = LiveStats(
            elapsedSeconds: 1, captured: 3, processed: 2, dropped: 1, latency: LatencyHistogram().summary,
            ocr: LatencyHistogram().summary, frameIntervalMs: 33.3, residentKB: 1, residentAt: [], final: false)
        o.stats(stats)  // periodic stats are off
        var last = stats
        last.final = true
        o.stats(last)
        #expect(out.count == 3)
        #expect(out[0].contains(#""event":"price""#) && out[0].contains(#""source":"dir""#))
        #expect(out[1].hasPrefix(#"{"event":"gone","text":"$12.99","amount":"12.99""#))
        #expect(out[2].hasPrefix(#"{"event":"stats","final":true"#))
        #expect(err.joined().contains("3 captured, 2 processed, 1 dropped"))
    }
}
