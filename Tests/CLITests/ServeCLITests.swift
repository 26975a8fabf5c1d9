import Foundation
import Testing

/// `pricecam serve` as a process: start-up, tokens, and a clean stop on SIGTERM.
@Suite struct ServeCLITests {
    /// The port from the start-up line `pricecam serve: http://127.0.0.1:PORT/…`.
    static func port(_ serve: RunningCLI) -> Int? {
        guard serve.waitForOutput(containing: "pricecam serve: http://", seconds: 60, stream: \.stderr) else { return nil }
        let line = serve.stderr.split(separator: "\n").first { $0.contains("pricecam serve: http://") } ?? ""
        let afterHost = line.split(separator: ":").dropFirst(3).first ?? ""
        return Int(afterHost.prefix { $0.isNumber })
    }

    /// The status and JSON object the server answers at `url`, asking again until
    /// one comes or `patience` seconds pass: on a loaded machine (CI runs the whole
    /// suite on 2 cores) one request can go unanswered for a while, which is not
    /// what these tests check.
    static func answer(_ url: String, patience: TimeInterval = 60) -> (status: Int, object: [String: Any])? {
        let deadline = Date(timeIntervalSinceNow: patience)
        repeat {
            if let answer = getOnce(url) { return answer }
            usleep(200_000)
        } while Date() < deadline
        return nil
    }

    static func get(_ url: String, patience: TimeInterval = 60) -> [String: Any]? { answer(url, patience: patience)?.object }

