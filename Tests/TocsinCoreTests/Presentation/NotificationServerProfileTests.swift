import Foundation
import Testing
@testable import TocsinCore
import TocsinFiles
import TocsinTestSupport

// NotificationServerProfile.swift and NotificationPayload.swift: which server is which, and what
// each is sent for a countdown, a paused timer, an alert, a notice and the consent prompt.
@Suite("Notification server profiles")
struct NotificationServerProfileTests {
    /// What each server said of itself here (GetServerInformation, GetCapabilities), on Debian 12.
    static let identities: [NotificationServerFamily: NotificationServerIdentity] = [
        .gnomeShell: .init(name: "gnome-shell", vendor: "GNOME", version: "43.9",
                           capabilities: ["actions", "body", "body-markup", "icon-static", "persistence", "sound"]),
        .plasma: .init(name: "Plasma", vendor: "KDE", version: "5.27.5",
                       capabilities: ["body", "body-hyperlinks", "body-markup", "body-images", "icon-static", "actions",
                                      "persistence", "inhibitions", "inline-reply", "x-kde-urls", "x-kde-origin-name",
                                      "x-kde-display-appname"]),
        .xfce: .init(name: "Xfce Notify Daemon", vendor: "Xfce", version: "0.7.3",
                     capabilities: ["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "x-canonical-private-icon-only"]),
        .mako: .init(name: "mako", vendor: "emersion", version: "0.0.0", capabilities: ["actions", "body", "body-markup", "icon-static"]),
        .dunst: .init(name: "dunst", vendor: "knopwob", version: "1.9.0",
                      capabilities: ["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "persistence"]),
        .other: .init(name: "notify-osd", vendor: "Canonical Ltd", version: "1.0", capabilities: ["body", "body-markup"]),
    ]

    static func profile(_ family: NotificationServerFamily) -> NotificationServerProfile {
        NotificationServerProfile(for: identities[family]!)
    }

    static let countdown = NotificationContent(
        role: .countdown, summary: "Tea & <b>cake</b>", body: "2:15 remaining, ends 08:03.", progress: 25,
        actions: [.init(.pause, label: "Pause"), .init(.cancel, label: "Cancel")], isPersistent: true,
        commandLineHint: "Type tocsin pause 3f2b8c1e to pause, tocsin cancel 3f2b8c1e to cancel.", defaultIntent: .pause)
    static let alert = NotificationContent(
        role: .alert, summary: "Pasta", body: "Time’s up · \"5:00\" <timer>", actions: [.init(.stop, label: "Stop"), .init(.secondary, label: "Snooze")],
        urgency: .critical, isPersistent: true, commandLineHint: "Type tocsin stop to stop, tocsin snooze to snooze.", defaultIntent: .stop)
    static let notice = NotificationContent(role: .notice, summary: "Missed: Wake up (07:00)", body: "It was due at 07:00.", isPersistent: false)
    static let consent = NotificationContentWriter.consentQuestion(app: "org.example.Cook", confinement: .flatpak, alarmLimit: 100)

    @Test("Each server is recognised by the name it gives; anything else is “other”", arguments: NotificationServerFamily.allCases)
    func recognition(family: NotificationServerFamily) {
        #expect(NotificationServerFamily(Self.identities[family]!) == family)
    }

    @Test("The table: buttons drawn, progress, markup, the commands named, do-not-disturb")
    func table() {
        let rows = NotificationServerFamily.allCases.map { family -> String in
            let profile = Self.profile(family)
            let dnd = profile.doNotDisturb.map { "\($0.hidesAlerts ? "hides" : "shows") alerts, \($0.announcesChanges ? "announced" : "asked")" } ?? "unknown"
            return "\(family.rawValue): buttons \(profile.drawsButtons), progress \(profile.progress), markup \(profile.readsBodyMarkup), "
                + "commands \(profile.namesCommands), dnd \(dnd)"
        }
        #expect(rows == [
            "GNOME Shell: buttons true, progress none, markup true, commands false, dnd shows alerts, announced",
            "KDE Plasma: buttons true, progress none, markup true, commands false, dnd shows alerts, announced",
            "xfce4-notifyd: buttons true, progress text, markup true, commands false, dnd shows alerts, announced",
            "mako: buttons false, progress valueHint, markup true, commands true, dnd hides alerts, asked",
            "dunst: buttons true, progress valueHint, markup true, commands false, dnd hides alerts, announced",
            "other: buttons false, progress text, markup true, commands true, dnd unknown",
        ])
    }

    @Test("A server not in the table that draws buttons still gets the commands named")
    func otherWithButtons() {
        let profile = NotificationServerProfile(for: .init(name: "swaync", vendor: "erikreider", version: "0.9", capabilities: ["actions"]))
        #expect(profile.family == .other)
        #expect(profile.drawsButtons)
        #expect(profile.namesCommands)
        let payload = NotificationPayload(Self.alert, profile: profile)
        #expect(payload.body.hasSuffix("\nType tocsin stop to stop, tocsin snooze to snooze."), "no “Click to”: it has buttons")
    }

    @Test("Until the server answers: buttons and markup assumed, the commands named")
    func unknown() {
        #expect(NotificationServerProfile.unknown.family == .other)
        #expect(NotificationServerProfile.unknown.drawsButtons)
        #expect(NotificationServerProfile.unknown.readsBodyMarkup)
        #expect(NotificationServerProfile.unknown.namesCommands)
    }

    // MARK: Payloads

    @Test("Countdown on dunst and mako: the value hint; on xfce a text bar and no value hint; on GNOME and Plasma neither")
    func countdownProgress() {
        #expect(NotificationPayload(Self.countdown, profile: Self.profile(.dunst)).progress == 25)
        #expect(NotificationPayload(Self.countdown, profile: Self.profile(.mako)).progress == 25)
        let xfce = NotificationPayload(Self.countdown, profile: Self.profile(.xfce))
        #expect(xfce.progress == nil, "xfce4-notifyd draws a value notification as a bare gauge")
        #expect(xfce.body == "2:15 remaining, ends 08:03.\n■■□□□□□□□□ 25% done.", "a sentence, as every line is")
        for family in [NotificationServerFamily.gnomeShell, .plasma] {
            let payload = NotificationPayload(Self.countdown, profile: Self.profile(family))
            #expect(payload.progress == nil)
            #expect(payload.body.hasPrefix("2:15 remaining, ends 08:03."))
            #expect(!payload.body.contains("%"))
        }
    }

    @Test("The text bar: ten cells, one filled per tenth, clamped")
    func textBar() {
        #expect(NotificationPayload.textBar(percent: 0) == "□□□□□□□□□□ 0%")
        #expect(NotificationPayload.textBar(percent: 99) == "■■■■■■■■■□ 99%")
        #expect(NotificationPayload.textBar(percent: 100) == "■■■■■■■■■■ 100%")
        #expect(NotificationPayload.textBar(percent: 140) == "■■■■■■■■■■ 100%")
        #expect(NotificationPayload.textBar(percent: -3) == "□□□□□□□□□□ 0%")
    }

    @Test("mako draws no buttons: the body says what a click does and names the commands")
    func makoNamesCommands() {
        let profile = Self.profile(.mako)
        #expect(NotificationPayload(Self.alert, profile: profile).body
            == "Time’s up · &quot;5:00&quot; &lt;timer&gt;\nClick to stop. Type tocsin stop to stop, tocsin snooze to snooze.")
        #expect(NotificationPayload(Self.countdown, profile: profile).body
            == "2:15 remaining, ends 08:03.\nClick to pause. Type tocsin pause 3f2b8c1e to pause, tocsin cancel 3f2b8c1e to cancel.")
        #expect(NotificationPayload(Self.notice, profile: profile).body == "It was due at 07:00.", "a notice has nothing to do")
        #expect(NotificationPayload(Self.consent, profile: profile).body.hasSuffix("\nType tocsin auth grant org.example.Cook to allow, tocsin auth revoke org.example.Cook to refuse."),
                "no click: the consent question has no default action")
    }

    @Test("Servers that draw buttons get no commands in the text", arguments: [NotificationServerFamily.gnomeShell, .plasma, .xfce, .dunst])
    func buttonsNoCommands(family: NotificationServerFamily) throws {
        for content in [Self.countdown, Self.alert, Self.consent] {
            let hint = try #require(content.commandLineHint)
            #expect(!NotificationPayload(content, profile: Self.profile(family)).body.contains(NotificationPayload.markupEscaped(hint)))
        }
    }

    @Test("The click (default action): Pause on a countdown, Resume when paused, Stop on an alert, none on notices and the consent prompt")
    func defaultAction() throws {
        let profile = Self.profile(.plasma)
        #expect(NotificationPayload(Self.countdown, profile: profile).defaultAction == .init(.pause, label: "Pause"))
        #expect(NotificationPayload(Self.alert, profile: profile).defaultAction == .init(.stop, label: "Stop"))
        #expect(NotificationPayload(Self.notice, profile: profile).defaultAction == nil)
        #expect(NotificationPayload(Self.consent, profile: profile).defaultAction == nil, "a click must not grant")
        let paused = try #require(NotificationContentWriter(localeIdentifier: "C").liveActivity(
            for: Fixture.alarm(state: .paused(PausedPhase(remaining: 30, duration: 60))), at: t0))
        #expect(NotificationPayload(paused, profile: profile).defaultAction == .init(.resume, label: "Resume"))
        #expect(NotificationPayload(Self.alert, profile: profile).actions.map(\.key) == ["stop", "secondary"], "the click is no button")
        #expect(NotificationPayload(Self.alert, profile: Self.profile(.xfce)).defaultAction == nil, "xfce4-notifyd draws it as a second Stop")
        #expect(NotificationServerFamily.allCases.filter { !Self.profile($0).takesDefaultAction } == [.xfce])
    }

    @Test("GNOME Shell: a countdown's updates are low urgency (no banner pinned or re-popped); its first showing, and everything else, keep theirs")
    func gnomeUpdates() {
        let gnome = Self.profile(.gnomeShell)
        #expect(NotificationPayload(Self.countdown, profile: gnome).urgency == .normal)
        #expect(NotificationPayload(Self.countdown, profile: gnome, shownFor: .seconds(1)).urgency == .low)
        #expect(NotificationPayload(Self.alert, profile: gnome, shownFor: .seconds(1)).urgency == .critical)
        var paused = Self.countdown
        paused.role = .paused
        #expect(NotificationPayload(paused, profile: gnome, shownFor: .seconds(1)).urgency == .normal, "pausing is news")
        #expect(NotificationPayload(Self.countdown, profile: Self.profile(.plasma), shownFor: .seconds(1)).urgency == .normal)
    }

    @Test("GNOME Shell 48 and later hand a countdown's banner over to a quiet notification (BannerHandover); 43 and the rest do not")
    func bannerHandover() {
        let gnome48 = NotificationServerProfile(for: .init(name: "gnome-shell", vendor: "GNOME", version: "48.7", capabilities: ["actions", "body-markup"]))
        #expect(gnome48.bannerHandover == .seconds(10))
        #expect(NotificationServerProfile(for: .init(name: "gnome-shell", vendor: "GNOME", version: "49.1", capabilities: [])).bannerHandover == .seconds(10))
        #expect(NotificationServerFamily.allCases.allSatisfy { Self.profile($0).bannerHandover == nil }, "43.9, and every other server")
        #expect(NotificationServerProfile(for: .init(name: "gnome-shell", vendor: "GNOME", version: "", capabilities: [])).bannerHandover == nil)
    }

    @Test("GNOME Shell draws app_icon in one colour: it is sent the colour icon's file as image-path; no other server is")
    func iconAsImage() {
        let file = "file:///usr/share/icons/hicolor/scalable/apps/io.github.tocsin.Agent.svg"
        #expect(NotificationPayload(Self.countdown, profile: Self.profile(.gnomeShell), iconFile: file).imagePath == file)
        #expect(NotificationPayload(Self.alert, profile: Self.profile(.gnomeShell), shownFor: .seconds(3), iconFile: file).imagePath == file)
        #expect(NotificationPayload(Self.alert, profile: Self.profile(.gnomeShell)).imagePath == nil, "not installed: none")
        #expect(NotificationServerFamily.allCases.filter { NotificationPayload(Self.alert, profile: Self.profile($0), iconFile: file).imagePath != nil }
                == [.gnomeShell], "Plasma would draw it twice; xfce, dunst and mako draw app_icon in colour")
        #expect(!NotificationPayload(Self.countdown, profile: Self.profile(.gnomeShell)).isTransient, "the worker's BannerHandover decides that")
    }

    @Test("The colour icon is looked for in each data directory, scalable first, then the largest bitmaps")
    func iconFiles() {
        let candidates = NotificationPayload.iconFileCandidates(in: ["/home/u/.local/share", "/usr/share/"])
        #expect(candidates.first == "/home/u/.local/share/icons/hicolor/scalable/apps/io.github.tocsin.Agent.svg")
        #expect(candidates.contains("/usr/share/icons/hicolor/48x48/apps/io.github.tocsin.Agent.png"))
        #expect(candidates.count == 10)
        #expect(candidates.firstIndex(of: "/usr/share/icons/hicolor/scalable/apps/io.github.tocsin.Agent.svg")!
                > candidates.firstIndex(of: "/home/u/.local/share/icons/hicolor/48x48/apps/io.github.tocsin.Agent.png")!,
                "the user's own data first, as the icon theme does")
    }

    @Test("GNOME Shell: a live countdown shows no buttons, so its body says a click pauses; paused and ringing show their buttons")
    func gnomeClick() {
        let gnome = Self.profile(.gnomeShell)
        #expect(NotificationPayload(Self.countdown, profile: gnome).body == "2:15 remaining, ends 08:03.\nClick to pause.")
        #expect(NotificationPayload(Self.alert, profile: gnome).body == "Time’s up · &quot;5:00&quot; &lt;timer&gt;")
        var paused = Self.countdown
        paused.role = .paused
        #expect(NotificationPayload(paused, profile: gnome).body == "2:15 remaining, ends 08:03.")
        #expect(gnome.alertNeedsNewNotification, "a replaced banner shows no Stop")
        #expect(NotificationServerFamily.allCases.filter { Self.profile($0).alertNeedsNewNotification } == [.gnomeShell])
    }

    @Test("Plasma: a countdown's popup is let go after 5 s, its updates then expire between two seconds; everything else as it was")
    func plasmaLetsTheCountdownGo() {
        let plasma = Self.profile(.plasma)
        #expect(NotificationPayload(Self.countdown, profile: plasma).expiry == .after(milliseconds: 5000))
        #expect(NotificationPayload(Self.countdown, profile: plasma, shownFor: .milliseconds(1_250)).expiry == .after(milliseconds: 3750),
                "each update re-arms the popup's timeout: it is the rest of the 5 s")
        #expect(NotificationPayload(Self.countdown, profile: plasma, shownFor: .milliseconds(4_700)).expiry == .after(milliseconds: 800))
        #expect(NotificationPayload(Self.countdown, profile: plasma, shownFor: .seconds(90)).expiry == .after(milliseconds: 800))
        #expect(NotificationPayload(Self.countdown, profile: plasma).isPersistent, "resident: a press keeps it")
        var paused = Self.countdown
        paused.role = .paused
        #expect(NotificationPayload(paused, profile: plasma, shownFor: .seconds(90)).expiry == .never,
                "paused, it is not updated: a timeout would have Plasma drop its buttons a minute later")
        #expect(NotificationPayload(Self.alert, profile: plasma, shownFor: .seconds(3)).expiry == .never)
        #expect(NotificationPayload(Self.notice, profile: plasma).expiry == .serverDefault)
        #expect(NotificationServerFamily.allCases.filter { Self.profile($0).countdownPopup != nil } == [.plasma])
        #expect(NotificationPayload(Self.countdown, profile: Self.profile(.gnomeShell), shownFor: .seconds(9)).expiry == .never)
        #expect([NotificationPayload.Expiry.never, .serverDefault, .after(milliseconds: 800)].map(\.timeout) == [0, -1, 800])
    }

    @Test("Markup is escaped where the server reads it; the summary never is")
    func markup() {
        let payload = NotificationPayload(Self.alert, profile: Self.profile(.dunst))
        #expect(payload.summary == "Pasta")
        #expect(payload.body == "Time’s up · &quot;5:00&quot; &lt;timer&gt;")
        #expect(NotificationPayload(Self.countdown, profile: Self.profile(.dunst)).summary == "Tea & <b>cake</b>")
        let plain = NotificationServerProfile(for: .init(name: "x", vendor: "y", version: "1", capabilities: ["actions"]))
        #expect(NotificationPayload(Self.alert, profile: plain).body.hasPrefix("Time’s up · \"5:00\" <timer>"))
        #expect(NotificationPayload.markupEscaped("a&b'") == "a&amp;b&#39;")
        #expect(NotificationPayload.markupEscaped("ünïcødé 🍝") == "ünïcødé 🍝")
    }

    @Test("Hints: category by role, resident when persistent, never the server's sound")
    func hints() {
        let profile = Self.profile(.dunst)
        let categories = [Self.countdown, Self.alert, Self.notice, Self.consent].map { NotificationPayload($0, profile: profile).category }
        #expect(categories == ["x-tocsin.timer", "x-tocsin.alarm", "x-tocsin.notice", "x-tocsin.consent"])
        let alert = NotificationPayload(Self.alert, profile: profile)
        #expect(alert.isPersistent && alert.suppressesSound && alert.urgency == .critical)
        #expect(!NotificationPayload(Self.notice, profile: profile).isPersistent)
    }

    @Test("The desktop entry every notification names is installed, with the icon it names, and asks for the notification settings")
    func desktopEntryInstalled() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let entry = try String(contentsOf: repository.appendingPathComponent("data/applications/\(NotificationPayload.desktopEntry).desktop"), encoding: .utf8)
        let lines = Set(entry.split(separator: "\n").map(String.init))
        #expect(lines.isSuperset(of: ["[Desktop Entry]", "Name=Tocsin", "Icon=\(NotificationPayload.iconName)", "X-GNOME-UsesNotifications=true"]))
        for icon in ["scalable/apps/\(NotificationPayload.iconName).svg", "symbolic/apps/\(NotificationPayload.iconName)-symbolic.svg"] {
            #expect(FileManager.default.fileExists(atPath: repository.appendingPathComponent("data/icons/hicolor/\(icon)").path), "no \(icon)")
        }
        let makefile = try String(contentsOf: repository.appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(makefile.contains("data/applications/\(NotificationPayload.desktopEntry).desktop"), "make install does not install it")
    }
}

// XDGBaseDirectory.dataDirectories: where the icon (and any data file) is looked for.
@Suite("XDG data directories")
struct XDGDataDirectoriesTests {
    @Test("The data home first, then XDG_DATA_DIRS' absolute entries; the defaults when it is unset, empty or holds none")
    func order() {
        #expect(XDGBaseDirectory.dataDirectories(environment: ["HOME": "/home/u", "XDG_DATA_DIRS": "/opt/t/share:relative:/usr/share"])
                == ["/home/u/.local/share", "/opt/t/share", "/usr/share"])
        #expect(XDGBaseDirectory.dataDirectories(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/d"]) == ["/d", "/usr/local/share", "/usr/share"])
        #expect(XDGBaseDirectory.dataDirectories(environment: ["HOME": "/home/u", "XDG_DATA_DIRS": ""]) == ["/home/u/.local/share", "/usr/local/share", "/usr/share"])
        #expect(XDGBaseDirectory.dataDirectories(environment: ["HOME": "/home/u", "XDG_DATA_DIRS": "a:b"]) == ["/home/u/.local/share", "/usr/local/share", "/usr/share"])
    }
}
