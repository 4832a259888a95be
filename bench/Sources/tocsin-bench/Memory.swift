import Foundation

/// Memory: the agent's resident set size (VmRSS, what it holds in RAM now) with a given number of
/// alarms; the peak (VmHWM) goes into the note, since loading or a burst of calls can raise it.
enum Memory {
    static let section = "Memory"

    /// The agent's RSS in MB (10^6 bytes; /proc counts in KiB).
    static func residentFigure(of pid: Int32, what: String, target: Target? = nil) -> Figure {
        let label = "agent RSS, \(what)"
        guard let resident = ProcessActivity.residentKilobytes(of: pid) else {
            return .notMeasured("the agent was not running", section: section, label: label, unit: "MB", target: target)
        }
        let peak = ProcessActivity.peakResidentKilobytes(of: pid).map { "peak (VmHWM) \(Report.number(megabytes(kibibytes: $0))) MB" }
        let parts = ProcessActivity.residentBreakdown(of: pid).map { parts in
            "anonymous \(Report.number(megabytes(kibibytes: parts.anonymous))) MB (main heap \(Report.number(megabytes(kibibytes: parts.heap))) MB, "
                + "other \(Report.number(megabytes(kibibytes: parts.anonymous - parts.heap))) MB), files \(Report.number(megabytes(kibibytes: parts.file))) MB"
        }
        return Figure(section: section, label: label, unit: "MB", outcome: .value(megabytes(kibibytes: resident)),
                      target: target, note: [peak, parts].compactMap { $0 }.joined(separator: "; "))
    }

    /// Converts /proc's "kB" (KiB) to MB.
    static func megabytes(kibibytes: Int) -> Double { Double(kibibytes) * 1024 / 1_000_000 }
}