    /// One `GET` on its own TCP connection, closed after the answer. Not
    /// URLSession: its shared connection cache could hand a request to another
    /// test's server that is still answering on a port this server now listens
    /// on, and its handling of 401 differs between Foundation versions; the token
    /// test failed twice on CI with no answer from it.
    static func getOnce(_ url: String) -> (status: Int, object: [String: Any])? {
        guard let parts = URLComponents(string: url), let port = parts.port else { return nil }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let target = parts.percentEncodedPath + (parts.percentEncodedQuery.map { "?" + $0 } ?? "")
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n"),
            let status = text[..<split.lowerBound].split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        var body = String(text[split.upperBound...])
        if text[..<split.lowerBound].lowercased().contains("transfer-encoding: chunked") { body = unchunked(body) }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] else { return nil }
        return (status, object)
    }

    /// A chunked body's chunks joined.
    static func unchunked(_ body: String) -> String {
        var rest = Substring(body)
        var out = ""
        while let line = rest.range(of: "\r\n"), let size = Int(rest[..<line.lowerBound], radix: 16), size > 0 {
            let start = line.upperBound
            let utf8 = rest.utf8
            guard let end = utf8.index(start, offsetBy: size, limitedBy: utf8.endIndex) else { break }
            out += rest[start..<end]
            rest = rest[end...].dropFirst(2)
        }
        return out
    }

    @Test("SIGTERM: stops within 5 s with status 0, the camera's prices saved in history")
    func sigtermStopsCleanlyAndKeepsHistory() throws {
        let home = try CLI.tempDir()
        let replay = try CLI.tempDir()
        try FileManager.default.copyItem(atPath: "\(CLI.fixtures)/clean/frame_0001.png", toPath: "\(replay)/tag.png")  // £31.19, £56.50
        let setup = try CLI.run(["setup", "--currency", "GBP", "--rate", "2", "--home", "EUR"], home: home)
        #expect(setup.status == 0, "\(setup.stderr)")
        let serve = try RunningCLI(["serve", "--port", "0", "--replay", replay, "--loop", "--fps", "10", "--jobs", "1"], home: home)
        let port = try #require(Self.port(serve), "no start-up line; stderr: \(serve.stderr)")
        // Wait until the camera has read enough frames for its prices to be stable (reported and recorded).
        var processed = 0
        let deadline = Date(timeIntervalSinceNow: 120)
        while processed < 8 && Date() < deadline {
            let camera = Self.get("http://127.0.0.1:\(port)/api/v1/status")?["camera"] as? [String: Any]
            processed = camera?["processed"] as? Int ?? 0
            usleep(100_000)
        }
        #expect(processed >= 8, "the camera read \(processed) frames; stderr: \(serve.stderr)")
        let sent = Date()
        serve.send(SIGTERM)
        let status = serve.wait(seconds: 10)
        let took = Date().timeIntervalSince(sent)
        #expect(status == 0, "exit status \(status.map(String.init) ?? "none: killed after 10 s"); stderr: \(serve.stderr)")
        #expect(took < 5, "took \(took) s to stop")
        let history = try CLI.run(["history", "list", "--format", "jsonl"], home: home)
        #expect(
            history.jsonLines.contains { $0["amount"] as? String == "31.19" && ($0["source"] as? String)?.hasPrefix(replay) == true },
            "the camera's price is not in the history: \(history.stdout)")
    }

    @Test("listening beyond loopback makes a token and prints it once")
    func nonLoopbackNeedsAToken() throws {
        let home = try CLI.tempDir()
        let serve = try RunningCLI(["serve", "--host", "0.0.0.0", "--port", "0", "--no-camera", "--jobs", "1"], home: home)
        let port = try #require(Self.port(serve), "no start-up line; stderr: \(serve.stderr)")
        let words = serve.stderr.components(separatedBy: .whitespacesAndNewlines)
        let token = words.first { $0.count == 32 && $0.allSatisfy(\.isHexDigit) }
        #expect(token != nil, "no token printed: \(serve.stderr)")
        let refused = Self.answer("http://127.0.0.1:\(port)/api/v1/settings")  // refused without it
        #expect(
            refused?.status == 401 && (refused?.object["error"] as? [String: Any])?["code"] as? String == "unauthorized",
            "\(String(describing: refused))")
        if let token {
            let answer = Self.get("http://127.0.0.1:\(port)/api/v1/settings?access_token=\(token)")
            #expect(answer?["configured"] as? Bool == false, "\(String(describing: answer)) token \(token)")
        }
        serve.send(SIGINT)
        #expect(serve.wait(seconds: 10) == 0)
    }

    @Test("--tls: a self-signed certificate made on first use, its fingerprint printed, kept for the next start")
    func tlsMakesAndKeepsACertificate() throws {
        let home = try CLI.tempDir()
        var fingerprints: [String] = []
        for run in 0..<2 {
            let serve = try RunningCLI(["serve", "--tls", "--port", "0", "--no-camera", "--jobs", "1"], home: home)
            #expect(serve.waitForOutput(containing: "pricecam serve: https://127.0.0.1:", seconds: 60, stream: \.stderr), "\(serve.stderr)")
            let words = serve.stderr.components(separatedBy: .whitespacesAndNewlines)
            if let i = words.firstIndex(of: "fingerprint"), i + 1 < words.count { fingerprints.append(words[i + 1]) }
            #expect(
                serve.stderr.contains(run == 0 ? "made a self-signed certificate" : "certificate \(home)/tls/cert.pem"), "\(serve.stderr)")
            serve.send(SIGINT)
            #expect(serve.wait(seconds: 10) == 0)
        }
        #expect(fingerprints.count == 2 && fingerprints[0] == fingerprints[1], "\(fingerprints)")
        #expect(fingerprints.first?.split(separator: ":").count == 32)
    }

    @Test("--tls-cert with a file that is not a certificate: exit 2 naming it")
    func tlsBadCertificateStopsTheStart() throws {
        let home = try CLI.tempDir()
        try "not a certificate".write(toFile: home + "/c.pem", atomically: true, encoding: .utf8)
        let r = try CLI.run(
            ["serve", "--tls-cert", home + "/c.pem", "--tls-key", home + "/k.pem", "--port", "0", "--no-camera"], home: home)
        #expect(r.status == 2)
        #expect(r.stderr.contains(home + "/c.pem"), "\(r.stderr)")
    }

    @Test("a PostgreSQL history that cannot be reached: exit 2 at start, naming the URL without its password and what to do")
    func unreachablePostgresStopsTheStart() throws {
        let home = try CLI.tempDir()
        let r = try CLI.run(
            ["serve", "--port", "0", "--no-camera", "--jobs", "1", "--history", "postgres://u:secret@127.0.0.1:1/d"], home: home)
        #expect(r.status == 2)
        #expect(r.stderr.contains("postgres://u@127.0.0.1:1/d") && r.stderr.contains("no PostgreSQL server answers"), "\(r.stderr)")
        #expect(r.stderr.contains("start the server") && r.stderr.contains("another --history"), "\(r.stderr)")
        #expect(!r.stderr.contains("secret") && !r.stderr.contains("--no-history") && !r.stderr.contains("http://"), "\(r.stderr)")
        let env = try CLI.run(
            ["serve", "--port", "0", "--no-camera"], home: home, environment: ["PRICECAM_HISTORY": "postgres://u:secret@127.0.0.1:1/d"])
        #expect(env.status == 2)
        #expect(env.stderr.contains("postgres://u@127.0.0.1:1/d") && !env.stderr.contains("secret"), "\(env.stderr)")
    }

    @Test(
        "bad options: usage error (exit 2) naming the value",
        arguments: [
            (["--port", "70000"], "--port"), (["--token", "short"], "--token"), (["--upload-limit", "0"], "--upload-limit"),
            (["--device", "/dev/video9", "--replay", "."], "--replay"),
            (["--history", "postgres://shop:pw@/prices"], "not a PostgreSQL URL"),
            (["--tls-cert", "cert.pem"], "--tls-cert and --tls-key"), (["--frame-limit", "1"], "--frame-limit"),
            (["--stream-fps", "0"], "--stream-fps"),
        ])
    func badOptions(args: [String], named: String) throws {
        let r = try CLI.run(["serve"] + args)
        #expect(r.status == 2)
        #expect(r.stderr.contains(named), "\(r.stderr)")
    }
}
