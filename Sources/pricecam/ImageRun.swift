import History
import ArgumentParser
import Foundation
import OCR
import Pipeline
import PriceParsing
import Synchronization

/// What scan and batch share: run the items, print results in order, report
/// failures on stderr, exit 1 when any input failed.
enum ImageRun {
    static func run(
        items: [InputItem], ocr: OCROptions, format: OutputFormat, jobs: Int, progress: Bool,
        conversion: ConversionOptions, output file: OutputFile? = nil
    ) throws {
        let emit: @Sendable (String) -> Void
        if let file { emit = { file.write($0) } } else { emit = { Console.out($0) } }
        let prepared = try conversion.prepare(interactiveSetupAllowed: true)
        let settings = try ocr.extraction(currency: prepared.currencyHint, converter: prepared.converter)
        let formatter = ResultFormatter(format: format)
        if let header = formatter.header() { emit(header) }
        let bar = ProgressBar(total: items.count, enabled: progress && isatty(STDERR_FILENO) == 1)
        let counter = Counter()
        let recorder = prepared.history
        let summary: BatchRunner.Summary
        do {
            summary = try BatchRunner(settings: settings, jobs: jobs).run(items) { result in
                if let error = result.error {
                    bar.clearLine()
                    Console.error(error.message)
                }
                emit(formatter.render(result))
                recorder?.record(result)
                let (done, failed) = counter.add(failed: result.error != nil)
                bar.update(done: done, failed: failed)
            }
        } catch {
            Console.error("\(error)")
            throw ExitCode(2)
        }
        bar.finish()
        let historyOK = recorder?.finish() ?? true
        if let file {
            do { try file.commit() } catch {
                Console.error(error.message)
                throw ExitCode(1)
            }
        }
        if summary.failed > 0 {
            Console.error("\(summary.failed) of \(summary.images) input(s) failed (see the messages above).")
            throw ExitCode(1)
        }
        if !historyOK { throw ExitCode(1) }
    }
}

/// Counts finished items for the progress bar (results arrive serially).
final class Counter: Sendable {
    private let counts = Mutex((done: 0, failed: 0))

    func add(failed f: Bool) -> (Int, Int) {
        counts.withLock {
            $0.done += 1
            if f { $0.failed += 1 }
            return ($0.done, $0.failed)
        }
    }
}
