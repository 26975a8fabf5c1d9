import ArgumentParser
import Foundation

struct PriceCam: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pricecam",
        abstract: "Read prices off camera frames and photos, convert them with your stored exchange rate, keep a history.",
        discussion: """
            Exit codes: 0 ok; 1 some inputs failed (each is reported); 2 usage or settings error; 3 device error.
            stdout stays machine-readable (table on a terminal, JSON Lines otherwise); progress and live views go to stderr.
            """,
        subcommands: [
            Scan.self, Batch.self, Eval.self, Parse.self, Live.self, Devices.self, Setup.self, Settings.self, HistoryCommand.self,
            Serve.self, Merge.self,
        ]
    )

    /// Runs the command line, mapping usage errors to exit code 2 (the
    /// argument parser's default is 64) as the documented contract says.
    static func start() async {
        do {
            var command = try parseAsRoot()
            if var async = command as? any AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                Console.err(fullMessage(for: error) + "\n")
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
