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

extension ScreenPixels {
    /// Whether these pixels show Tocsin's colour icon (data/icons/hicolor/scalable/apps): its red
    /// face (#f66151 to #c01c28, rim #a51d2d) with its yellow bell (#fff7d6 to #f6d32d) on it,
    /// the face the larger. A one-colour bell (GNOME's symbolic icons, grey or white), a theme's
    /// generic icon, the banner's text and the desktop behind hold neither colour. The counts are
    /// those a 16-pixel icon still gives (Plasma's popup header); GNOME draws it at 32 and 48.
    var showsTocsinsColourIcon: Bool {
        let (face, bell) = tocsinIconPixels
        return face >= 20 && bell >= 5 && face > bell
    }

    /// How many pixels are of the icon's red face and of its yellow bell.
    var tocsinIconPixels: (face: Int, bell: Int) {
        (count { $0.red >= 150 && $0.green <= 115 && $0.blue <= 115 },
         count { $0.red >= 200 && $0.green >= 170 && $0.blue <= 160 })
    }
}

extension AgentSession {
    /// The colours of the icon a notification server draws left of `word` (a notification's
    /// title, or the application's name in a header) on the screen `screen` was read from,
    /// in a box `size` pixels wide and high ending `gap` pixels before the word.
    func iconColours(leftOf word: ScreenText.Word, in screen: ScreenText, size: Int, gap: Int = 4) throws -> ScreenPixels {
        let shot = try #require(screen.screenshot, "the screen was not read from a screenshot")
        let top = word.top + word.height / 2 - size / 2
        return try session.pixels(of: shot, x: max(0, word.left - gap - size), y: max(0, top), width: size, height: size)
    }
}
