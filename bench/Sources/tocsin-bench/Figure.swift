import Foundation

/// One measured figure of the benchmark: a distribution of samples, a single value, or the reason it
/// could not be measured — never an invented number.
struct Figure: Encodable, Sendable {
    /// The group it belongs to in the table ("Fire precision", "Idle cost"…).
    let section: String
    /// What was measured, precisely enough to read the table without the code.
    let label: String
    /// The unit of every number of the figure ("ms", "wake-ups/min", "MB", "s").
    let unit: String
    let outcome: Outcome
    /// The project's target for it, if it has one.
    let target: Target?
    /// Whether the table shows the 99th percentile (only where a target or the brief asks for it).
    let showsP99: Bool
    /// A short remark printed in the notes under the table (sample size caveats, what was excluded).
    let note: String?

    /// How the figure came out.
    enum Outcome: Encodable, Sendable {
        case distribution(Summary)
        case value(Double)
        case notMeasured(reason: String)

        private enum CodingKeys: String, CodingKey { case kind, summary, value, reason }

        /// `{"kind": "distribution", "summary": {…}}`, `{"kind": "value", "value": 3.2}` or
        /// `{"kind": "not-measured", "reason": "…"}`: plain keys for whoever reads the JSON.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .distribution(let summary):
                try container.encode("distribution", forKey: .kind)
                try container.encode(summary, forKey: .summary)
            case .value(let value):
                try container.encode("value", forKey: .kind)
                try container.encode(value, forKey: .value)
            case .notMeasured(let reason):
                try container.encode("not-measured", forKey: .kind)
                try container.encode(reason, forKey: .reason)
            }
        }
    }

    private enum CodingKeys: String, CodingKey { case section, label, unit, outcome, target, note, verdict }

    /// The stored fields plus the verdict, so the JSON says PASS/FAIL like the table.
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(section, forKey: .section)
        try container.encode(label, forKey: .label)
        try container.encode(unit, forKey: .unit)
        try container.encode(outcome, forKey: .outcome)
        try container.encodeIfPresent(target, forKey: .target)
        try container.encodeIfPresent(note, forKey: .note)
        try container.encodeIfPresent(verdict, forKey: .verdict)
    }

    init(section: String, label: String, unit: String, outcome: Outcome, target: Target? = nil,
         showsP99: Bool = false, note: String? = nil) {
        self.section = section
        self.label = label
        self.unit = unit
        self.outcome = outcome
        self.target = target
        self.showsP99 = showsP99 || target?.statistic == .p99
        self.note = note
    }

    /// A distribution figure, or "not measured" with `emptyReason` when there is no sample.
    static func samples(_ samples: [Double], section: String, label: String, unit: String, target: Target? = nil,
                        showsP99: Bool = false, note: String? = nil, emptyReason: String) -> Figure {
        let outcome: Outcome = Summary(samples).map { .distribution($0) } ?? .notMeasured(reason: emptyReason)
        return Figure(section: section, label: label, unit: unit, outcome: outcome, target: target,
                      showsP99: showsP99, note: note)
    }

    /// A figure that could not be measured, and why.
    static func notMeasured(_ reason: String, section: String, label: String, unit: String, target: Target? = nil) -> Figure {
        Figure(section: section, label: label, unit: unit, outcome: .notMeasured(reason: reason), target: target)
    }

    /// The distribution, when the figure is one.
    var summary: Summary? {
        if case .distribution(let summary) = outcome { return summary }
        return nil
    }

    /// The single value, when the figure is one.
    var singleValue: Double? {
        if case .value(let value) = outcome { return value }
        return nil
    }

    /// PASS or FAIL against the target; nil without a target or without a measurement.
    var verdict: Verdict? {
        guard let target else { return nil }
        let measured: Double
        switch outcome {
        case .notMeasured: return nil
        case .value(let value): measured = value
        case .distribution(let summary):
            switch target.statistic {
            case .median: measured = summary.median
            case .p99: measured = summary.p99
            case .max: measured = summary.max
            case .value: measured = summary.median
            }
        }
        return measured <= target.limit ? .pass : .fail
    }
}

/// A target a figure must stay at or under.
struct Target: Encodable, Sendable {
    /// Which number of the figure the target applies to.
    enum Statistic: String, Encodable, Sendable {
        case median = "p50", p99, max, value
    }

    let statistic: Statistic
    let limit: Double
    let unit: String

    /// "p99 ≤ 10 ms", "= 0 wake-ups/min".
    var text: String {
        let number = Report.number(limit)
        let prefix = statistic == .value ? "" : statistic.rawValue + " "
        return limit == 0 ? "\(prefix)= 0" : "\(prefix)≤ \(number) \(unit)"
    }
}

/// Whether a figure met its target. The benchmark reports it and never fails because of it.
enum Verdict: String, Encodable, Sendable {
    case pass = "PASS"
    case fail = "FAIL"
}
