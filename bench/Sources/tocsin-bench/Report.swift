import Foundation

/// Renders the results as Markdown: the figures table (min / median / max, p99 where asked,
/// target and PASS/FAIL), the side-by-side table with ratios to Tocsin, and how it was measured.
enum Report {
    /// `previousIdleThreads`: the last run's idle table by thread, shown beside this run's.
    static func markdown(_ results: BenchResults, previousIdleThreads: IdleCost.ThreadTable? = nil) -> String {
        var lines: [String] = []
        lines.append("## Tocsin benchmark — \(results.plan.mode) run, \(timestamp(results.startedAt)) "
                     + "(took \(duration(results.durationSeconds)))")
        lines.append("")
        lines.append(results.machine)
        lines.append("")
        lines.append(contentsOf: figuresTable(results.figures))
        lines.append("")
        lines.append("### Side by side (same run, same session; ratio = tool ÷ Tocsin)")
        lines.append("")
        lines.append(contentsOf: comparisonTable(results.comparison))
        lines.append("")
        if let idleThreads = results.idleThreads {
            lines.append("### Idle wake-ups per minute by thread (\(results.plan.idleWindowText) windows\(previousIdleThreads == nil ? "" : "; beside each, the previous run's, from latest.json"))")
            lines.append("")
            lines.append(contentsOf: IdleCost.threadTableMarkdown(idleThreads, previous: previousIdleThreads))
            lines.append("")
        }
        lines.append("### How measured")
        lines.append("")
        lines.append(contentsOf: results.howMeasured.map { "- \($0)" })
        let notes = results.figures.compactMap { figure in figure.note.map { "\(figure.label): \($0)" } }
        if !notes.isEmpty {
            lines.append("")
            lines.append("### Notes on single figures")
            lines.append("")
            lines.append(contentsOf: notes.map { "- \($0)" })
        }
        return lines.joined(separator: "\n")
    }

    /// The order of the sections in the table (figures are measured in another order).
    private static let sectionOrder = [FirePrecision.section, Jitter.section, IdleCost.section, Memory.section,
                                       Latency.section, PeerMeasurements.section]

    private static func figuresTable(_ measured: [Figure]) -> [String] {
        // Stable: within a section, figures keep the order they were measured in.
        let figures = measured.enumerated().sorted { first, second in
            let ranks = [first, second].map { sectionOrder.firstIndex(of: $0.element.section) ?? sectionOrder.count }
            return ranks[0] != ranks[1] ? ranks[0] < ranks[1] : first.offset < second.offset
        }.map(\.element)
        var lines = ["| Figure | unit | n | min | median / value | max | p99 | target | result |",
                     "|---|---|---:|---:|---:|---:|---:|---|---|"]
        var section = ""
        for figure in figures {
            if figure.section != section {
                section = figure.section
                lines.append("| **\(section)** | | | | | | | | |")
            }
            let target = figure.target?.text ?? ""
            let verdict = figure.verdict?.rawValue ?? (figure.target == nil ? "" : "—")
            switch figure.outcome {
            case .distribution(let summary):
                let p99 = figure.showsP99 ? number(summary.p99) : ""
                lines.append("| \(figure.label) | \(figure.unit) | \(summary.count) | \(number(summary.min)) | "
                             + "\(number(summary.median)) | \(number(summary.max)) | \(p99) | \(target) | \(verdict) |")
            case .value(let value):
                lines.append("| \(figure.label) | \(figure.unit) | | | \(number(value)) | | | \(target) | \(verdict) |")
            case .notMeasured(let reason):
                lines.append("| \(figure.label) | \(figure.unit) | | | not measured: \(escape(reason)) | | | \(target) | — |")
            }
        }
        return lines
    }

    private static func comparisonTable(_ comparison: PeerComparison) -> [String] {
        guard !comparison.columns.isEmpty else { return ["(nothing compared)"] }
        var lines = ["| | " + comparison.columns.map(\.tool).joined(separator: " | ") + " |",
                     "|---|" + String(repeating: "---:|", count: comparison.columns.count)]
        for row in comparison.rows {
            // Tocsin is the first column; every other value is shown with its ratio to Tocsin's.
            let base = row.cells.first?.value
            let cells = zip(comparison.columns, row.cells).enumerated().map { index, pair -> String in
                let (column, cell) = pair
                if column.skippedBecause != nil { return "skipped" }
                guard let value = cell.value else { return cell.remark ?? "—" }
                let shown = number(value) + (cell.remark.map { " \($0)" } ?? "")
                return index == 0 ? shown : "\(shown) (\(ratio(value, to: base)))"
            }
            lines.append("| \(row.metric) (\(row.unit)) | " + cells.joined(separator: " | ") + " |")
        }
        let skipped = comparison.columns.compactMap { column in column.skippedBecause.map { "\(column.tool): skipped — \($0)" } }
        if !skipped.isEmpty {
            lines.append("")
            lines.append(contentsOf: skipped.map { "- \($0)" })
        }
        return lines
    }

    /// "×2.3", "same" or why there is no ratio — never a division by zero or by a negative delay
    /// (a sound onset a few ms before due, within the recording's resolution) dressed up as a number.
    private static func ratio(_ value: Double, to base: Double?) -> String {
        guard let base else { return "no Tocsin figure" }
        if base == 0 && value == 0 { return "same" }
        guard base > 0, value >= 0 else { return "no ratio: Tocsin ≤ 0" }
        return "×" + number(value / base)
    }

    /// A number with as many decimals as its size deserves: whole numbers as they are, otherwise
    /// about three significant digits.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        let magnitude = abs(value)
        if value == value.rounded() || magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        if magnitude >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.3f", value)
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }

    private static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 60 ? "\(whole / 60) min \(whole % 60) s" : "\(whole) s"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
