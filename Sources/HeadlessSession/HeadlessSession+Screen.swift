import Foundation

extension HeadlessSession {
    /// Saves a picture of the whole screen the notification server draws on: the X screen
    /// (ImageMagick `import -window root`; the format follows the file extension, e.g. `.png`),
    /// sway's output for mako (grim, PNG), or GNOME Shell 50's screen (through the shell, PNG).
    public func screenshot(to url: URL) throws {
        try ensureRunning()
        if let gnomeShellScreen {
            try gnomeShellScreen.screenshot(to: url, environment: environment)
            return
        }
        if let waylandEnvironment {
            try launcher.runChecked("grim", [url.path], environment: environment.merging(waylandEnvironment) { $1 }, timeout: .seconds(20))
            return
        }
        try launcher.runChecked("import", ["-display", display, "-window", "root", url.path],
                                environment: environment, timeout: .seconds(20))
    }

    /// Runs `makoctl` with `arguments` on the session's bus (mako sessions): `list`, `invoke -n
    /// ID ACTION`, `dismiss`. Returns its output.
    @discardableResult
    public func makoctl(_ arguments: String...) throws -> String {
        try ensureRunning()
        return try launcher.runChecked("makoctl", arguments, environment: environment)
    }

    /// What a person reads on the screen now: a screenshot, made grey and three times larger
    /// (tesseract reads 9–11 px notification text reliably only so), read by tesseract twice:
    /// as one column of text (`--psm 4`) and as sparse text (`--psm 11`). Its default page
    /// analysis dropped whole lines of a bubble beside a coloured icon, and each of the two
    /// lost a line now and then that the other read. About 0.6 s a pass. The screenshot is
    /// kept in the session's logs as `screen-N.png`.
    ///
    /// `region` (columns `x`, rows `y`) reads only that part of the screen, in the screen's
    /// coordinates: a third of the time or less (2 s against 6.7 s for Plasma's whole screen on
    /// a loaded machine), and no wallpaper to mislead tesseract. `scale` reads smaller text: the
    /// grey 9 px second line of Plasma's tooltips was read whole only four times larger.
    public func readScreen(region: (x: ClosedRange<Int>, y: ClosedRange<Int>)? = nil, scale: Int = readingScale) throws -> ScreenText {
        try ensureRunning()
        let shot = layout.logs.appendingPathComponent("screen-\(nextRecordingIndex()).png")
        try screenshot(to: shot)
        return try read(screenshot: shot, region: region, scale: scale)
    }

    /// What a person reads on `shot`, a screenshot taken earlier (`screenshot(to:)`), as
    /// `readScreen` reads the screen: a burst of screenshots taken quickly, read afterwards.
    public func read(screenshot shot: URL, region: (x: ClosedRange<Int>, y: ClosedRange<Int>)? = nil, scale: Int = readingScale) throws -> ScreenText {
        try ensureRunning()
        let enlarged = layout.logs.appendingPathComponent("\(shot.deletingPathExtension().lastPathComponent)-ocr-\(nextRecordingIndex()).png")
        let crop = region.map { ["-crop", "\($0.x.count)x\($0.y.count)+\($0.x.lowerBound)+\($0.y.lowerBound)", "+repage"] } ?? []
        // GNOME Shell draws light text on dark banners, and dunst (as configured here) white on
        // dark blue, which tesseract did not read at all: made dark on light and black and white first.
        let darkTheme = [.gnomeShell, .dunst].contains(notificationServer) ? ["-negate", "-threshold", "50%"] : []
        try launcher.runChecked("convert", [shot.path] + crop + ["-colorspace", "gray", "-resize", "\(scale * 100)%"] + darkTheme + [enlarged.path],
                                environment: environment, timeout: .seconds(20))
        let passes = try ["4", "11"].map { mode in
            try launcher.runChecked("tesseract", [enlarged.path, "-", "--psm", mode, "tsv"], environment: environment, timeout: .seconds(60))
        }
        try? FileManager.default.removeItem(at: enlarged)
        var text = ScreenText(passes: passes, scale: scale, origin: region.map { ($0.x.lowerBound, $0.y.lowerBound) } ?? (0, 0))
        text.screenshot = shot
        return text
    }

