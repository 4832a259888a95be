import Testing
@testable import TocsinCore

/// What `tocsin doctor` concludes: the panel's finding, and the closing line over every level.
@Suite struct ReadinessReportTests {
    @Test("A missing panel is optional; a tray, the GNOME extension or --no-tray are fine")
    func panel() {
        #expect(PanelReadiness.report(.tray).level == .ok)
        #expect(PanelReadiness.report(.gnomeExtension).level == .ok)
        #expect(PanelReadiness.report(.off) == .init(.ok, "off (tocsind --no-tray): countdowns show in their notifications"))
        let none = PanelReadiness.report(.none)
        #expect(none.level == .optional && none.message == "no panel shows Tocsin's tray item: countdowns show in their notifications only")
        #expect(none.fix?.contains("gnome-extensions enable tocsin@tocsin.github.io") == true)
        #expect(PanelReadiness.Host(rawValue: "gnome-extension") == .gnomeExtension)
    }

    @Test("All is well with optional parts missing; warnings and problems are counted")
    func summary() {
        #expect(ReadinessReport.summary(of: [.ok, .ok]) == "All is well: alarms will be seen and heard here.")
        #expect(ReadinessReport.summary(of: [.ok, .optional, .optional]) == "All is well: alarms will be seen and heard here (2 optional parts not set up).")
        #expect(ReadinessReport.summary(of: [.ok, .warning, .optional]) == "Alarms will ring here; 1 warning above (1 optional part not set up).")
        #expect(ReadinessReport.summary(of: [.warning, .problem, .problem]) == "2 problems found: see above.")
        #expect([ReadinessReport.Level.problem, .ok, .warning, .optional].sorted() == [.ok, .optional, .warning, .problem])
    }
}
