import Foundation

/// Where pricecam keeps its files.
///
/// - `PRICECAM_HOME` set (non-empty): everything lives in that directory
///   (`settings.toml`, `history.sqlite`). For tests and separate profiles.
/// - otherwise settings in `$XDG_CONFIG_HOME/pricecam/settings.toml`
///   (default `~/.config/pricecam/`) and history in
///   `$XDG_DATA_HOME/pricecam/history.sqlite` (default `~/.local/share/pricecam/`).
///   Relative XDG values are ignored, as the XDG spec says.
public struct PricecamPaths: Sendable, Equatable {
    public var settingsFile: String
    public var historyDatabase: String

    public init(settingsFile: String, historyDatabase: String) {
        self.settingsFile = settingsFile
        self.historyDatabase = historyDatabase
    }

    public static func current() -> PricecamPaths {
        resolve(environment: ProcessInfo.processInfo.environment)
    }

    public static func resolve(environment env: [String: String]) -> PricecamPaths {
        if let home = env["PRICECAM_HOME"], !home.isEmpty {
            return PricecamPaths(settingsFile: join(home, "settings.toml"), historyDatabase: join(home, "history.sqlite"))
        }
        let userHome = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func xdg(_ name: String, _ fallback: String) -> String {
            if let v = env[name], v.hasPrefix("/") { return v }
            return join(userHome, fallback)
        }
        let config = join(xdg("XDG_CONFIG_HOME", ".config"), "pricecam")
        let data = join(xdg("XDG_DATA_HOME", ".local/share"), "pricecam")
        return PricecamPaths(settingsFile: join(config, "settings.toml"), historyDatabase: join(data, "history.sqlite"))
    }

    static func join(_ a: String, _ b: String) -> String {
        a.hasSuffix("/") ? a + b : a + "/" + b
    }
}
