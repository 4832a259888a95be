import Foundation
import HeadlessSession
import Testing

/// The countdown in a real panel: waybar in headless sway, its custom module fed by
/// `tocsin watch --format waybar`, read off the screen with OCR.
@Suite(.serialized) struct PanelTests {
    /// waybar at the bottom of the screen (mako draws at the top), black on white in large
    /// DejaVu Sans, which tesseract reads; its custom module follows `feed`.
    static func waybar(following feed: URL) -> (configuration: String, style: String) {
        let configuration = """
            {
                "layer": "top", "position": "bottom", "height": 48,
                "modules-left": ["custom/tocsin"],
                "custom/tocsin": { "exec": "tail -n +1 -F \(feed.path)", "return-type": "json", "format": "{}" }
            }
            """
        let style = """
            * { font-family: "DejaVu Sans"; font-size: 26px; }
            window#waybar { background: #FFFFFF; color: #000000; }
            #custom-tocsin { padding: 0 20px; }
            #custom-tocsin.ringing { font-weight: bold; }
            """
        return (configuration, style)
    }

    @Test func waybarShowsTheCountdownFromTocsinWatch() throws {
        let fixture = try AgentSession("panel-waybar", notificationServer: .mako)
        // waybar's programs run as the desktop user, whom the agent does not serve: the user's
        // own `tocsin watch --format waybar` writes the module's lines to a file it reads.
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-panel-\(UUID()).jsonl")
        #expect(FileManager.default.createFile(atPath: feed.path, contents: nil, attributes: [.posixPermissions: 0o644]))
        defer { try? FileManager.default.removeItem(at: feed) }
        let watch = try fixture.startWatching {
            try fixture.session.launch(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$0\" watch --format waybar >> \"$1\"",
                                                                        try AgentSession.binary("tocsin").path, feed.path])
        }
        let (configuration, style) = Self.waybar(following: feed)
        let bar = try fixture.session.startWaybar(configuration: configuration, style: style)

        let pasta = try fixture.startTimer("10m", "--title", "Pasta")
        let countdown = try fixture.session.waitForScreen(timeout: .seconds(15), "the bar's countdown") { screen in
            screen.lines.contains { $0.firstMatch(of: /Pasta \d:\d\d/) != nil }
        }
        #expect(countdown.lines.contains { $0.firstMatch(of: /Pasta (10:00|9:5\d)/) != nil }, "\(countdown)")
        countdown.keepForREADME(as: "waybar-countdown.png")

