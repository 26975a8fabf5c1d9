import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `pricecam serve` as a process: start-up, tokens, and a clean stop on SIGTERM.
@Suite struct ServeCLITests {
    /// The port from the start-up line `pricecam serve: http://127.0.0.1:PORT/…`.
    static func port(_ serve: RunningCLI) -> Int? {
        guard serve.waitForOutput(containing: "pricecam serve: http://", seconds: 60, stream: \.stderr) else { return nil }
        let line = serve.stderr.split(separator: "\n").first { $0.contains("pricecam serve: http://") } ?? ""
        let afterHost = line.split(separator: ":").dropFirst(3).first ?? ""
        return Int(afterHost.prefix { $0.isNumber })
    }

    /// The JSON object the server answers at `url`, asking again until one comes
    /// or `patience` seconds pass: on a loaded machine (CI runs the whole suite on
    /// 2 cores) one request can go unanswered for a while, which is not what these
    /// tests check.
    static func get(_ url: String, patience: TimeInterval = 60) -> [String: Any]? {
        let deadline = Date(timeIntervalSinceNow: patience)
        repeat {
            if let object = getOnce(url) { return object }
            usleep(200_000)
        } while Date() < deadline
        return nil
    }

    static func getOnce(_ url: String) -> [String: Any]? {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var object: [String: Any]?
        var request = URLRequest(url: URL(string: url)!)
        request.timeoutInterval = 10
        let task = URLSession.shared.dataTask(with: request) { data, _, _ in
            object = data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + 15) == .timedOut {
            task.cancel()
            return nil
        }
        return object
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
        #expect(Self.get("http://127.0.0.1:\(port)/api/v1/settings")?["error"] != nil)  // refused without it
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
