import TocsinCore

/// What `tocsin doctor` prints for its findings, and how it ends.
struct DoctorReport {
    let findings: [DoctorCommand.Finding]

    /// One line per finding, marked with its level, its fix (if any) on the next line, then a
    /// closing line that says whether all is well.
    var lines: [String] {
        var lines: [String] = []
        for finding in findings {
            let mark = switch finding.level {
            case .ok: "ok      "
            case .optional: "optional"
            case .warning: "warning "
            case .problem: "PROBLEM "
            }
            lines.append("\(mark) \(finding.check): \(finding.message)")
            if let fix = finding.fix { lines.append("         → \(fix)") }
        }
        lines.append(ReadinessReport.summary(of: findings.map(\.level)))
        return lines
    }

    /// The findings as one line of JSON: an array of {"check", "level", "message", "fix"}.
    var json: String {
        AlarmText.json(.array(findings.map { finding in
            var object: [String: JSONValue] = ["check": .string(finding.check), "level": .string(finding.level.rawValue), "message": .string(finding.message)]
            object["fix"] = finding.fix.map(JSONValue.string)
            return .object(object)
        }))
    }

    /// The error the command ends with when something is a problem (exit 1); `nil` when nothing
    /// is (warnings allowed).
    var failure: CommandError? {
        let problems = findings.filter { $0.level == .problem }.count
        return problems > 0 ? .refused("\(problems) problem(s) found.") : nil
    }
}