        // The state in words: a paused timer's time stands still with "paused" after it, and
        // what rings comes first, "ringing" (in bold, waybar's `ringing` class).
        #expect(try fixture.tocsin("pause", pasta).status == 0)
        try fixture.session.waitForScreen("the bar saying the timer is paused") { screen in
            screen.lines.contains { $0.firstMatch(of: /Pasta (10:00|9:[0-5]\d) paused/) != nil }
        }
        let bell = try fixture.startTimer("1s", "--title", "Bell")
        try fixture.session.waitForScreen("the bar saying the bell rings") { screen in
            screen.lines.contains { $0.firstMatch(of: /Bell ringing \+1/) != nil }
        }
        #expect(try fixture.tocsin("stop", bell).status == 0)
        #expect(bar.isRunning, "waybar: \(bar.standardError())")
        #expect(watch.isRunning)
    }

    @Test func waybarsTrayTakesTheAgentsItemWhoseMenuPausesTheTimer() throws {
        let fixture = try AgentSession("panel-tray", notificationServer: .mako)
        // A timer before any panel: nothing is sent, and the item comes with the panel.
        let tea = try fixture.startTimer("10m", "--title", "Tea")
        let configuration = #"{ "layer": "top", "position": "bottom", "height": 32, "modules-left": ["tray"] }"#
        let bar = try fixture.session.startWaybar(configuration: configuration, style: "window#waybar { background: #FFFFFF; }")
        func gdbus(_ destination: String, _ path: String, _ method: String, _ arguments: String...) throws -> CommandResult {
            try fixture.session.run(URL(fileURLWithPath: "/usr/bin/gdbus"), ["call", "--session", "-d", destination, "-o", path, "-m", method, "--"] + arguments)
        }
        func property(_ destination: String, _ path: String, _ interface: String, _ name: String) -> String {
            (try? gdbus(destination, path, "org.freedesktop.DBus.Properties.Get", interface, name))?.stdout ?? ""
        }
        func registered() -> String {
            property("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems")
        }
        // waybar's tray is the panel's StatusNotifierWatcher.
        #expect(fixture.eventually(timeout: 10) { registered().contains("StatusNotifierItem-") },
                "the item did not come with the panel: \(registered())\n\(bar.standardError())")
        #expect(try fixture.tocsin("cancel", tea).status == 0)
        #expect(fixture.eventually(timeout: 5) { registered().hasPrefix("(<") && !registered().contains("StatusNotifierItem-") },
                "an item while nothing runs: \(registered())")

        let id = try fixture.startTimer("10m", "--title", "Pasta")
        #expect(fixture.eventually(timeout: 5) { registered().contains("org.kde.StatusNotifierItem-") }, "\(registered())\n\(fixture.agentLog)")
        let item = try #require(registered().firstMatch(of: /org\.kde\.StatusNotifierItem-\d+-1/).map { String($0.0) })
        func itemProperty(_ name: String) -> String { property(item, "/StatusNotifierItem", "org.kde.StatusNotifierItem", name) }
        let label = itemProperty("XAyatanaLabel")
        #expect(label.firstMatch(of: /'Pasta (10:00|9:5\d)'/) != nil, "\(label)")
        #expect(itemProperty("Status").contains("'Active'"))
        #expect(itemProperty("Title").contains("'Tocsin: Pasta, counting down'"), "\(itemProperty("Title"))")

        // The menu's Pause, clicked the way a host sends the click.
        let got = try gdbus(item, "/MenuBar", "com.canonical.dbusmenu.GetLayout", "0", "-1", "@as []")
        let layout = got.stdout
        let pause = try #require(layout.firstMatch(of: /\((\d+), \{'enabled': <true>, 'label': <'    Pause'>\}/).map { String($0.1) }, "\(got)")
        // The timer's own line, drawn as plainly as its buttons (a greyed-out one was barely legible).
        let line = try #require(layout.firstMatch(of: /\((\d+), \{'enabled': <true>, 'label': <'Pasta: (10:00|9:5\d) left, ends \d{1,2}:\d{2}(?: [AP]M)?'>\}/)
            .map { String($0.1) }, "\(got)")
        #expect(layout.contains("'New timer'") && layout.contains("'Stop all ringing'"), "\(layout)")
        #expect(try gdbus(item, "/MenuBar", "com.canonical.dbusmenu.Event", pause, "clicked", "<0>", "0").status == 0)
        #expect(try fixture.eventually(timeout: 10) { try fixture.alarm(id)?.string("state") == "paused" }, "the menu's Pause did not pause it")
        #expect(fixture.eventually(timeout: 10) { itemProperty("IconName").contains("io.github.tocsin.Agent-paused-symbolic") })
        // Said in words too, where a panel shows words: the title, the tooltip, the label.
        #expect(itemProperty("Title").contains("'Tocsin: Pasta, paused'"), "\(itemProperty("Title"))")
        #expect(itemProperty("ToolTip").firstMatch(of: /'Tocsin: Pasta, paused', 'Pasta: paused, (10:00|9:5\d) left'/) != nil, "\(itemProperty("ToolTip"))")
        #expect(itemProperty("XAyatanaLabel").firstMatch(of: /'Pasta (10:00|9:5\d) paused'/) != nil, "\(itemProperty("XAyatanaLabel"))")
        // A click on the line does what a click on the notification does: now, resume.
        #expect(try gdbus(item, "/MenuBar", "com.canonical.dbusmenu.Event", line, "clicked", "<0>", "0").status == 0)
        #expect(try fixture.eventually(timeout: 10) { try fixture.alarm(id)?.string("state") == "countdown" }, "the click on the line did not resume it")
        #expect(fixture.eventually(timeout: 10) { itemProperty("Title").contains("'Tocsin: Pasta, counting down'") }, "\(itemProperty("Title"))")

        #expect(try fixture.tocsin("cancel", id).status == 0)
        #expect(fixture.eventually(timeout: 5) { !registered().contains("StatusNotifierItem-") }, "the item stayed: \(registered())")

        // Ringing: the item asks for attention, and a click on it (the host's Activate) stops it.
        let bell = try fixture.startTimer("1s", "--title", "Bell")
        _ = try fixture.waitForNotification(titled: "Bell") { $0.urgency == 2 }
        #expect(fixture.eventually(timeout: 5) { registered().contains("StatusNotifierItem-") })
        #expect(fixture.eventually(timeout: 10) { itemProperty("Status").contains("'NeedsAttention'") })
        #expect(itemProperty("ItemIsMenu").contains("false"))
        #expect(itemProperty("Title").contains("'Tocsin: Bell, ringing'"), "\(itemProperty("Title"))")
        #expect(itemProperty("ToolTip").contains("'Tocsin: Bell, ringing', 'Bell: ringing'"), "\(itemProperty("ToolTip"))")
        #expect(itemProperty("XAyatanaLabel").contains("'Bell ringing'"), "\(itemProperty("XAyatanaLabel"))")
        #expect(try gdbus(item, "/StatusNotifierItem", "org.kde.StatusNotifierItem.Activate", "0", "0").status == 0)
        #expect(try fixture.eventually(timeout: 10) { try fixture.alarm(bell) == nil }, "the click did not stop it")
        #expect(bar.isRunning, "waybar: \(bar.standardError())")
    }

    /// Tocsin's GNOME Shell extension, enabled in a real GNOME Shell: 43 (the system's) with the
    /// build for 43 and 44, and 48 (trixie's) with the build for 45 and later — the countdown in
    /// the top bar, and its menu's Pause, clicked where the shell draws it. In each state the
    /// item says what the timer is doing in words ("Pasta 9:52", "Pasta 9:47 paused", "Bell
    /// ringing"), with that state's icon and nothing drawn between the icon and the label: the
    /// shell's font has no glyph for "⏸" or "🔔", once put before the label, and drew a box.
    @Test(arguments: GnomeShellRelease.onX11)
    func gnomeShellsTopBarShowsTheCountdownAndItsMenuPausesIt(release: GnomeShellRelease) throws {
        let built = try LockedGnome.buildExtension(for: release)
        defer { try? FileManager.default.removeItem(at: built.deletingLastPathComponent()) }
        let fixture = try AgentSession("gnome-extension-\(release)", notificationServer: .gnomeShell, gnomeShellRelease: release,
                                       gnomeShellExtensions: [built])
        try GnomeDesktopTests.waitUntilTheAgentKnowsTheShell(fixture, release: release)
        let owned = fixture.eventually(timeout: 10) {
            (try? fixture.session.run(URL(fileURLWithPath: "/usr/bin/gdbus"), ["call", "--session", "-d", "org.freedesktop.DBus", "-o", "/org/freedesktop/DBus",
                                                                            "-m", "org.freedesktop.DBus.NameHasOwner", "io.github.tocsin.Panel"]))?.stdout == "(true,)\n"
        }
        // The shell's own word on it (gnome-extensions needs a service of its own from GNOME 45 on).
        let info = try fixture.session.run(URL(fileURLWithPath: "/usr/bin/busctl"), ["--user", "call", "org.gnome.Shell", "/org/gnome/Shell",
                                                                                   "org.gnome.Shell.Extensions", "GetExtensionInfo", "s", LockedGnome.uuid])
        let errors = try fixture.session.run(URL(fileURLWithPath: "/usr/bin/busctl"), ["--user", "call", "org.gnome.Shell", "/org/gnome/Shell",
                                                                                     "org.gnome.Shell.Extensions", "GetExtensionErrors", "s", LockedGnome.uuid])
        #expect(owned, "the extension is not running: \(info.stdout)\n\(errors.stdout)")
        try GnomeDesktopTests.letTheStartUpBannersGo(fixture)
        let icons = try TopBarItem.stateIcons(fixture)
        let shell = release == .system ? "gnome" : "gnome-48"
        func inTheTopBar(_ text: String) -> (ScreenText) -> Bool {
            { screen in screen.words.contains { $0.text == text && $0.top < TopBarItem.barHeight } }
        }

        // Counting down, the pointer away from the bar (where the start-up banners left it).
        let id = try fixture.startTimer("10m", "--title", "Pasta")
        let topBar = try fixture.session.waitForScreen(timeout: .seconds(15), "the countdown in the top bar", until: inTheTopBar("Pasta"))
        #expect(topBar.lines.contains { $0.firstMatch(of: /Pasta (10:00|9:5\d)/) != nil }, "\(topBar)")
        if release == .system { topBar.keepForREADME(as: "gnome-top-bar.png") }
        try TopBarItem.expect(fixture, topBar, title: "Pasta", reads: /Pasta (10:00|9:[0-5]\d)/, state: .countdown, icons: icons,
                              keptAs: "\(shell)-top-bar-countdown.png")
        // The banner goes (the pointer moving), the countdown stays in the top bar.
        try GnomeDesktopTests.whileMovingThePointer(fixture) {
            _ = try fixture.session.waitForScreen(timeout: .seconds(15), "the banner gone") { !$0.contains("remaining") }
        }
        let label = try #require(try fixture.session.readScreen().words.first { $0.text == "Pasta" && $0.top < 30 }, "the countdown left the top bar")
        try fixture.session.click(x: label.center.x, y: label.center.y)
        let menu = try fixture.session.waitForScreen("the menu") { $0.contains("New timer") && $0.word("Pause") != nil }
        if release == .trixie { menu.keepForREADME(as: "gnome-48-top-bar-menu.png") }
        try fixture.session.clickOnScreen("Pause")
        #expect(try fixture.eventually(timeout: 5) { try fixture.alarm(id)?.string("state") == "paused" }, "the menu's Pause did not pause it")

        // Paused: the menu closed, the pointer gone to the bottom of the screen.
        let paused = try fixture.session.waitForScreen(timeout: .seconds(10), "“paused” in the top bar") { screen in
            inTheTopBar("paused")(screen) && !screen.contains("New timer")
        }
        try TopBarItem.expect(fixture, paused, title: "Pasta", reads: /Pasta 9:[0-5]\d paused/, state: .paused, icons: icons,
                              keptAs: "\(shell)-top-bar-paused.png")
        #expect(try fixture.tocsin("cancel", id).status == 0)
        _ = try fixture.session.waitForScreen(timeout: .seconds(5), "the top bar without the countdown") { !inTheTopBar("Pasta")($0) }

        // Ringing.
        let bell = try fixture.startTimer("1s", "--title", "Bell")
        let ringing = try fixture.session.waitForScreen(timeout: .seconds(15), "“ringing” in the top bar", until: inTheTopBar("ringing"))
        try TopBarItem.expect(fixture, ringing, title: "Bell", reads: /Bell ringing/, state: .ringing, icons: icons,
                              keptAs: "\(shell)-top-bar-ringing.png")
        #expect(try fixture.tocsin("stop", bell).status == 0)
        _ = try fixture.session.waitForScreen(timeout: .seconds(5), "the top bar without the alarm") { !inTheTopBar("Bell")($0) }
    }
}
