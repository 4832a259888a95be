import Foundation

/// The side-by-side table: Tocsin next to the tools people use today for the same job, measured in
/// the same run and the same session. Tocsin is always the first column; the report shows every
/// other tool's value with its ratio to Tocsin's.
struct PeerComparison: Encodable, Sendable {
    /// One tool, or the reason it was left out.
    struct Column: Encodable, Sendable {
        let tool: String
        /// Why the tool has no figures in this run (not installed, skipped in --quick…); nil when measured.
        let skippedBecause: String?
    }

    /// One value of one tool, or why it has none.
    struct Cell: Encodable, Sendable {
        let value: Double?
        /// Why there is no value ("no notification", "does not apply"), or a remark on the value.
        let remark: String?

        static func measured(_ value: Double?, missing: String = "not measured") -> Cell {
            Cell(value: value, remark: value == nil ? missing : nil)
        }

        static func notApplicable(_ why: String) -> Cell { Cell(value: nil, remark: why) }

        /// The median of `samples` with their count ("12.3 (n=5)"), or `missing` without samples.
        static func median(_ samples: [Double], missing: String = "not measured") -> Cell {
            guard let summary = Summary(samples) else { return Cell(value: nil, remark: missing) }
            return Cell(value: summary.median, remark: "(n=\(summary.count))")
        }
    }

    /// One metric across every column, in column order.
    struct Row: Encodable, Sendable {
        let metric: String
        let unit: String
        let cells: [Cell]
    }

    var columns: [Column] = []
    var rows: [Row] = []
}

/// The values of one tool for the side-by-side table: delays in milliseconds (every sample),
/// wake-ups per minute while waiting, resident memory in MB.
struct ToolFigures {
    /// Due → a command of the tool's runs (Tocsin's `fire` hook, an `at` job).
    var commandRuns: [Double] = []
    /// Due → its notification reaches the notification server.
    var notification: [Double] = []
    /// Due → its first audio on the sink.
    var firstAudio: [Double] = []
    var idleWakeups: Double?
    var residentMB: Double?
}
