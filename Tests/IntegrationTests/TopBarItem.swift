import Foundation
import HeadlessSession
import Testing
import TocsinCore

/// Tocsin's item in GNOME Shell's top bar as a person sees it in one state, from one screenshot
/// taken with the pointer away from the bar: what its label reads (OCR of the item alone), and
/// that nothing stands for something missing — no box for a character the bar's font lacks
/// between the state icon and the label's first letter, and the state's own icon, not the
/// shell's image-missing one or another state's.
struct TopBarItem {
    /// The top bar's height in both releases, and where the item's strip is read.
    static let barHeight = 32
    /// How far left of the label's first letter the strip starts: past the 16-pixel icon, the 12
    /// columns between it and the label, and a box as wide as a letter or two between them
    /// (21 columns for "🔔"), short of the clock in the middle of the bar.
    static let reachLeftOfLabel = 72
    /// The size GNOME Shell 43 and 48 draw a panel's icons at (`system-status-icon`).
    static let iconSize = 16
    /// How alike the drawn icon must be to its state's icon (normalised cross-correlation). 43
    /// and 48 draw each state's SVG as GdkPixbuf does: 0.9999 and more. Against another state's
    /// icon at most 0.58; the shell's image-missing (drawn for a name not in the theme) 0.35–0.38;
    /// Tocsin's plain symbolic icon (drawn for an unknown "io.github.tocsin.Agent-…-symbolic")
    /// 0.42.
    static let minimumLikeness = 0.9

    /// Each state's icon as installed (data/icons/hicolor), drawn as the shell draws it.
    static func stateIcons(_ fixture: AgentSession) throws -> [PanelSummary.Status: ScreenPixels] {
        var icons: [PanelSummary.Status: ScreenPixels] = [:]
        for (status, name) in TrayContent.iconNames {
            let file = AgentSession.repository.appendingPathComponent("data/icons/hicolor/symbolic/apps/\(name).svg")
            icons[status] = try fixture.session.drawnIcon(file, size: iconSize)
        }
        return icons
    }

    /// Checks the item in `screen` (a `readScreen` of the whole screen): its label, found by its
    /// first word `title`, reads all of `expected`; only `state`'s icon is drawn left of it; and
    /// that icon is `state`'s. Saves the item's end of the bar as `keptAs` for the README.
    static func expect<Output>(_ fixture: AgentSession, _ firstScreen: ScreenText, title: String, reads expected: Regex<Output>,
                       state: PanelSummary.Status, icons: [PanelSummary.Status: ScreenPixels], keptAs: String? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let screen = try settled(fixture, firstScreen, title: title)
        let shot = try #require(screen.screenshot, sourceLocation: sourceLocation)
        let word = try #require(screen.words.first { $0.text == title && $0.top < barHeight }, "no “\(title)” in the top bar: \(screen)",
                                sourceLocation: sourceLocation)
        let stripLeft = max(0, word.left - reachLeftOfLabel)
        let strip = try fixture.session.pixels(of: shot, x: stripLeft, y: 0, width: screenWidth - stripLeft, height: barHeight)
        let columns = PanelItemColumns(strip: strip, labelStart: word.left - stripLeft)
        let drawn = { (runs: [Range<Int>]) in runs.map { "\($0.lowerBound + stripLeft)–\($0.upperBound + stripLeft - 1)" }.joined(separator: ", ") }
        #expect(!columns.beforeLabel.isEmpty, "\(state): no icon left of “\(title)” (x \(word.left)) (\(shot.path))", sourceLocation: sourceLocation)
        #expect(columns.beforeLabel.count <= 1,
                "\(state): left of “\(title)” (x \(word.left)) things are drawn at x \(drawn(columns.beforeLabel)), where only the state icon should be (\(shot.path))",
                sourceLocation: sourceLocation)
        let label = try #require(columns.label, "\(state): nothing drawn from “\(title)” on (\(shot.path))", sourceLocation: sourceLocation)
        // The label read from the middle of the gap after the icon (tesseract takes an icon for a
        // letter), so that whatever is drawn between the two is read with it.
        let textLeft = stripLeft + (columns.beforeLabel.first.map { $0.upperBound + 3 } ?? label.lowerBound - 6)
        let textRight = stripLeft + label.upperBound + 6
        let read = try fixture.session.readLine(in: shot, x: textLeft, y: 0, width: textRight - textLeft, height: barHeight)
        #expect(read.description.wholeMatch(of: expected) != nil, "\(state): the item reads “\(read)” (\(shot.path))", sourceLocation: sourceLocation)

        if let icon = columns.icon {
            let drawnIcon = strip.cropped(columns: (icon.lowerBound - 3)..<(icon.upperBound + 3))
            let likeness = icons.mapValues { drawnIcon.likeness(to: $0) }
            let own = likeness[state] ?? -1
            let others = likeness.filter { $0.key != state }
            #expect(own >= minimumLikeness && others.allSatisfy { $0.value < own },
                    "\(state): the icon at x \(drawn([icon])) is not \(state)'s: likeness to each state's \(likeness.map { "\($0.key) \($0.value)" }.sorted()) (\(shot.path))",
                    sourceLocation: sourceLocation)
        }
        if let keptAs, let directory = ProcessInfo.processInfo.environment["TOCSIN_SCREENSHOT_DIR"] {
            try fixture.session.saveCrop(of: shot, x: keptFrom, y: 0, width: screenWidth - keptFrom, height: barHeight,
                                         to: URL(fileURLWithPath: directory).appendingPathComponent(keptAs))
        }
    }

    /// `screen`, or a later reading of it once the item shows its icon: the shell loads an
    /// icon's picture apart from its label's text, and a screenshot taken the moment the item
    /// appeared held the label alone (once in a clean-clone CI run, on 43). What a person sees a
    /// moment later is what is checked; an icon that never comes (5 s) still fails the check.
    static func settled(_ fixture: AgentSession, _ screen: ScreenText, title: String) throws -> ScreenText {
        var current = screen
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            guard let shot = current.screenshot, let word = current.words.first(where: { $0.text == title && $0.top < barHeight }) else { return current }
            let stripLeft = max(0, word.left - reachLeftOfLabel)
            let strip = try fixture.session.pixels(of: shot, x: stripLeft, y: 0, width: screenWidth - stripLeft, height: barHeight)
            if !PanelItemColumns(strip: strip, labelStart: word.left - stripLeft).beforeLabel.isEmpty { return current }
            Thread.sleep(forTimeInterval: 0.3)
            let next = try fixture.session.readScreen()
            guard next.words.contains(where: { $0.text == title && $0.top < barHeight }) else { return current }
            current = next
        }
        return current
    }

    /// The test sessions' screen (Xvfb's, 1280×800).
    static let screenWidth = 1280
    /// Where the bar kept for the README starts: right of the clock and its dot, so that every
    /// state's picture is the same width.
    static let keptFrom = 720
}
