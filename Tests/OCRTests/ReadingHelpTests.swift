import Foundation
import Geometry
@testable import OCR
import Testing

/// `ReadingHelp`: an owner's tasks are read by it and by an idle reader, results come back in
/// task order, an error is thrown once every task has ended, and `close` releases the helper.
/// The readers are real (each its own engine); the tasks are stand-ins that say who ran them.
@Suite("Reading help")
struct ReadingHelpTests {
    static func reader() throws -> PageReader {
        PageReader(
            engine: try OCREngine(configuration: OCRConfiguration(tessdata: try Tessdata.locate(explicit: nil))),
            judge: RereadChoiceTests.DigitJudge(), options: AccuracyOptions())
    }

    /// A line of the words of `text` (split at spaces).
    static func line(_ text: String) -> TextLine {
        TextLine(
            words: text.split(separator: " ").enumerated().map { i, w in
                TextWord(text: String(w), box: Box(x: 20 * i, y: 0, width: 10, height: 10), confidence: 1)
            })
    }

    /// A helper thread lending `helper` until `help` is closed; `done` is signalled when it returns.
    static func startHelper(_ help: ReadingHelp, _ helper: PageReader, done: DispatchSemaphore) {
        nonisolated(unsafe) let lent = helper
        let thread = Thread {
            help.help(with: lent)
            done.signal()
        }
        thread.start()
    }

    @Test("tasks are shared with an idle reader, results in task order")
    func shared() throws {
        let owner = try Self.reader(), helper = try Self.reader()
        let help = ReadingHelp()
        let done = DispatchSemaphore(value: 0)
        Self.startHelper(help, helper, done: done)
        let results = try help.read(count: 12, by: owner) { reader, i throws(OCRError) in
            Thread.sleep(forTimeInterval: 0.02)  // long enough for both to take some
            return Self.line("\(i) \(reader === owner ? "owner" : "helper")")
        }
        #expect(results.map { $0?.words[0].text } == (0..<12).map { "\($0)" })
        let who = results.compactMap { $0?.words.last?.text }
        #expect(who.contains("owner") && who.contains("helper"), "\(who)")
        #expect(help.lent == who.filter { $0 == "helper" }.count)
        help.close()
        #expect(done.wait(timeout: .now() + 10) == .success, "close did not end help")
    }

    @Test("a task's error is thrown after every task has ended")
    func error() throws {
        let owner = try Self.reader(), helper = try Self.reader()
        let help = ReadingHelp()
        let done = DispatchSemaphore(value: 0)
        Self.startHelper(help, helper, done: done)
        let ended = Counter()
        #expect(throws: OCRError.self) {
            _ = try help.read(count: 8, by: owner) { _, i throws(OCRError) in
                Thread.sleep(forTimeInterval: 0.01)
                defer { ended.add() }
                if i == 3 { throw OCRError.recognitionFailed("task 3") }
                return nil
            }
        }
        #expect(ended.value == 8)
        help.close()
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    @Test("without a helper the owner reads every task itself")
    func alone() throws {
        let owner = try Self.reader()
        let help = ReadingHelp()
        let results = try help.read(count: 5, by: owner) { _, i throws(OCRError) in Self.line("\(i)") }
        #expect(results.map { $0?.text } == ["0", "1", "2", "3", "4"])
        #expect(help.lent == 0)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func add() { lock.withLock { n += 1 } }
        var value: Int { lock.withLock { n } }
    }
}