    /// Reads the screen (or its `region`) until `condition` holds for what it shows, for at
    /// most `timeout`; returns what was read last, and throws with it when the condition never held.
    @discardableResult
    public func waitForScreen(timeout: Duration = .seconds(10), _ what: String, region: (x: ClosedRange<Int>, y: ClosedRange<Int>)? = nil,
                              until condition: (ScreenText) -> Bool) throws -> ScreenText {
        let deadline = ContinuousClock.now + timeout
        var last = try readScreen(region: region)
        while !condition(last) {
            guard ContinuousClock.now < deadline else {
                throw HeadlessSessionError.screenNeverShowed(what: what, lastRead: last.description)
            }
            Thread.sleep(forTimeInterval: 0.2)
            last = try readScreen(region: region)
        }
        return last
    }

    /// `waitForScreen` for what shows only briefly, such as a popup that goes by itself after a
    /// few seconds: the screen is photographed every half second on a thread of its own while
    /// the pictures already taken are read, in order, so a slow reading (6 s for a region on a
    /// loaded machine, longer than Plasma's 5 s popup) cannot miss what showed between two
    /// readings. A picture of the region that is the same as the one before is not read again.
    /// `timeout` is for what the screen shows, counted from the photographs; the readings that
    /// are behind are finished after it. Returns the first picture read that meets `condition`.
    @discardableResult
    public func waitForBriefScreen(timeout: Duration = .seconds(10), _ what: String, region: (x: ClosedRange<Int>, y: ClosedRange<Int>)? = nil,
                                   until condition: (ScreenText) -> Bool) throws -> ScreenText {
        try ensureRunning()
        let film = ScreenFilm()
        let photographer = Thread { [self] in
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline, !film.isDone {
                let shot = layout.logs.appendingPathComponent("screen-\(nextRecordingIndex()).png")
                do {
                    try screenshot(to: shot)
                    try film.add(shot) { try self.regionBytes(of: shot, region: region) }
                } catch {
                    film.fail(error)
                    break
                }
                Thread.sleep(forTimeInterval: 0.5)
            }
            film.finish()
        }
        photographer.start()
        defer { film.stop() }
        var last: ScreenText?
        while let shot = try film.next() {
            let text = try read(screenshot: shot, region: region)
            if condition(text) { return text }
            last = text
        }
        throw HeadlessSessionError.screenNeverShowed(what: what, lastRead: last?.description ?? "nothing")
    }

    /// The pixels of `region` of the screenshot `shot`, to tell two pictures apart.
    private func regionBytes(of shot: URL, region: (x: ClosedRange<Int>, y: ClosedRange<Int>)?) throws -> Data {
        let crop = region.map { ["-crop", "\($0.x.count)x\($0.y.count)+\($0.x.lowerBound)+\($0.y.lowerBound)", "+repage"] } ?? []
        let raw = shot.deletingPathExtension().appendingPathExtension("rgb")
        defer { try? FileManager.default.removeItem(at: raw) }
        try launcher.runChecked("convert", [shot.path] + crop + ["-depth", "8", "rgb:\(raw.path)"], environment: environment, timeout: .seconds(20))
        return try Data(contentsOf: raw)
    }

    /// Clicks the word `label` where it is on the screen (a button's text), the way a person
    /// would: the pointer moves there and presses the left button, then moves off to the
    /// bottom of the screen, where no server draws notifications (a hovered bubble stays up),
    /// and away from a corner (GNOME's top-left one opens the overview). Waits up to
    /// `timeout` for the word to appear; returns where it was.
    @discardableResult
    public func clickOnScreen(_ label: String, timeout: Duration = .seconds(10)) throws -> ScreenText.Word {
        let screen = try waitForScreen(timeout: timeout, "the word “\(label)”") { $0.word(label) != nil }
        let word = screen.word(label)!
        try click(x: word.center.x, y: word.center.y)
        return word
    }

