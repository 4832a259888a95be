import Foundation

/// Everything one run produced, as written to bench/results/<timestamp>.json and latest.json.
struct BenchResults: Encodable, Sendable {
    let startedAt: Date
    let durationSeconds: Double
    let plan: BenchPlan
    /// One line about the machine and build ("Linux 6.1.0, 2 cores, …").
    let machine: String
    /// The 1-minute load average when the run started and ended: other work on the machine (a build,
    /// another test run) competes for the two cores and shows up in the timing figures.
    let loadAverageAtStart: Double?
    let loadAverageAtEnd: Double?
    let figures: [Figure]
    let comparison: PeerComparison
    /// Idle wake-ups by thread in the three sessions of `IdleCost.threadsBySession`; `nil` when
    /// the step did not run.
    let idleThreads: IdleCost.ThreadTable?
    /// How each kind of figure was measured, printed under the table.
    let howMeasured: [String]

    /// The idle table by thread of the run whose results are `<directory>/latest.json`, if it
    /// has one: read before this run writes its own, to show beside it.
    static func previousIdleThreads(in directory: URL) -> IdleCost.ThreadTable? {
        struct Previous: Decodable { let idleThreads: IdleCost.ThreadTable? }
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("latest.json")) else { return nil }
        return (try? JSONDecoder().decode(Previous.self, from: data))?.idleThreads
    }

    /// Writes `<directory>/<timestamp>.json` and `<directory>/latest.json`; returns the first path.
    func write(to directory: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(self)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let file = directory.appendingPathComponent("\(formatter.string(from: startedAt)).json")
        try data.write(to: file, options: .atomic)
        try data.write(to: directory.appendingPathComponent("latest.json"), options: .atomic)
        return file
    }
}
