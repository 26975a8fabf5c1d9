import Foundation
@testable import Server
import Testing

/// The gauges `GET /metrics` reports for what comes and goes: browsers on the live feed and
/// browser camera readings, each counted on its own.
@Suite("Server metrics")
struct ServerMetricsTests {
    static func text(_ metrics: ServerMetrics) -> String { String(decoding: metrics.text(), as: UTF8.self) }

    @Test("live clients and camera streams count up and down apart")
    func gauges() {
        let metrics = ServerMetrics()
        metrics.clients(delta: 1)
        metrics.clients(delta: 1)
        metrics.streams(delta: 1)
        metrics.clients(delta: -1)
        let text = Self.text(metrics)
        #expect(text.contains("pricecam_live_clients_browsers 1"), "\(text)")
        #expect(text.contains("pricecam_camera_streams_browsers 1"))
        metrics.streams(delta: -1)
        metrics.clients(delta: 1)
        let later = Self.text(metrics)
        #expect(later.contains("pricecam_live_clients_browsers 2"))
        #expect(later.contains("pricecam_camera_streams_browsers 0"))
    }
}
