import WSClient
import NIOWebSocket
import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import Synchronization
import Testing

@testable import Server

/// `GET /api/v1/camera/stream`, as a browser's camera uses it: real WebSocket
/// client, real server socket, real OCR.
@Suite("serve: the browser's camera")
struct CameraStreamTests {
    /// Frame messages as they arrive, and how the stream was closed.
    final class Received: Sendable {
        /// Each frame message's JSON text.
        let frames = Mutex<[String]>([])
        let errors = Mutex<[String]>([])
        /// Frames sent.
        let sent = Mutex(0)

        var last: [String: Any]? { frames.withLock { $0.last }.flatMap(CameraStreamTests.object) }
    }

    static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    static func bytes(_ family: String, _ file: String) throws -> ByteBuffer {
        ByteBuffer(bytes: try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(TestServer.fixtures)/\(family)/\(file)"))))
    }

    static func amounts(_ frame: [String: Any]) -> Set<String> {
        Set((frame["prices"] as? [[String: Any]] ?? []).compactMap { $0["amount"] as? String })
    }

    /// Sends `frames`, then reads answers until one shows `wanted` (or 3 minutes pass). With
    /// `holding`, the last frame is sent again at that interval meanwhile, as a camera held
    /// still sends its scene (the frames sent are counted in `received.sent`).
    static func stream(
        _ client: any TestClientProtocol, frames: [ByteBuffer], until wanted: Set<String>, into received: Received,
        holding: Duration? = nil
    ) async throws -> WebSocketCloseFrame? {
        try await client.ws("/api/v1/camera/stream", configuration: .init(maxFrameSize: 8 << 20)) { inbound, outbound, _ in
            for f in frames {
                try await outbound.write(.binary(f))
                received.sent.withLock { $0 += 1 }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                if let holding, let last = frames.last {
                    group.addTask {
                        while true {
                            try await Task.sleep(for: holding)
                            try await outbound.write(.binary(last))
                            received.sent.withLock { $0 += 1 }
                        }
                    }
                }
                group.addTask {
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message, let object = Self.object(text) else { continue }
                        if object["event"] as? String == "error" {
                            received.errors.withLock { $0.append(object["message"] as? String ?? "") }
                            continue
                        }
                        received.frames.withLock { $0.append(text) }
                        if Self.amounts(object) == wanted { return }
                    }
                }
                group.addTask { try await Task.sleep(for: .seconds(180)) }
                _ = try await group.next()
                group.cancelAll()
            }
        }
    }

    @Test(.timeLimit(.minutes(5))) func framesInPricesOutWithBoxesAndLatencyAndHistory() async throws {
        let truth = try fixtureTruth("clean", "frame_0003.png")
        let server = try TestServer()
        try server.configure()
        let received = Received()
        try await server.test(.live) { client in
            _ = try await Self.stream(
                client, frames: [try Self.bytes("clean", "frame_0003.png")], until: Set(truth.amounts), into: received)
            let frame = try #require(received.last)
            #expect(Self.amounts(frame) == Set(truth.amounts))
            let width = try #require(frame["width"] as? Int), height = try #require(frame["height"] as? Int)
            #expect(frame["latency_ms"] is Double || frame["latency_ms"] is Int)
            for p in frame["prices"] as? [[String: Any]] ?? [] {
                #expect(p["currency"] as? String == "JPY")
                #expect(p["target"] as? String == "EUR")
                #expect(p["converted"] is String)
                #expect(p["text"] is String)
                let box = try #require(p["box"] as? [Int])
                #expect(box.count == 4 && box[0] >= 0 && box[1] >= 0 && box[0] + box[2] <= width && box[1] + box[3] <= height)
            }
            // The stable prices are in history with source browser#FRAME (written when the stream ends).
            var sources: [String] = []
            for _ in 0..<100 {
                let rows = try await client.get("/api/v1/history?limit=50").object["rows"] as? [[String: Any]] ?? []
                sources = rows.compactMap { $0["source"] as? String }
                if sources.count >= truth.amounts.count { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(sources.count == truth.amounts.count)
            #expect(sources.allSatisfy { $0.hasPrefix("browser#") }, "\(sources)")
        }
    }

    @Test(.timeLimit(.minutes(5))) func aFastSenderIsReadAtItsNewestFrame() async throws {
        // Ten frames of one receipt, then one of another, sent at once, and the newest again
        // every 250 ms, as a camera held still: the pipeline reads at most the first and the
        // newest scene; the frames sent while it reads are dropped. (Whether the first frame it
        // reads is the burst's first or its newest depends on when its worker wakes: on a
        // loaded machine the first; a scene that moved is then read from the next frame on,
        // at its own boxes.)
        let newest = try fixtureTruth("clean", "frame_0003.png")
        let server = try TestServer()
        try server.configure()
        let received = Received()
        let older = try Self.bytes("clean", "frame_0002.png")
        try await server.test(.live) { client in
            _ = try await Self.stream(
                client, frames: Array(repeating: older, count: 10) + [try Self.bytes("clean", "frame_0003.png")],
                until: Set(newest.amounts), into: received, holding: .milliseconds(250))
        }
        let last = try #require(received.last)
        #expect(Self.amounts(last) == Set(newest.amounts), "the newest scene was read")
        let processed = try #require(last["processed"] as? Int), dropped = try #require(last["dropped"] as? Int)
        let sent = received.sent.withLock { $0 }
        #expect(processed < 11, "processed \(processed) of \(sent)")
        // Of the burst's eleven, at most the first two taken and the newest are read.
        #expect(dropped >= 8 && processed + dropped <= sent, "processed \(processed), dropped \(dropped) of \(sent)")
        #expect(received.frames.withLock { $0.count } == processed, "one message per frame read")
    }

    @Test(.timeLimit(.minutes(5))) func anOversizedFrameClosesTheStreamAsTooBig() async throws {
        let server = try TestServer(stream: StreamLimits(frameBytes: 64 << 10))
        try server.configure()
        try await server.test(.live) { client in
            let big = ByteBuffer(bytes: [UInt8](repeating: 0xFF, count: 200 << 10))
            let close = try await client.ws("/api/v1/camera/stream", configuration: .init(maxFrameSize: 1 << 20)) { inbound, outbound, _ in
                try await outbound.write(.binary(big))
                for try await _ in inbound {}
            }
            #expect(close?.closeCode == .messageTooLarge)
        }
    }

    @Test(.timeLimit(.minutes(5))) func aFrameThatIsNotAnImageIsReportedAndTheStreamGoesOn() async throws {
        let truth = try fixtureTruth("clean", "frame_0003.png")
        let server = try TestServer()
        try server.configure()
        let received = Received()
        try await server.test(.live) { client in
            _ = try await Self.stream(
                client, frames: [ByteBuffer(string: "not an image at all"), try Self.bytes("clean", "frame_0003.png")],
                until: Set(truth.amounts), into: received)
        }
        // The bad frame may have been replaced by the good one before it was read; when it was read, it was reported.
        #expect(received.errors.withLock { $0.allSatisfy { $0.contains("browser frame") } })
        #expect(Self.amounts(try #require(received.last)) == Set(truth.amounts))
    }

    @Test func beforeSetupTheStreamSaysSo() async throws {
        let server = try TestServer()
        let received = Received()
        try await server.test(.live) { client in
            _ = try await Self.stream(client, frames: [], until: ["never"], into: received)
        }
        #expect(received.errors.withLock { $0.first?.contains("no currency settings") ?? false })
    }
}
