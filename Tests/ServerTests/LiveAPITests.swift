import Pipeline
import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import History
import NIOCore
import Synchronization
import Testing

@testable import Server
import TestSupport

@Suite("serve: camera")
struct LiveAPITests {
    /// A folder holding one fixture, replayed in a loop: every frame shows the same prices.
    static func replayFolder(_ file: String = "frame_0003.png") throws -> String {
        let dir = try Scratch.folder("pricecam-replay")
        try FileManager.default.copyItem(atPath: "\(TestServer.fixtures)/clean/\(file)", toPath: "\(dir)/\(file)")
        return dir
    }

    @Test(.timeLimit(.minutes(5))) func liveFeedSendsFramesAndTheFrameIsAJPEGWithThePrices() async throws {
        let folder = try Self.replayFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let truth = try fixtureTruth("clean", "frame_0003.png")
        let server = try TestServer(camera: .replay(directory: folder, fps: 10, loop: true))
        try server.configure()
        server.state.startCamera()
        try await server.test(.live) { client in
            // Frames arrive as the pipeline reads them (slowly when the machine is busy):
            // read until a frame shows the fixture's prices, or give up after 3 minutes.
            let prices = Seen()
            let wanted = Set(truth.amounts)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await client.ws("/api/v1/live") { inbound, _, _ in
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            guard case .text(let text) = message,
                                let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                            else { continue }
                            #expect(object["event"] as? String == "frame")
                            let seen = (object["prices"] as? [[String: Any]] ?? []).compactMap { $0["amount"] as? String }
                            prices.value.withLock { $0 = seen }
                            if Set(seen) == wanted { return }
                        }
                    }
                }
                group.addTask { try await Task.sleep(for: .seconds(180)) }
                _ = try await group.next()
                group.cancelAll()
            }
            #expect(Set(prices.value.withLock { $0 }) == wanted)
            let frame = try await client.get("/api/v1/frame.jpg")
            #expect(frame.status == .ok)
            #expect(frame.headers[.contentType] == "image/jpeg")
            #expect(Array(frame.body.readableBytesView.prefix(2)) == [0xFF, 0xD8])
            // In colour (three components), as the replayed file is, with nothing drawn on it.
            #expect(Self.jpegComponents(Array(frame.body.readableBytesView)) == 3)
            let camera = try await client.get("/api/v1/status").object["camera"] as? [String: Any]
            #expect(camera?["running"] as? Bool == true)
            #expect((camera?["processed"] as? Int ?? 0) > 0)
            #expect(try await client.get("/metrics").text.contains("pricecam_live_latency_seconds_count"))
        }
    }

    /// The number of colour components a JPEG's frame header (SOF0–SOF2) declares.
    static func jpegComponents(_ jpeg: [UInt8]) -> Int? {
        var i = 2
        while i + 9 < jpeg.count, jpeg[i] == 0xFF {
            let marker = jpeg[i + 1]
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if (0xC0...0xC2).contains(marker) { return Int(jpeg[i + 9]) }
            i += 2 + length
        }
        return nil
    }

    @Test func aSlowBrowserGetsOnlyTheNewestMessage() async throws {
        let hub = LiveHub(
            camera: .none, workers: 1, history: ServerHistory(.sqlite(path: "/nonexistent/history.sqlite")), metrics: ServerMetrics()
        ) { _ in
            throw CancellationError()
        }
        let (id, messages) = hub.subscribe()
        for i in 1...5 { hub.broadcast("message \(i)") }
        hub.unsubscribe(id)  // ends the stream after what it holds
        var received: [String] = []
        for await m in messages { received.append(m) }
        #expect(received == ["message 5"])
    }

    @Test func aNewBrowserStartsWithTheLatestState() async throws {
        let hub = LiveHub(
            camera: .none, workers: 1, history: ServerHistory(.sqlite(path: "/nonexistent/history.sqlite")), metrics: ServerMetrics()
        ) { _ in
            throw CancellationError()
        }
        hub.broadcast("before")
        let (id, messages) = hub.subscribe()
        hub.unsubscribe(id)
        var received: [String] = []
        for await m in messages { received.append(m) }
        #expect(received == ["before"])
    }
}

/// The amounts of the last frame message read (shared with the reading task).
final class Seen: Sendable {
    let value = Mutex<[String]>([])
}
