import Foundation
import Testing
@testable import History

/// The database named by PRICECAM_TEST_POSTGRES (scripts/test-postgres.sh starts one);
/// the tests that need it are skipped without it.
enum TestPostgres {
    static let url: PostgresURL? = ProcessInfo.processInfo.environment["PRICECAM_TEST_POSTGRES"].flatMap { try? PostgresURL($0) }

    /// A store on a table of its own, so that tests running at once do not see each other's rows.
    static func store(table: String = freshTable()) throws -> PostgresHistoryStore {
        try PostgresHistoryStore(url: url!, table: table)
    }

    static func freshTable() -> String {
        "conversion_test_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
    }
}

@Suite("history on PostgreSQL", .enabled(if: TestPostgres.url != nil, "set PRICECAM_TEST_POSTGRES (scripts/test-postgres.sh does)"))
struct PostgresHistoryStoreTests {
    @Test func appendAndList() throws { try BackendChecks.appendAndList(TestPostgres.store()) }
    @Test func exactDecimalsSurvive() throws { try BackendChecks.exactDecimalsSurvive(TestPostgres.store()) }
    @Test func listFilters() throws { try BackendChecks.listFilters(TestPostgres.store()) }
    @Test func statsSumExactlyByCurrency() throws { try BackendChecks.statsSumExactlyByCurrency(TestPostgres.store()) }
    @Test func recorderFlushesInChunksAndOnFinish() throws { try BackendChecks.recorderFlushesInChunksAndOnFinish(TestPostgres.store()) }
    @Test func recorderFlushesAfterInterval() throws { try BackendChecks.recorderFlushesAfterInterval(TestPostgres.store()) }

    /// Both writers start before the table exists: creating it at once must not fail either.
    @Test func twoWritersLoseNoRow() throws {
        let table = TestPostgres.freshTable()
        try BackendChecks.twoWritersLoseNoRow { try TestPostgres.store(table: table) }
    }

    /// The second INSERT of the transaction fails (PostgreSQL refuses NUL in text): the
    /// first one's 500 rows must be rolled back with it, and the store stays usable.
    @Test func appendIsOneTransaction() throws {
        let store = try TestPostgres.store()
        var rows = (0..<(PostgresHistoryStore.rowsPerInsert + 10)).map { entry($0) }
        rows[rows.count - 1].rawText = "bad\u{0}text"
        #expect(throws: HistoryError.self) { try store.append(rows) }
        #expect(try store.count() == 0)
        try store.append([entry(1)])
        #expect(try store.count() == 1)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func wrongPasswordIsAClearError() throws {
        var url = TestPostgres.url!
        url.password = "not-the-password"
        let error = #expect(throws: HistoryError.self) { try PostgresHistoryStore(url: url) }
        #expect(error?.problem.contains("authentication failed for user \"\(url.user)\"") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("not-the-password") == false, "the password is never shown")
    }

    @Test func missingDatabaseIsAClearError() throws {
        var url = TestPostgres.url!
        url.database = "no_such_pricecam_db"
        let error = #expect(throws: HistoryError.self) { try PostgresHistoryStore(url: url) }
        #expect(error?.problem.contains("the database \"no_such_pricecam_db\" does not exist") == true, "\(error?.description ?? "")")
        #expect(error?.fix.contains("createdb") == true)
    }

    /// The server ends the connection (as on a restart): the next call after the close is
    /// noticed connects again, so a recorder's retry saves its rows.
    @Test func reconnectsWhenTheServerDropsTheConnection() throws {
        let store = try TestPostgres.store()
        try store.append([entry(1)])
        let admin = try TestPostgres.store()
        let pid = try store.backendPID()
        _ = try admin.terminateForTest(pid: pid)
        var waited = 0
        while waited < 50, (try? store.count()) == nil { usleep(100_000); waited += 1 }
        try store.append([entry(2)])
        #expect(try store.count() == 2)
        #expect(try store.backendPID() != pid)
    }

    @Test func closedStoreFailsClearly() throws {
        let store = try TestPostgres.store()
        store.close()
        let error = #expect(throws: HistoryError.self) { try store.count() }
        #expect(error?.problem.contains("closed") == true)
    }
}

/// No server needed.
@Suite("history location")
struct HistoryLocationTests {
    @Test func parsesPostgresURLs() throws {
        let url = try PostgresURL("postgres://shop:s%40cret@db.example:6543/prices")
        #expect(url == PostgresURL(user: "shop", password: "s@cret", host: "db.example", port: 6543, database: "prices"))
        #expect(url.redacted == "postgres://shop@db.example:6543/prices")
        #expect(try PostgresURL("postgresql://shop@db.example/prices").port == 5432)
        #expect(try HistoryLocation.parse("/tmp/h.sqlite") == .sqlite(path: "/tmp/h.sqlite"))
        #expect(try HistoryLocation.parse("postgres://a@b/c") == .postgres(PostgresURL("postgres://a@b/c")))
    }

    @Test(arguments: ["postgres://db.example/prices", "postgres://u:pw@/prices", "postgres://u:pw@host:5432", "mysql://u@h/d"])
    func rejectsBadURLs(_ text: String) {
        let error = #expect(throws: HistoryError.self) { try HistoryLocation.parse(text) }
        #expect(error?.description.contains(":pw@") == false, "the password is never shown: \(error?.description ?? "")")
    }

    @Test func flagThenEnvironmentThenDefault() throws {
        let paths = PricecamPaths(settingsFile: "/x/settings.toml", historyDatabase: "/x/history.sqlite")
        let env = ["PRICECAM_HISTORY": "postgres://u@h:1/d"]
        #expect(try HistoryLocation.resolve(flag: "/y.sqlite", environment: env, paths: paths) == .sqlite(path: "/y.sqlite"))
        #expect(try HistoryLocation.resolve(flag: nil, environment: env, paths: paths).description == "postgres://u@h:1/d")
        #expect(try HistoryLocation.resolve(flag: nil, environment: [:], paths: paths) == .sqlite(path: "/x/history.sqlite"))
    }

    /// Nothing listens on port 1: the message says so and what to do.
    @Test func serverDownIsAClearError() throws {
        let url = PostgresURL(user: "u", password: "secret", host: "127.0.0.1", port: 1, database: "d")
        let error = #expect(throws: HistoryError.self) { try PostgresHistoryStore(url: url) }
        #expect(error?.problem.contains("no PostgreSQL server answers at 127.0.0.1:1") == true, "\(error?.description ?? "")")
        #expect(error?.fix.contains("start the server") == true)
        #expect(error?.description.contains("secret") == false)
        #expect(error?.path == "postgres://u@127.0.0.1:1/d")
    }
}