    /// Moves the pointer to (`x`, `y`), clicks the left button there and moves it off to the
    /// bottom of the screen. On the X display (trixie's sway on it too) and GNOME Shell 50's
    /// (mutter's remote-desktop pointer); the system's sway is headless and has no pointer (use
    /// `makoctl`).
    public func click(x: Int, y: Int) throws {
        try ensureRunning()
        if let gnomeShellScreen {
            try gnomeShellScreen.click(x: x, y: y, environment: environment)
            return
        }
        guard waylandEnvironment == nil || swayRelease == .trixie else {
            throw HeadlessSessionError.actionNotClickable(label: "(\(x), \(y))", notificationID: 0,
                                                          reason: "sway's headless output has no pointer; invoke actions with makoctl", offered: [])
        }
        // A moment between arriving and pressing, as a hand takes: GNOME Shell's top bar let a
        // press that came with the motion go by.
        try launcher.runChecked("xdotool", ["mousemove", String(x), String(y), "sleep", "0.15", "click", "1", "sleep", "0.1", "mousemove", "640", "760"],
                                environment: environment)
    }

    /// Moves the pointer to (`x`, `y`) and presses the left button there, holding it down until
    /// `releaseButton()`: a press that lasts while the screen changes under it.
    public func pressButton(x: Int, y: Int) throws {
        try ensureRunning()
        try requireXPointer("a held press")
        try launcher.runChecked("xdotool", ["mousemove", String(x), String(y), "sleep", "0.15", "mousedown", "1"], environment: environment)
    }

    /// Releases the left button pressed with `pressButton(x:y:)`, and moves the pointer off to
    /// the bottom of the screen, as `click(x:y:)` does.
    public func releaseButton() throws {
        try ensureRunning()
        try requireXPointer("a held press")
        try launcher.runChecked("xdotool", ["mouseup", "1", "sleep", "0.1", "mousemove", "640", "760"], environment: environment)
    }

    /// Moves the pointer to (`x`, `y`) and leaves it there (to hover over a banner).
    public func movePointer(x: Int, y: Int) throws {
        try ensureRunning()
        if let gnomeShellScreen {
            try gnomeShellScreen.movePointer(x: x, y: y, environment: environment)
            return
        }
        try launcher.runChecked("xdotool", ["mousemove", String(x), String(y)], environment: environment)
    }

    /// Presses `keys` on the X display, as xdotool names them ("super+v", "Escape").
    public func pressKeys(_ keys: String) throws {
        try ensureRunning()
        try requireXPointer("keys")
        try launcher.runChecked("xdotool", ["key", keys], environment: environment)
    }

    /// Throws for what only xdotool does on the X display: on GNOME Shell 50 the session's
    /// remote-desktop pointer only moves and clicks (`GnomeShellScreen`); no held press, no keys.
    private func requireXPointer(_ what: String) throws {
        guard gnomeShellScreen == nil else {
            throw HeadlessSessionError.componentFailed(component: "gnome-shell 50's screen", reason: "\(what) only on the X display (xdotool)", stderrTail: "")
        }
    }

    /// The horizontal centres of the icons drawn in a strip of the screen, from left to right:
    /// a panel's tray, whose icons have no text to find them by and move as items come and go.
    /// The strip (`x`, `y`: its columns and rows) is made black and white, and each run of
    /// columns with ink in it, separated from the next by at least `gap` columns, is one icon.
    public func iconCenters(x: ClosedRange<Int>, y: ClosedRange<Int>, gap: Int = 4) throws -> [Int] {
        try ensureRunning()
        let shot = layout.logs.appendingPathComponent("strip-\(nextRecordingIndex()).png")
        try screenshot(to: shot)
        defer { try? FileManager.default.removeItem(at: shot) }
        // Each column averaged into one pixel: white (255) where the column holds no ink.
        let columns = try launcher.runChecked(
            "convert", [shot.path, "-crop", "\(x.count)x\(y.count)+\(x.lowerBound)+\(y.lowerBound)", "+repage", "-colorspace", "gray",
                        "-threshold", "50%", "-scale", "\(x.count)x1!", "-depth", "8", "-compress", "none", "pgm:-"],
            environment: environment, timeout: .seconds(20))
        // Plain PGM: "P2", width, height, maximum, then one value per column.
        let values = columns.split(whereSeparator: \.isWhitespace).dropFirst(4).compactMap { Int($0) }
        var centers: [Int] = [], runStart: Int?, lastInk = Int.min
        for (column, value) in values.enumerated() where value < 250 {
            if let start = runStart, column - lastInk > gap {
                centers.append(x.lowerBound + (start + lastInk) / 2)
                runStart = column
            } else if runStart == nil {
                runStart = column
            }
            lastInk = column
        }
        if let start = runStart { centers.append(x.lowerBound + (start + lastInk) / 2) }
        return centers
    }

