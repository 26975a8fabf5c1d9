import ArgumentParser
import History

/// `--history LOCATION`, shared by `scan`, `batch`, `live` and the `history` commands:
/// a `postgres://USER[:PASS]@HOST:PORT/DB` URL, or a SQLite file. Without it,
/// `PRICECAM_HISTORY`, else the settings file's `history` line, else the default SQLite file.
struct HistoryOption: ParsableArguments {
    @Option(
        name: .customLong("history"),
        help: ArgumentHelp(
            "Where the history lives: postgres://USER[:PASS]@HOST:PORT/DB, or a SQLite file (default: $PRICECAM_HISTORY, else the settings' history line, see `pricecam settings set --history`, else history.sqlite in the data directory).",
            valueName: "LOCATION"))
    var history: String?

    /// The chosen location; a malformed URL (flag or environment) is a usage error.
    func location() throws -> HistoryLocation {
        do { return try HistoryLocation.resolve(flag: history) } catch {
            throw ValidationError(error.description)
        }
    }
}
