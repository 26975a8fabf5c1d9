import Testing
@testable import Pipeline

@Suite struct LiveStabilityTests {
    typealias Tracker = StabilityTracker<String, Int>

    /// Feeds frames (each a list of keys, value = frame index); returns (appeared, disappeared) per frame.
    static func run(_ frames: [[String]], rule: StabilityRule) -> (appeared: [[String]], gone: [[String]], tracker: Tracker) {
        var t = Tracker(rule: rule)
        var a: [[String]] = [], g: [[String]] = []
        for (i, keys) in frames.enumerated() {
            let u = t.observe(keys.map { (key: $0, value: i) })
            a.append(u.appeared.map(\.key))
            g.append(u.disappeared.map(\.key))
        }
        return (a, g, t)
    }

    @Test func reportedOnTheKthSightingWithinM() {
        let r = Self.run([["A"], [], ["A"], ["A"]], rule: StabilityRule(k: 3, m: 5))
        #expect(r.appeared == [[], [], [], ["A"]])
    }

    @Test func aSingleMisreadIsNeverReported() {
        let r = Self.run([["A"], ["A", "X"], ["A"], ["A"], ["A"], ["A"], ["A"]], rule: .default)
        #expect(r.appeared.flatMap { $0 } == ["A"])
    }

    @Test func sightingsTooFarApartDoNotCount() {
        // 3 sightings but never 3 within any 5 consecutive frames.
        let r = Self.run([["A"], [], [], [], ["A"], [], [], [], ["A"]], rule: .default)
        #expect(r.appeared.flatMap { $0 }.isEmpty)
    }

    @Test func reportedOncePerAppearanceNotPerFrame() {
        let frames = Array(repeating: ["A"], count: 50)
        let r = Self.run(frames, rule: .default)
        #expect(r.appeared.flatMap { $0 } == ["A"])
        #expect(r.gone.flatMap { $0 }.isEmpty)
    }

    @Test func goneAfterMFramesWithoutItThenANewAppearance() {
        let frames: [[String]] = Array(repeating: ["A"], count: 3) + Array(repeating: [], count: 5) + Array(repeating: ["A"], count: 3)
        let r = Self.run(frames, rule: .default)
        #expect(r.appeared.flatMap { $0 } == ["A", "A"])
        #expect(r.gone[7] == ["A"])  // missing from all of the last 5
        #expect(r.gone.flatMap { $0 } == ["A"])
    }

    @Test func briefOcclusionKeepsThePriceAndItsPlace() {
        let frames: [[String]] = [["A", "B"], ["A", "B"], ["A", "B"], ["B"], ["B"], ["A", "B"], ["A", "B"]]
        let r = Self.run(frames, rule: .default)
        #expect(r.appeared.flatMap { $0 } == ["A", "B"])
        #expect(r.gone.flatMap { $0 }.isEmpty)
        #expect(r.tracker.visible.map(\.key) == ["A", "B"])
        #expect(r.tracker.visible.first?.value == 6)  // latest sighting kept up to date
    }

    @Test(arguments: [StabilityRule(k: 1, m: 1), StabilityRule(k: 2, m: 3), StabilityRule(k: 5, m: 5)])
    func appearsExactlyOnTheKthConsecutiveFrame(rule: StabilityRule) {
        let r = Self.run(Array(repeating: ["P"], count: 10), rule: rule)
        #expect(r.appeared.firstIndex(where: { !$0.isEmpty }) == rule.k - 1)
    }

    @Test func duplicatesOnOneFrameCountOnce() {
        let r = Self.run([["A", "A", "A"]], rule: StabilityRule(k: 2, m: 3))
        #expect(r.appeared.flatMap { $0 }.isEmpty)
    }

    @Test func parsesKOverM() {
        #expect(StabilityRule(parsing: "2/4") == StabilityRule(k: 2, m: 4))
        #expect(StabilityRule(parsing: "5/4") == nil)
        #expect(StabilityRule(parsing: "0/4") == nil)
        #expect(StabilityRule(parsing: "x") == nil)
    }
}
