import Foundation
import HeadlessSession
import Testing

// What the desktop tiers (XfceDesktopTests, MakoDesktopTests, GnomeDesktopTests,
// PlasmaDesktopTests) do alike: wait for doctor's word, stop a ringing alarm and listen for the
// silence, read the time left off the screen, keep the README's screenshots.

extension AgentSession {
    /// `tocsin doctor`'s report once it contains `text`, waiting up to `timeout` seconds (the
    /// agent learns of its server and of do-not-disturb changes asynchronously); records an issue
    /// with the last report when it never does, and returns that report.
    @discardableResult
    func doctorOnceItSays(_ text: String, timeout: TimeInterval = 10) throws -> String {
        var doctor = ""
        #expect(try eventually(timeout: timeout) { doctor = try tocsin("doctor").stdout; return doctor.contains(text) },
                "doctor never said “\(text)”: \(doctor)")
        return doctor
    }

    /// Clicks the word `label` on the screen and waits up to `wait` seconds for `outcome`; when it
    /// does not come, looks again and clicks again, as a person does with a button that did not
    /// take, `attempts` clicks in all. Plasma's history once lost the first click on a countdown's
    /// Pause in a CI run (the next runs all took it), the button still drawn afterwards; the entry is redrawn each
    /// time the notification is updated in place (every second), most likely under the click.
    /// Returns whether `outcome` came; says on the test's output when it took more than one click.
    func click(_ label: String, until outcome: () throws -> Bool, wait: TimeInterval = 4, attempts: Int = 3) throws -> Bool {
        for attempt in 1...attempts {
            try session.clickOnScreen(label)
            if try eventually(timeout: wait, outcome) {
                if attempt > 1 { print("“\(label)” took \(attempt) clicks") }
                return true
            }
        }
        return false
    }

    /// Stops ringing alarm `id` the way `press` does (a click on Stop, mako's click), then expects
    /// the alarm gone and, from half a second after the press, a second of silence on `recording`.
    func expectStoppedIntoSilence(_ id: String, recording: SoundRecording, by press: () throws -> Void) throws {
        try press()
        let stopped = Date()
        #expect(try eventually { try alarm(id) == nil }, "the press did not stop it")
        Thread.sleep(forTimeInterval: 1.6)
        let trace = recording.stop()
        #expect(trace.isSilent(from: stopped.addingTimeInterval(0.5), to: stopped.addingTimeInterval(1.5)), "still sound after the press")
    }
}

extension ScreenText {
    /// The first time left on the screen: the "m:ss" (or "h:mm:ss") before "remaining", so
    /// the panel's clock is not taken for it.
    var timeLeft: String? {
        lines.lazy.compactMap { line in line.firstMatch(of: /(\d{1,2}:\d{2}(?::\d{2})?) remaining/).map { String($0.1) } }.first
    }

    /// Copies the screenshot this was read from into TOCSIN_SCREENSHOT_DIR as `name`, when it is
    /// set: the README's pictures are the tests' own.
    func keepForREADME(as name: String) {
        guard let directory = ProcessInfo.processInfo.environment["TOCSIN_SCREENSHOT_DIR"], let screenshot else { return }
        let target = URL(fileURLWithPath: directory).appendingPathComponent(name)
        try? FileManager.default.removeItem(at: target)
        try? FileManager.default.copyItem(at: screenshot, to: target)
    }
}
