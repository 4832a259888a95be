import Testing
@testable import TocsinCore

// LockScreenReadiness.swift: which locker a session runs, and what `tocsin doctor` says of it.
@Suite("Lock-screen readiness")
struct LockScreenReadinessTests {
    typealias Process = LockScreenReadiness.SessionProcess

    @Test("A desktop's own lock screen comes first; then a locker running; then the one an idle manager starts")
    func lockerFound() {
        #expect(LockScreenReadiness.locker(busNames: ["org.gnome.ScreenSaver", "org.gnome.Shell"], gnomeShellMajor: 48,
                                           processes: [Process(name: "xscreensaver")]) == .gnomeShell(major: 48))
        #expect(LockScreenReadiness.locker(busNames: ["org.kde.screensaver", "org.freedesktop.ScreenSaver"], gnomeShellMajor: nil, processes: []) == .plasma)
        #expect(LockScreenReadiness.locker(busNames: ["org.freedesktop.ScreenSaver"], gnomeShellMajor: nil, processes: [Process(name: "ksmserver")]) == .plasma)
        #expect(LockScreenReadiness.locker(busNames: ["org.xfce.ScreenSaver"], gnomeShellMajor: nil, processes: []) == .xfce4Screensaver)
        #expect(LockScreenReadiness.locker(busNames: [], gnomeShellMajor: nil, processes: [Process(name: "xscreensaver", arguments: ["xscreensaver", "-nosplash"])]) == .xscreensaver)
        #expect(LockScreenReadiness.locker(busNames: [], gnomeShellMajor: nil, processes: [Process(name: "i3lock", arguments: ["i3lock", "-n"])]) == .i3lock)
        #expect(LockScreenReadiness.locker(busNames: [], gnomeShellMajor: nil, processes: [Process(name: "swaylock")]) == .waylandSessionLock(name: "swaylock"))
        #expect(LockScreenReadiness.locker(busNames: [], gnomeShellMajor: nil, processes: [Process(name: "gtklock", arguments: ["gtklock", "-m", "playerctl-module"])]) == .gtklock)
        // Unlocked: only the idle manager runs, with the locker in its command line.
        #expect(LockScreenReadiness.locker(busNames: [], gnomeShellMajor: nil, processes: [
            Process(name: "swayidle", arguments: ["swayidle", "-w", "timeout", "300", "swaylock -f -c 000000", "before-sleep", "swaylock -f"]),
        ]) == .waylandSessionLock(name: "swaylock"))
        #expect(LockScreenReadiness.locker(busNames: [], gnomeShellMajor: nil, processes: [
            Process(name: "xss-lock", arguments: ["xss-lock", "--transfer-sleep-lock", "--", "/usr/bin/i3lock", "--nofork"]),
        ]) == .i3lock)
        #expect(LockScreenReadiness.locker(busNames: [], gnomeShellMajor: nil, processes: [Process(name: "swayidle", arguments: ["swayidle", "timeout", "300", "systemctl suspend"])]) == LockScreenReadiness.Locker.none)
        #expect(LockScreenReadiness.locker(busNames: ["org.freedesktop.Notifications"], gnomeShellMajor: nil, processes: []) == LockScreenReadiness.Locker.none)
    }

    @Test("GNOME with Tocsin's extension: everything on the lock screen; without it, a warning that names the fix")
    func gnome() {
        let withExtension = LockScreenReadiness.report(.init(locker: .gnomeShell(major: 43), gnomeExtension: true, titlesShown: true))
        #expect(withExtension.level == .ok)
        #expect(withExtension.message.contains("GNOME Shell 43") && withExtension.message.contains("Stop and Snooze") && withExtension.message.contains("do-not-disturb"))
        let without = LockScreenReadiness.report(.init(locker: .gnomeShell(major: 48), gnomeExtension: false, titlesShown: true))
        #expect(without.level == .warning && without.message.contains("no buttons") && !without.message.contains("media controls"))
        #expect(without.fix?.contains("gnome-extensions enable tocsin@tocsin.github.io") == true)
        // 49 and later: the media controls, as GnomeMediaControlsLockTests found them on 50.
        let mediaControls = LockScreenReadiness.report(.init(locker: .gnomeShell(major: 50), gnomeExtension: false, titlesShown: true))
        #expect(mediaControls.message.hasPrefix("GNOME Shell 50's lock screen shows a ringing alarm in its media controls, with its title: play/pause stops it"))
        // The extension declares 43 to 49: on 50 the fix does not send the user to enable it.
        #expect(mediaControls.fix?.contains("does not support GNOME Shell 50 yet") == true && mediaControls.fix?.contains("gnome-extensions enable") == false)
        #expect(LockScreenReadiness.report(.init(locker: .gnomeShell(major: 49), gnomeExtension: false, titlesShown: true)).fix?
                    .contains("gnome-extensions enable tocsin@tocsin.github.io") == true)
        #expect(LockScreenReadiness.report(.init(locker: .gnomeShell(major: 49), gnomeExtension: false, titlesShown: false)).message
                    .contains("media controls, with “Alarm” (titles hidden): play/pause stops it"))
        #expect(LockScreenReadiness.report(.init(locker: .gnomeShell(major: 43), gnomeExtension: true, titlesShown: false)).message.contains("“Alarm” (titles hidden)"))
    }

    @Test("Lockers that show nothing say so, and how to stop it anyway", arguments: [
        LockScreenReadiness.Locker.xscreensaver, .i3lock, .waylandSessionLock(name: "swaylock"), .xfce4Screensaver, .lightLocker,
    ])
    func blindLockers(_ locker: LockScreenReadiness.Locker) {
        let report = LockScreenReadiness.report(.init(locker: locker, gnomeExtension: false, titlesShown: true))
        #expect(report.level == .warning)
        #expect(report.message.contains("shows no") || report.message.contains("shows nothing"), "\(report.message)")
        #expect(report.fix != nil)
    }

    @Test("gtklock: its media row shows the ringing alarm, stops and snoozes it; the key binding without the module")
    func gtklock() {
        let report = LockScreenReadiness.report(.init(locker: .gtklock, gnomeExtension: false, titlesShown: true))
        #expect(report.level == .ok)
        #expect(report.message.contains("show a ringing alarm with its title") && report.message.contains("play/pause stops it, next snoozes it"), "\(report.message)")
        #expect(report.fix?.contains("playerctl -p tocsin play-pause") == true)
    }

    @Test("Plasma: the media row and the media keys stop and snooze it")
    func plasma() {
        let report = LockScreenReadiness.report(.init(locker: .plasma, gnomeExtension: false, titlesShown: true))
        #expect(report.level == .ok && report.message.contains("media row") && report.message.contains("next snoozes it"))
        #expect(report.message.contains("the keyboard's media keys"))
    }
}
