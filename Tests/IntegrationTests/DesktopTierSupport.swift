import Foundation
import HeadlessSession
import Testing

// What the desktop tiers (XfceDesktopTests, MakoDesktopTests, GnomeDesktopTests,
// PlasmaDesktopTests) do alike: wait for doctor's word, stop a ringing alarm and listen for the
// silence, read the time left off the screen, keep the README's screenshots.

extension AgentSession {
    /// `tocsin doctor`'s report once it contains `text`, waiting up to `timeout` seconds (the
    /// agent learns of its server and of do-not-disturb changes asynchronously); records an issue
    /// with the last report when it never does, and returns that report. `environment` is what
    /// the doctor gets beside the session's (a compositor's, as a terminal in sway has it).
    @discardableResult
    func doctorOnceItSays(_ text: String, timeout: TimeInterval = 10, environment: [String: String] = [:]) throws -> String {
        var doctor = ""
        #expect(try eventually(timeout: timeout) { doctor = try tocsin(["doctor"], environment: environment).stdout; return doctor.contains(text) },
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

    /// The countdown's first sentence as read, "4:59 remaining, ends 21:49." (or "… ends 9:49
    /// PM." on a 12-hour clock), when a line reads it whole, full stop included, and ends with
    /// it; `nil` otherwise. Every server here shows the body's lines as lines, so what follows
    /// the sentence is on the next line; where a server joins them, the full stop is what keeps
    /// it from running on into the next, as the old text did ("0:37 remaining · ends 21:49
    /// Click: pause").
    var countdownSentence: Substring? {
        lines.lazy.compactMap { line in
            line.firstMatch(of: /\d{1,2}:\d{2}(?::\d{2})? remaining, ends \d{1,2}:\d{2}(?: [AP]M)?\.$/).map(\.0)
        }.first
    }

    /// A timer's alert as read, "Time’s up: 0:02 timer, rang at 21:49.", when a line reads it
    /// whole and ends with it; `nil` otherwise (the old text: "Time’s up · 0:02 timer, rang at
    /// 21:49"). The apostrophe is any character: tesseract reads ’ as ' or ’.
    var timersAlertSentence: Substring? {
        lines.lazy.compactMap { line in
            line.firstMatch(of: /Time.s up: \d{1,2}:\d{2}(?::\d{2})? timer, rang at \d{1,2}:\d{2}(?: [AP]M)?\.$/).map(\.0)
        }.first
    }

    /// What a panel's line for the alarm `title` says of its time left: the tray menu's
    /// "Pasta: 4:25 left, ends 15:05" gives ("4:25", "15:05"), the tooltip's "Pasta: 4:25 left"
    /// ("4:25", nil); `nil` when no line reads so.
    func panelLine(of title: String) -> (left: String, ends: String?)? {
        lines.lazy.compactMap { line -> (left: String, ends: String?)? in
            guard let start = line.range(of: "\(title): "),
                  let match = line[start.upperBound...].prefixMatch(of: /(\d{1,2}:\d{2}(?::\d{2})?) left(?:, ends (\d{1,2}:\d{2}(?: [AP]M)?))?/)
            else { return nil }
            return (String(match.1), match.2.map(String.init))
        }.first
    }

    /// Copies the screenshot this was read from into TOCSIN_SCREENSHOT_DIR as `name`, when it is
    /// set: the README's pictures are the tests' own. `crop` (columns, rows) keeps only the
    /// part of the screen the picture is about, as the README shows it.
    func keepForREADME(as name: String, crop: (x: ClosedRange<Int>, y: ClosedRange<Int>)? = nil) {
        guard let directory = ProcessInfo.processInfo.environment["TOCSIN_SCREENSHOT_DIR"], let screenshot else { return }
        let target = URL(fileURLWithPath: directory).appendingPathComponent(name)
        try? FileManager.default.removeItem(at: target)
        guard let crop else {
            try? FileManager.default.copyItem(at: screenshot, to: target)
            return
        }
        let convert = Process()
        convert.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
        convert.arguments = [screenshot.path, "-crop", "\(crop.x.count)x\(crop.y.count)+\(crop.x.lowerBound)+\(crop.y.lowerBound)", "+repage", target.path]
        try? convert.run()
        convert.waitUntilExit()
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
