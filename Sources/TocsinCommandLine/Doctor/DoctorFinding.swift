import TocsinCore

extension DoctorCommand {
    /// One finding.
    struct Finding {
        typealias Level = ReadinessReport.Level
        let check: String
        let level: Level
        let message: String
        var fix: String? = nil

        init(check: String, level: Level, message: String, fix: String? = nil) {
            self.check = check
            self.level = level
            self.message = message
            self.fix = fix
        }

        init(check: String, _ report: ReadinessReport) {
            self.init(check: check, level: report.level, message: report.message, fix: report.fix)
        }
    }
}
