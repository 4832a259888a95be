import Foundation
import HeadlessSession
import Testing

/// The Debian package as a user gets it: built with `packaging/build-deb`, installed with dpkg,
/// the agent started by D-Bus activation from the installed activation file (nobody runs
/// tocsind), a timer that rings and is stopped, and a removal that leaves nothing behind.
///
/// This installs and removes the package `tocsin` on this machine (it purges one already
/// installed first), so it runs only as root, where dpkg is: CI, or a throwaway machine. It
/// installs dpkg-dev and debhelper with apt-get when they are missing. The .deb is reused while
/// the files that go into it are unchanged (packaging/build-deb keeps a hash); a fresh build of it
/// takes about a minute and a half on two cores.
///
/// Without root, the suite still checks that the man pages format, that they and the completions
/// cover every command and option of `tocsin --help`, that the completions load, and that the
/// Makefile's icon-cache update lets the installed icons be found.
@Suite(.serialized) struct PackagingTests {
    static let package = "tocsin"
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let canInstallPackages = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg")

    @Test(.enabled(if: PackagingTests.canInstallPackages, "installs a Debian package: needs root and dpkg"))
    func installedPackageIsActivatedRingsAndRemovesCleanly() throws {
        try Self.ensureBuildTools()
        let deb = try Self.buildPackage()
        let contents = try PackageContents(deb: deb)
        if try Self.installedStatus() != nil {
            // Left by an earlier run that was killed before its clean-up, or installed by hand.
            try Self.checked("/usr/bin/dpkg", ["--purge", Self.package])
        }
        let existingDirectories = Set(contents.directories.filter { FileManager.default.fileExists(atPath: $0) })

        try Self.install(deb)
        var removed = false
        defer {
            if !removed { _ = try? Self.command("/usr/bin/dpkg", ["--purge", Self.package]) }
        }

        try checkInstalledFiles(contents)
        try ringThroughActivation()

        // Removal keeps the conffiles (the autostart entry) and nothing else; purging removes
        // them, the unit's enablement and every directory the package brought.
        let conffiles = try Self.conffiles()
        #expect(conffiles == ["/etc/xdg/autostart/io.github.tocsin.Agent.desktop"])
        try Self.checked("/usr/bin/dpkg", ["-r", Self.package])
        #expect(try Self.installedStatus() == "deinstall ok config-files")
        let leftAfterRemove = contents.files.filter { FileManager.default.fileExists(atPath: $0) }
        #expect(Set(leftAfterRemove) == Set(conffiles), "left after dpkg -r: \(leftAfterRemove)")

        try Self.checked("/usr/bin/dpkg", ["--purge", Self.package])
        removed = true
        #expect(try Self.installedStatus() == nil)
        let leftAfterPurge = contents.files.filter { FileManager.default.fileExists(atPath: $0) }
            + contents.directories.filter { !existingDirectories.contains($0) && FileManager.default.fileExists(atPath: $0) }
        #expect(leftAfterPurge.isEmpty, "left after dpkg --purge: \(leftAfterPurge)")
        let enablement = "/etc/systemd/user/graphical-session.target.wants/tocsind.service"
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: enablement)) == nil, "\(enablement) is still there")
    }

    /// Both man pages format without a warning (the package installs them as they are).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "needs groff"))
    func manPagesFormatWithoutWarnings() throws {
        for page in ["man/tocsin.1", "man/tocsind.1"] {
            let path = Self.repository.appendingPathComponent(page).path
            let result = try Self.command("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", path],
                                          environment: ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(page): \(result.stderr)")
        }
    }

    /// The completions load: bash registers its function, zsh and fish (where installed) parse.
    @Test func completionsLoad() throws {
        let completions = Self.repository.appendingPathComponent("completions")
        let bash = try Self.command("/bin/bash", ["-c", "source \"$1\" && complete -p tocsin", "bash", completions.appendingPathComponent("tocsin.bash").path])
        #expect(bash.status == 0 && bash.stdout == "complete -F _tocsin tocsin\n", "bash: \(bash)")
        for (shell, file) in [("/usr/bin/zsh", "_tocsin"), ("/usr/bin/fish", "tocsin.fish")] where FileManager.default.isExecutableFile(atPath: shell) {
            let result = try Self.command(shell, ["-n", completions.appendingPathComponent(file).path])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(shell) -n \(file): \(result)")
        }
    }

    /// bash completes what follows a word that needs the one before it, without bash-completion's
    /// helpers (the script reads COMP_WORDS itself): `watch --format`'s formats, `phone enable`'s
    /// --after, and nothing but the formats after --format. (It read bash-completion's `words`,
    /// which nothing set, so these offered nothing.)
    @Test func bashCompletesAfterTheWordBefore() throws {
        let script = Self.repository.appendingPathComponent("completions/tocsin.bash").path
        func complete(_ words: String...) throws -> String {
            let line = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try Self.command("/bin/bash", ["-c", "source \"$1\"; COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1); _tocsin; echo \"${COMPREPLY[*]}\"",
                                                        "bash", script])
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try complete("tocsin", "watch", "--format", "") == "waybar i3blocks polybar")
        #expect(try complete("tocsin", "phone", "enable", "") == "--after")
        #expect(try complete("tocsin", "phone", "setup", "") == "--remove")
    }

    /// The man page and the three completions know every command of `tocsin --help` and every
    /// option of each `tocsin COMMAND --help`, so a new command or option cannot be forgotten.
    @Test func manPageAndCompletionsCoverEveryCommandAndOption() throws {
        let tocsin = try AgentSession.binary("tocsin").path
        let read = { (path: String) in try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8) }
        let man = try read("man/tocsin.1"), bash = try read("completions/tocsin.bash")
        let zsh = try read("completions/_tocsin"), fish = try read("completions/tocsin.fish")

        let overview = try Self.checked(tocsin, ["--help"]).stdout
        let commands = overview.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: /\s{2}([a-z]+) +\S.*/).map { String($0.1) }
        }
        #expect(commands.count >= 10, "no commands found in tocsin --help:\n\(overview)")
        let bashCommands = bash.firstMatch(of: /local commands="([^"]*)"/).map { $0.1.split(separator: " ").map(String.init) } ?? []
        for command in commands {
            #expect([".B \(command)\n", ".BI \(command) ", ".BR \(command) "].contains { man.contains("\n" + $0) }, "man/tocsin.1 lacks the command \(command)")
            #expect(bashCommands.contains(command), "tocsin.bash lacks the command \(command)")
            #expect(zsh.contains("'\(command):"), "_tocsin lacks the command \(command)")
            #expect(fish.contains("-a \(command) "), "tocsin.fish lacks the command \(command)")

            let help = try Self.checked(tocsin, [command, "--help"]).stdout
            let options = Set(help.matches(of: /--[a-z][a-z-]*[a-z]/).map { String($0.0) }).subtracting(["--help"])
            for option in options.sorted() {
                #expect(man.contains(option.replacingOccurrences(of: "-", with: "\\-")), "man/tocsin.1 lacks \(option) (tocsin \(command))")
                #expect(bash.contains(option), "tocsin.bash lacks \(option) (tocsin \(command))")
                #expect(zsh.contains("\(option)=[") || zsh.contains("\(option)["), "_tocsin lacks \(option) (tocsin \(command))")
                #expect(fish.contains("-l \(option.dropFirst(2)) "), "tocsin.fish lacks \(option) (tocsin \(command))")
            }
        }
    }

    /// `make install` with a prefix and a staging directory writes under both and nowhere else
    /// (the autostart entry too, which once went to /etc whatever the prefix), and `make
    /// uninstall` with the same settings takes every file away again. Runs in the tree
    /// packaging/build-deb built, so the build is already done.
    @Test(.enabled(if: PackagingTests.canInstallPackages, "builds the Debian package's tree first: needs root and dpkg"))
    func prefixedInstallStaysUnderItsPrefix() throws {
        try Self.ensureBuildTools()
        _ = try Self.buildPackage()
        let tree = Self.repository.appendingPathComponent(".build/deb/tocsin")
        let stage = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-stage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: stage) }
        let prefix = "/opt/tocsin-prefix-test"
        let settings = ["-C", tree.path, "PREFIX=\(prefix)", "DESTDIR=\(stage.path)"]
        try Self.checked("/usr/bin/make", ["install"] + settings, timeout: 1200)

        let installed = try Self.files(under: stage)
        #expect(!installed.isEmpty)
        let outside = installed.filter { !$0.hasPrefix(stage.path + prefix + "/") }
        #expect(outside.isEmpty, "written outside \(prefix): \(outside)")
        for path in ["etc/xdg/autostart/io.github.tocsin.Agent.desktop", "share/applications/io.github.tocsin.Agent.desktop",
                     "share/icons/hicolor/scalable/apps/io.github.tocsin.Agent.svg", "bin/tocsind"] {
            #expect(installed.contains("\(stage.path)\(prefix)/\(path)"), "no \(prefix)/\(path)")
        }
        let autostart = try String(contentsOfFile: "\(stage.path)\(prefix)/etc/xdg/autostart/io.github.tocsin.Agent.desktop", encoding: .utf8)
        #expect(autostart.contains("\nExec=\(prefix)/bin/tocsind\n"))

        try Self.checked("/usr/bin/make", ["uninstall"] + settings, timeout: 300)
        let left = try Self.files(under: stage)
        #expect(left.isEmpty, "left after make uninstall: \(left)")
    }

    /// `make install` into a prefix whose hicolor theme keeps an icon-theme.cache rewrites it, so
    /// the tray item's state icons are found. GTK and GNOME Shell read only the cache while it is
    /// not older than the theme's directory, which adding icons to an existing symbolic/apps does
    /// not touch: in GNOME Shell 43 and 48 the top bar then drew Tocsin's plain icon in every
    /// state. Where there is no cache, none is made. Looked up as GTK 3 does (gjs), the way GNOME
    /// Shell's icon theme, a copy of GTK's, does; runs the Makefile's own update-icon-cache.
    @Test func iconsInstalledBesideAnIconCacheAreFound() throws {
        let share = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-icon-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: share) }
        let icons = share.appendingPathComponent("icons"), theme = icons.appendingPathComponent("hicolor")
        let apps = theme.appendingPathComponent("symbolic/apps")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        let source = Self.repository.appendingPathComponent("data/icons/hicolor/symbolic/apps")
        let names = ["io.github.tocsin.Agent-countdown-symbolic", "io.github.tocsin.Agent-paused-symbolic", "io.github.tocsin.Agent-ringing-symbolic"]
        // The cache as another program left it, before Tocsin was installed.
        try FileManager.default.copyItem(at: source.appendingPathComponent("io.github.tocsin.Agent-symbolic.svg"),
                                         to: apps.appendingPathComponent("io.github.tocsin.Agent-symbolic.svg"))
        try Self.checked("/usr/bin/gtk-update-icon-cache", ["-q", "-t", "-f", theme.path])
        // Then the files, as `make install`'s install(1) lines put them.
        for name in names {
            try FileManager.default.copyItem(at: source.appendingPathComponent("\(name).svg"), to: apps.appendingPathComponent("\(name).svg"))
        }
        func found() throws -> [String] {
            let lookup = """
                imports.gi.versions.Gtk = '3.0';
                const theme = new imports.gi.Gtk.IconTheme();
                for (const name of ARGV) print(theme.lookup_icon(name, 16, 0)?.get_filename() ?? 'not found: ' + name);
                """
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_DATA_DIRS"] = share.path + ":/usr/share"
            return try Self.checked("/usr/bin/gjs", ["-c", lookup] + names, environment: environment).stdout.split(separator: "\n").map(String.init)
        }
        let expected = names.map { apps.appendingPathComponent("\($0).svg").path }
        #expect(try found().allSatisfy { $0.hasPrefix("not found") }, "the old cache hides them, or this test shows nothing")
        try Self.checked("/usr/bin/make", ["-C", Self.repository.path, "update-icon-cache", "ICONDIR=\(icons.path)"])
        #expect(try found() == expected)

        let bare = share.appendingPathComponent("bare")
        try FileManager.default.createDirectory(at: bare.appendingPathComponent("hicolor"), withIntermediateDirectories: true)
        try Self.checked("/usr/bin/make", ["-C", Self.repository.path, "update-icon-cache", "ICONDIR=\(bare.path)"])
        #expect(!FileManager.default.fileExists(atPath: bare.appendingPathComponent("hicolor/icon-theme.cache").path), "a cache was made where none was")
    }

    /// Every regular file under `directory`, by path.
    private static func files(under directory: URL) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return walker.compactMap { $0 as? String }.map { directory.path + "/" + $0 }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    // MARK: The installed files

    private func checkInstalledFiles(_ contents: PackageContents) throws {
        let expected = [
            "/usr/bin/tocsind", "/usr/bin/tocsin",
            "/usr/share/dbus-1/services/io.github.tocsin.Agent.service",
            "/usr/share/dbus-1/interfaces/io.github.tocsin.Alarms1.xml",
            "/usr/share/dbus-1/interfaces/io.github.tocsin.LockScreen1.xml",
            "/usr/lib/systemd/user/tocsind.service",
            "/etc/xdg/autostart/io.github.tocsin.Agent.desktop",
            "/usr/share/applications/io.github.tocsin.Agent.desktop",
            "/usr/share/icons/hicolor/scalable/apps/io.github.tocsin.Agent.svg",
            "/usr/share/icons/hicolor/symbolic/apps/io.github.tocsin.Agent-symbolic.svg",
            "/usr/share/icons/hicolor/symbolic/apps/io.github.tocsin.Agent-countdown-symbolic.svg",
            "/usr/share/icons/hicolor/symbolic/apps/io.github.tocsin.Agent-paused-symbolic.svg",
            "/usr/share/icons/hicolor/symbolic/apps/io.github.tocsin.Agent-ringing-symbolic.svg",
            "/usr/share/man/man1/tocsin.1.gz", "/usr/share/man/man1/tocsind.1.gz",
            "/usr/share/bash-completion/completions/tocsin",
            "/usr/share/zsh/vendor-completions/_tocsin",
            "/usr/share/fish/vendor_completions.d/tocsin.fish",
            "/usr/share/gnome-shell/extensions/tocsin@tocsin.github.io/metadata.json",
            "/usr/share/gnome-shell/extensions/tocsin@tocsin.github.io/extension.js",
        ]
        for path in expected {
            #expect(contents.files.contains(path), "the package does not ship \(path)")
            #expect(FileManager.default.fileExists(atPath: path), "\(path) is not installed")
        }

        let activation = try String(contentsOfFile: "/usr/share/dbus-1/services/io.github.tocsin.Agent.service", encoding: .utf8)
        for line in ["[D-BUS Service]", "Name=io.github.tocsin.Agent", "Exec=/usr/bin/tocsind", "SystemdService=tocsind.service"] {
            #expect(activation.split(separator: "\n").contains(Substring(line)), "the activation file lacks \(line)")
        }
        let unit = try String(contentsOfFile: "/usr/lib/systemd/user/tocsind.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/bin/tocsind\n") && unit.contains("\nBusName=io.github.tocsin.Agent\n"))
        let autostart = try String(contentsOfFile: "/etc/xdg/autostart/io.github.tocsin.Agent.desktop", encoding: .utf8)
        #expect(autostart.contains("\nExec=/usr/bin/tocsind\n"))
        // The entry every notification names (hint desktop-entry): GNOME and Plasma take the
        // app's name and icon from it and list it in their notification settings.
        let entry = try String(contentsOfFile: "/usr/share/applications/io.github.tocsin.Agent.desktop", encoding: .utf8)
        for line in ["Name=Tocsin", "Icon=io.github.tocsin.Agent", "X-GNOME-UsesNotifications=true", "Exec=/usr/bin/tocsind"] {
            #expect(entry.split(separator: "\n").contains(Substring(line)), "the desktop entry lacks \(line)")
        }
        #expect(!(activation + unit + autostart + entry).contains("@bindir@"))

        // Every user's graphical session starts the unit (dh_installsystemduser's postinst).
        let enablement = "/etc/systemd/user/graphical-session.target.wants/tocsind.service"
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: enablement)) == "/usr/lib/systemd/user/tocsind.service")

        // The Swift runtime is linked in: only system libraries, none from a toolchain.
        for binary in ["/usr/bin/tocsind", "/usr/bin/tocsin"] {
            let libraries = try Self.checked("/usr/bin/ldd", [binary]).stdout
            #expect(!libraries.contains("swift") && !libraries.contains("Foundation") && !libraries.contains("not found"), "\(binary) links:\n\(libraries)")
        }
        // The package's version is the one the programs report.
        let version = try Self.checked("/usr/bin/dpkg-query", ["-W", "-f=${Version}", Self.package]).stdout
        #expect(try Self.checked("/usr/bin/tocsin", ["--version"]).stdout == "tocsin \(version)\n")
        #expect(try Self.checked("/usr/bin/tocsind", ["--version"]).stdout == "tocsind \(version)\n")

        // The postinst lets the agent wake a suspended machine.
        for getcap in ["/usr/sbin/getcap", "/sbin/getcap"] where FileManager.default.isExecutableFile(atPath: getcap) {
            let capabilities = try Self.checked(getcap, ["/usr/bin/tocsind"]).stdout
            #expect(capabilities.contains("cap_wake_alarm=ep"), "getcap /usr/bin/tocsind: \(capabilities)")
            break
        }
    }

    // MARK: Activation, ringing, stopping

    /// In a headless session whose bus reads the installed activation file, `tocsin timer 3s`
    /// starts the agent, which rings (heard on the sound server), and `tocsin stop` stops it.
    private func ringThroughActivation() throws {
        let session = try HeadlessSession(label: "packaging")
        var agentPID: pid_t?
        defer {
            if let agentPID { Self.terminate(agentPID) }
            session.stop()
        }
        try Self.makeActivatable("/usr/share/dbus-1/services/io.github.tocsin.Agent.service", in: session)
        // What a desktop session does once its display and sound are up, so that services the
        // bus starts can reach them.
        let update = try session.run(try HeadlessSession.executable("dbus-update-activation-environment"), ["DISPLAY", "PULSE_SERVER"])
        try #require(update.status == 0, "dbus-update-activation-environment: \(update)")
        try #require(try Self.busCall(session, "NameHasOwner", "string:io.github.tocsin.Agent").contains("boolean false"), "an agent is already running")

        let recording = try session.startRecording()
        let timer = try session.run(URL(fileURLWithPath: "/usr/bin/tocsin"), ["timer", "3s", "--title", "Packaged timer"], timeout: .seconds(30))
        try #require(timer.status == 0, "tocsin timer: \(timer)\nbus log:\n\(Self.busLog(session))")
        let id = timer.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        // The bus started the agent: the installed tocsind, with nobody running it by hand.
        let busLog = Self.busLog(session)
        #expect(busLog.contains("Activating service name='io.github.tocsin.Agent'") && busLog.contains("Successfully activated service 'io.github.tocsin.Agent'"), "bus log:\n\(busLog)")
        let pidReply = try Self.busCall(session, "GetConnectionUnixProcessID", "string:io.github.tocsin.Agent")
        agentPID = pidReply.split(separator: " ").last.flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let agent = try #require(agentPID, "no process owns io.github.tocsin.Agent: \(pidReply)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(agent)/exe")) == "/usr/bin/tocsind")

        let shown = try session.run(URL(fileURLWithPath: "/usr/bin/tocsin"), ["show", id, "--json"])
        let details = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any], "tocsin show: \(shown)")
        let fireTime = Date(timeIntervalSince1970: try #require((details["fire-time"] as? NSNumber)?.doubleValue))

        // It rings: the critical notification with Stop, and the agent's own sound.
        let alert = try session.waitForNotification(timeout: .seconds(10)) { $0.summary == "Packaged timer" && $0.urgency == 2 }
        #expect(alert.actions.map(\.label) == ["Stop"])
        #expect(Self.eventually(timeout: 3) { recording.currentTrace().firstLoudWindow(after: fireTime.addingTimeInterval(-0.05)) != nil }, "no sound after the due time\nbus log:\n\(Self.busLog(session))")
        let firstSound = recording.currentTrace().firstLoudWindow(after: fireTime.addingTimeInterval(-0.05)) ?? fireTime
        Thread.sleep(forTimeInterval: 1)

        let stop = try session.run(URL(fileURLWithPath: "/usr/bin/tocsin"), ["stop"])
        let stopped = Date()
        #expect(stop.status == 0 && stop.stderr.contains("Packaged timer"), "tocsin stop: \(stop)")
        _ = try session.waitForNotificationClosed(id: alert.id, timeout: .seconds(5))
        Thread.sleep(forTimeInterval: 1.5)
        let trace = recording.stop()
        #expect(trace.rms(from: firstSound, to: stopped) > 0.01, "ringing was not loud: \(trace.rms(from: firstSound, to: stopped))")
        #expect(trace.isSilent(from: stopped.addingTimeInterval(0.5), to: stopped.addingTimeInterval(1.5)), "still sound after tocsin stop")

        // A second agent — XDG autostart racing activation — sees the name taken and leaves.
        let second = try session.launch(URL(fileURLWithPath: "/usr/bin/tocsind"), [])
        #expect(second.waitForExit(timeout: .seconds(10)) == 0, "a second tocsind: \(second.standardError())")
        #expect(second.standardError().contains("Another Tocsin agent already serves"))
        #expect(try session.run(URL(fileURLWithPath: "/usr/bin/tocsin"), ["list"]).status == 0, "the first agent no longer answers")

        Self.terminate(agent)
        agentPID = nil
    }

    /// Makes the installed activation file `serviceFile`, and nothing else, activatable on the
    /// session's bus: a copy of it goes into a service directory of the session's own. The
    /// system's directory would bring every installed server's activation file along
    /// (xfce4-notifyd's, mako's, GNOME Shell's), and a Notify sent to no one would start one.
    private static func makeActivatable(_ serviceFile: String, in session: HeadlessSession) throws {
        let directory = session.directory.appendingPathComponent("activatable")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = URL(fileURLWithPath: serviceFile)
        try FileManager.default.copyItem(at: file, to: directory.appendingPathComponent(file.lastPathComponent))
        try readServiceDirectory(directory.path, in: session)
    }

    /// Adds `directory` to the session bus's service directories and makes the bus read it: the
    /// session's bus deliberately has none (nothing may start behind a test's back), so its
    /// configuration file — named on the dbus-daemon command line — gets one, and ReloadConfig.
    private static func readServiceDirectory(_ directory: String, in session: HeadlessSession) throws {
        let daemon = try #require(session.childProcesses.first { $0.name == "dbus-daemon" }, "the session has no dbus-daemon")
        let argument = try #require(daemon.commandLine.split(separator: " ").first { $0.hasPrefix("--config-file=") }, "no --config-file in \(daemon.commandLine)")
        let configuration = URL(fileURLWithPath: String(argument.dropFirst("--config-file=".count)))
        let text = try String(contentsOf: configuration, encoding: .utf8)
        try #require(text.contains("</busconfig>"))
        try text.replacingOccurrences(of: "</busconfig>", with: "  <servicedir>\(directory)</servicedir>\n</busconfig>")
            .write(to: configuration, atomically: true, encoding: .utf8)
        _ = try busCall(session, "ReloadConfig")
    }

    /// Calls `method` of org.freedesktop.DBus on the session's bus; returns the printed reply.
    @discardableResult
    private static func busCall(_ session: HeadlessSession, _ method: String, _ arguments: String...) throws -> String {
        let result = try session.run(
            try HeadlessSession.executable("dbus-send"),
            ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.\(method)"] + arguments)
        try #require(result.status == 0, "\(method): \(result)")
        return result.stdout
    }

    /// What the session's dbus-daemon logged, with the output of the services it started.
    private static func busLog(_ session: HeadlessSession) -> String {
        session.childProcesses.first { $0.name == "dbus-daemon" }?.standardError() ?? ""
    }

    // MARK: Building and installing

    /// Installs what `make deb` needs beyond the build packages (packaging/dependencies'
    /// `package` purpose; scripts/test has installed it already, so this is for a suite run alone).
    private static func ensureBuildTools() throws {
        try checked(repository.appendingPathComponent("scripts/install-dependencies").path, ["build", "package"], timeout: 900)
    }

    /// The .deb from packaging/build-deb (built, or reused if its files did not change).
    private static func buildPackage() throws -> URL {
        let result = try checked(repository.appendingPathComponent("packaging/build-deb").path, [], timeout: 1200)
        let path = try #require(result.stdout.split(separator: "\n").last.map(String.init), "build-deb printed no path: \(result)")
        try #require(FileManager.default.fileExists(atPath: path), "no \(path)")
        return URL(fileURLWithPath: path)
    }

    /// dpkg -i, and apt-get -f for dependencies that are missing.
    private static func install(_ deb: URL) throws {
        let first = try command("/usr/bin/dpkg", ["-i", deb.path], timeout: 300)
        if first.status != 0 {
            let environment = ProcessInfo.processInfo.environment.merging(["DEBIAN_FRONTEND": "noninteractive"]) { _, new in new }
            try checked("/usr/bin/apt-get", ["install", "-f", "-y", "-qq", "--no-install-recommends"], environment: environment, timeout: 600)
        }
        try #require(try installedStatus() == "install ok installed", "dpkg -i: \(first)")
    }

    /// dpkg's status of the package ("install ok installed"…), or nil when dpkg knows nothing of it.
    private static func installedStatus() throws -> String? {
        let result = try command("/usr/bin/dpkg-query", ["-W", "-f=${Status}", package])
        return result.status == 0 && !result.stdout.hasSuffix("not-installed") ? result.stdout : nil
    }

    /// The installed package's conffiles.
    private static func conffiles() throws -> [String] {
        try checked("/usr/bin/dpkg-query", ["-W", "-f=${Conffiles}", package]).stdout
            .split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// Ends the agent (SIGTERM, SIGKILL after 5 s) and waits until it is gone.
    private static func terminate(_ pid: pid_t) {
        kill(pid, SIGTERM)
        if !eventually(timeout: 5, { kill(pid, 0) != 0 }) {
            kill(pid, SIGKILL)
            _ = eventually(timeout: 2) { kill(pid, 0) != 0 }
        }
    }

    private static func eventually(timeout: TimeInterval, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }

    /// Runs a program outside any session and waits for it (at most `timeout` seconds).
    private static func command(
        _ executable: String, _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: TimeInterval = 60
    ) throws -> CommandResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-packaging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputURL = scratch.appendingPathComponent("stdout"), errorURL = scratch.appendingPathComponent("stderr")
        let process = try SpawnedProcess(URL(fileURLWithPath: executable), arguments, environment: environment,
                                         standardOutput: .file(outputURL), standardError: .file(errorURL), ownProcessGroup: false)
        guard let status = process.waitForExit(timeout: .seconds(timeout)) else {
            kill(process.pid, SIGTERM)
            process.waitUntilExit()
            throw IntegrationError("\(executable) \(arguments.joined(separator: " ")) ran longer than \(Int(timeout)) s")
        }
        let read = { (url: URL) in (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
        return CommandResult(status: status, stdout: read(outputURL), stderr: read(errorURL))
    }

    /// `command`, which must exit 0.
    @discardableResult
    private static func checked(
        _ executable: String, _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: TimeInterval = 60
    ) throws -> CommandResult {
        let result = try command(executable, arguments, environment: environment, timeout: timeout)
        guard result.status == 0 else {
            throw IntegrationError("\(executable) \(arguments.joined(separator: " ")) failed: \(result)")
        }
        return result
    }
}

/// What a .deb installs: its files (and symlinks) and its directories, as absolute paths.
private struct PackageContents {
    var files: [String] = []
    var directories: [String] = []

    init(deb: URL) throws {
        let listing = try Self.list(deb)
        for line in listing.split(separator: "\n") {
            // "-rw-r--r-- root/root 1178 2026-11-29 20:00 ./etc/xdg/autostart/x.desktop"
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6 else { continue }
            var path = String(fields[5])
            if let arrow = path.range(of: " -> ") { path = String(path[..<arrow.lowerBound]) }
            path = String(path.dropFirst())  // "./x" → "/x"
            if path.hasSuffix("/") {
                if path != "/" { directories.append(String(path.dropLast())) }
            } else {
                files.append(path)
            }
        }
        // Deepest first, so a parent is only ever checked after its children.
        directories.sort { $0.count > $1.count }
    }

    private static func list(_ deb: URL) throws -> String {
        let (status, listing) = try SpawnedProcess.output(of: URL(fileURLWithPath: "/usr/bin/dpkg-deb"), ["-c", deb.path])
        guard status == 0 else { throw IntegrationError("dpkg-deb -c \(deb.path) failed") }
        return listing
    }
}
