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

        _ = try fixture.startTimer("10m", "--title", "Pasta")
        let countdown = try fixture.session.waitForScreen(timeout: .seconds(15), "the bar's countdown") { screen in
            screen.lines.contains { $0.firstMatch(of: /Pasta \d:\d\d/) != nil }
        }
        #expect(countdown.lines.contains { $0.firstMatch(of: /Pasta (10:00|9:5\d)/) != nil }, "\(countdown)")
        countdown.keepForREADME(as: "waybar-countdown.png")
        #expect(bar.isRunning, "waybar: \(bar.standardError())")
        #expect(watch.isRunning)
    }
}
