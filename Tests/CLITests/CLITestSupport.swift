import Foundation
import Synchronization
import TestSupport

/// Runs the built `pricecam` binary (it sits next to the test bundle).
enum CLI {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .path
    static let fixtures = "\(root)/Fixtures"

    static var binary: String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("pricecam").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return dir.appendingPathComponent("pricecam").path
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var jsonLines: [[String: Any]] {
            stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
        }
    }

    /// Runs pricecam with `args` and a private PRICECAM_HOME; `asUser` runs it
    /// unprivileged through setpriv (root reads every file, so permission tests need it).
    static func run(
        _ args: [String], home: String? = nil, stdin: String? = nil, asNobody: Bool = false, closeStdout: Bool = false,
        closeStderr: Bool = false, environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        if asNobody {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + args
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = args
        }
        var env = ProcessInfo.processInfo.environment
        env["PRICECAM_HOME"] = try home ?? tempDir()
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // A reader that goes away at once, like `pricecam batch ... | head -0`.
        if closeStdout { try out.fileHandleForReading.close() }
        if closeStderr { try err.fileHandleForReading.close() }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child never blocks.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            if !closeStderr { errData = err.fileHandleForReading.readDataToEndOfFile() }
            group.leave()
        }
        let outData = closeStdout ? Data() : out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    static func tempDir() throws -> String {
        try Scratch.folder("pricecam-cli")
    }
}

/// A pricecam process left running, for tests that watch its output as it
/// comes and signal it (`live`). Every wait has a deadline.
// Unchecked: `Process` is not Sendable; the readers only touch `output`.
final class RunningCLI: @unchecked Sendable {
    let process = Process()
    private let output = Mutex((out: Data(), err: Data()))
    private let readers = DispatchGroup()

    init(_ args: [String], home: String) throws {
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["PRICECAM_HOME"] = home
        process.environment = env
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        for (pipe, isOut) in [(outPipe, true), (errPipe, false)] {
            readers.enter()
            DispatchQueue.global().async {
                let handle = pipe.fileHandleForReading
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    self.output.withLock { if isOut { $0.out.append(chunk) } else { $0.err.append(chunk) } }
                }
                self.readers.leave()
            }
        }
    }

    var stdout: String { String(decoding: output.withLock { $0.out }, as: UTF8.self) }
    var stderr: String { String(decoding: output.withLock { $0.err }, as: UTF8.self) }

    /// Waits until stdout (or stderr) contains `text`; false after `seconds` or when the process ended without it.
    func waitForOutput(containing text: String, seconds: Double, stream: KeyPath<RunningCLI, String> = \.stdout) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if self[keyPath: stream].contains(text) { return true }
            if !process.isRunning { return self[keyPath: stream].contains(text) }
            usleep(10_000)
        }
        return false
    }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// The exit status once the process ended, nil (and the process killed) after `seconds`.
    func wait(seconds: Double) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            send(SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        readers.wait()
        return process.terminationStatus
    }
}
