import FoundationEssentials

/// One line of `tocsin doctor`: how a check came out, what is so, and what to do about it.
public struct ReadinessReport: Equatable, Sendable {
    /// How much a finding matters for alarms being seen and heard.
    public enum Level: String, Comparable, Sendable {
        /// Works as it should.
        case ok
        /// A part that adds to Tocsin (a panel's tray, a phone) is not there; nothing that
        /// alarms need is missing.
        case optional
        /// Alarms still ring, but something the user expects will not happen.
        case warning
        /// Alarms will not be seen or heard (or not be kept).
        case problem

        private var rank: Int {
            switch self {
            case .ok: 0
            case .optional: 1
            case .warning: 2
            case .problem: 3
            }
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }

    public var level: Level
    public var message: String
    public var fix: String?

    public init(_ level: Level, _ message: String, fix: String? = nil) {
        self.level = level
        self.message = message
        self.fix = fix
    }

    /// The closing line of the doctor's report over `levels`: all is well when nothing is worse
    /// than optional, and what was found otherwise.
    public static func summary(of levels: [Level]) -> String {
        let problems = levels.filter { $0 == .problem }.count
        let warnings = levels.filter { $0 == .warning }.count
        let optional = levels.filter { $0 == .optional }.count
        let extras = optional == 0 ? "" : " (\(optional) optional part\(optional == 1 ? "" : "s") not set up)"
        switch (problems, warnings) {
        case (0, 0): return "All is well: alarms will be seen and heard here\(extras)."
        case (0, _): return "Alarms will ring here; \(warnings) warning\(warnings == 1 ? "" : "s") above\(extras)."
        default: return "\(problems) problem\(problems == 1 ? "" : "s") found: see above."
        }
    }
}