    /// The colours of a rectangle of `screenshot` (one `readScreen` kept: `ScreenText.screenshot`),
    /// `x`, `y` its top left corner: what an icon there is drawn in.
    public func pixels(of screenshot: URL, x: Int, y: Int, width: Int, height: Int) throws -> ScreenPixels {
        try ensureRunning()
        let ppm = try launcher.runChecked("convert", [screenshot.path, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage", "-depth", "8",
                                                      "-compress", "none", "ppm:-"], environment: environment, timeout: .seconds(20))
        return ScreenPixels(plainPPM: ppm)
    }

    /// What a person reads on the one line of text in a rectangle of `screenshot` (one
    /// `readScreen` kept: `ScreenText.screenshot`), `x`, `y` its top left corner: a panel item's
    /// label, read apart from the rest of the bar. The rectangle alone, made larger and (on GNOME)
    /// dark on light as `readScreen` makes the screen, read by tesseract as a single line
    /// (`--psm 7`). The words' places are the screen's.
    public func readLine(in screenshot: URL, x: Int, y: Int, width: Int, height: Int) throws -> ScreenText {
        try ensureRunning()
        let enlarged = layout.logs.appendingPathComponent("line-\(nextRecordingIndex())-ocr.png")
        defer { try? FileManager.default.removeItem(at: enlarged) }
        let darkTheme = notificationServer == .gnomeShell ? ["-negate", "-threshold", "50%"] : []
        try launcher.runChecked("convert", [screenshot.path, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage", "-colorspace", "gray",
                                            "-resize", "\(Self.readingScale * 100)%"] + darkTheme + [enlarged.path],
                                environment: environment, timeout: .seconds(20))
        let tsv = try launcher.runChecked("tesseract", [enlarged.path, "-", "--psm", "7", "tsv"], environment: environment, timeout: .seconds(60))
        var text = ScreenText(passes: [tsv], scale: Self.readingScale, origin: (x, y))
        text.screenshot = screenshot
        return text
    }

    /// Saves a rectangle of `screenshot` to `url` (a panel's item, for a reader to see).
    public func saveCrop(of screenshot: URL, x: Int, y: Int, width: Int, height: Int, to url: URL) throws {
        try ensureRunning()
        try launcher.runChecked("convert", [screenshot.path, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage", url.path],
                                environment: environment, timeout: .seconds(20))
    }

    /// An icon file (SVG or PNG) drawn `size` pixels square as GNOME Shell draws a symbolic icon,
    /// light where the icon is opaque on a dark ground: its opacity as grey, what
    /// `ScreenPixels.likeness(to:)` compares a drawn icon with. Drawn by GdkPixbuf (gjs), whose
    /// SVG loader (librsvg) is the one the shell's icon theme uses.
    public func drawnIcon(_ file: URL, size: Int) throws -> ScreenPixels {
        try ensureRunning()
        let program = """
            imports.gi.versions.GdkPixbuf = '2.0';
            const {GdkPixbuf} = imports.gi;
            const [file, size] = ARGV;
            const icon = GdkPixbuf.Pixbuf.new_from_file_at_size(file, +size, +size);
            const pixels = icon.get_pixels();
            const out = ['P3', icon.width, icon.height, 255];
            for (let y = 0; y < icon.height; y++) {
                for (let x = 0; x < icon.width; x++) {
                    const alpha = icon.has_alpha ? pixels[y * icon.rowstride + x * icon.n_channels + 3] : 255;
                    out.push(alpha, alpha, alpha);
                }
            }
            print(out.join(' '));
            """
        let ppm = try launcher.runChecked("gjs", ["-c", program, file.path, String(size)], environment: environment, timeout: .seconds(20))
        return ScreenPixels(plainPPM: ppm)
    }

    /// How much larger than the screen the picture tesseract reads is, unless told otherwise.
    public static let readingScale = 3
}
