import BusTestSupport
import Foundation
import HeadlessSession
import Testing

/// What a sandboxed app can make the agent do, tried from a real sandbox: bubblewrap with a
/// `/.flatpak-info`, as Flatpak builds one, on the session's bus. Nothing it sends may make the
/// agent run a command or read a file outside that sandbox (docs/SECURITY.md).
@Suite(.serialized) struct SandboxTests {
    static let appID = "org.example.Sandboxed"

    /// The agent's session, and a Flatpak-like sandbox of `appID` whose programs talk to its bus.
    final class Fixture {
        let agent: AgentSession
        let sandbox: FlatpakLikeSandbox

        init(_ label: String, appID: String? = SandboxTests.appID, agentEnvironment: [String: String] = [:]) throws {
            agent = try AgentSession(label, agentEnvironment: agentEnvironment)
            sandbox = try FlatpakLikeSandbox(appID: appID, directory: agent.session.directory.appendingPathComponent("sandbox"))
        }

        var session: HeadlessSession { agent.session }

        /// The bus socket's host path, from the session's address.
        var busSocket: String {
            get throws {
                let path = session.busAddress.split(separator: ",").first.flatMap { $0.firstMatch(of: /^unix:path=(.+)$/) }.map { String($0.1) }
                return try #require(path, "the session bus is not on a socket path: \(session.busAddress)")
            }
        }

        /// Host paths a program inside needs to see at the same path: the built `tocsin` and
        /// the Swift runtime it links.
        var readOnly: [String] {
            get throws {
                let tocsin = try AgentSession.binary("tocsin")
                return [tocsin.path] + FlatpakLikeSandbox.libraryDirectories(of: tocsin)
            }
        }

        /// Runs `command` inside the sandbox to completion.
        func runInside(_ command: [String], timeout: Duration = .seconds(30)) throws -> CommandResult {
            try session.run(FlatpakLikeSandbox.bwrap, sandbox.bwrapArguments(running: command, busSocket: try busSocket, readOnly: try readOnly), timeout: timeout)
        }

        /// Starts `command` inside the sandbox.
        func launchInside(_ command: [String]) throws -> SessionProcess {
            try session.launch(FlatpakLikeSandbox.bwrap, sandbox.bwrapArguments(running: command, busSocket: try busSocket, readOnly: try readOnly))
        }

        /// A `gdbus call` to the agent from inside the sandbox.
        func gdbus(_ method: String, _ arguments: String...) throws -> CommandResult {
            try runInside(["/usr/bin/gdbus"] + AuthorizationTests.gdbus(method) + arguments)
        }

        /// The real `tocsin` command line, run inside the sandbox.
        func tocsinInside(_ arguments: String...) throws -> CommandResult {
            try runInside([try AgentSession.binary("tocsin").path] + arguments)
        }

        /// The id a successful `Schedule` printed.
        func scheduledID(_ result: CommandResult) throws -> String {
            try #require(result.status == 0, "Schedule failed: \(result)")
            let id = result.stdout.firstMatch(of: /'([0-9a-f-]{36})'/).map { String($0.1) }
            return try #require(id, "gdbus printed no id: \(result.stdout)")
        }
    }

    /// `word` in single quotes, for a generated shell script.
    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// An app in the sandbox whose intent's button is pressed after it quit: the agent starts it
    /// again through its sandbox — `flatpak run <its id> --tocsin-intents` — never by the program
    /// path it registered. Flatpak itself cannot run here (it needs a runtime from a remote), so
    /// a `flatpak` on the agent's PATH does what `flatpak run` does with it: it starts the app in
    /// the same bubblewrap sandbox, and records how it was called.
    @Test func aSandboxedAppIsStartedAgainThroughItsSandboxToPerformAnIntent() throws {
        let shims = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-flatpak-\(UUID())")
        try FileManager.default.createDirectory(at: shims, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: shims) }
        let path = shims.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let fixture = try Fixture("sandbox-intents", agentEnvironment: ["PATH": path])
        let app = try AgentSession.binary("alarmkit-style")
        let readOnly = [app.path] + FlatpakLikeSandbox.libraryDirectories(of: app)
        let identity = ["/usr/bin/env", "FLATPAK_ID=\(Self.appID)", "ALARMKIT_STYLE_OUTPUT=\(FlatpakLikeSandbox.appFilesInside)/started.out", app.path]
        let calls = shims.appendingPathComponent("calls")
        let started = fixture.sandbox.bwrapArguments(running: identity, busSocket: try fixture.busSocket, readOnly: readOnly)
        let script = """
            #!/bin/sh
            echo "$@" >> \(Self.shellQuoted(calls.path))
            [ "$1" = run ] && [ "$2" = \(Self.shellQuoted(Self.appID)) ] || exit 1
            shift 2
            exec \(([FlatpakLikeSandbox.bwrap.path] + started).map(Self.shellQuoted).joined(separator: " ")) "$@"

            """
        let flatpak = shims.appendingPathComponent("flatpak")
        try script.write(to: flatpak, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: flatpak.path)

        #expect(try fixture.agent.tocsin("auth", "grant", Self.appID).status == 0)
        let scheduling = try fixture.session.run(
            FlatpakLikeSandbox.bwrap,
            fixture.sandbox.bwrapArguments(running: identity + ["timer-and-exit", "2"], busSocket: try fixture.busSocket, readOnly: readOnly))
        #expect(scheduling.status == 0, "\(scheduling)")
        let alert = try fixture.agent.waitForNotification(titled: "Food Ready!", timeout: .seconds(15)) { $0.urgency == 2 }
        _ = try fixture.session.clickAction(label: "Repeat", onNotification: alert.id)

        let output = fixture.sandbox.appFiles.appendingPathComponent("started.out")
        let performed = fixture.agent.eventually(timeout: 15) {
            ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("RepeatIntent performed for ")
        }
        #expect(performed, "the app started in its sandbox printed: \((try? String(contentsOf: output, encoding: .utf8)) ?? "nothing")\n\(fixture.agent.agentLog)")
        #expect((try? String(contentsOf: calls, encoding: .utf8)) == "run \(Self.appID) --tocsin-intents\n")
        #expect(fixture.agent.agentLog.contains("Starting “\(Self.appID)” (flatpak run \(Self.appID) --tocsin-intents) for the secondary intent of “Food Ready!”."))
        #expect(!fixture.agent.agentLog.contains("Starting “\(Self.appID)” (/"), "no program path the sandboxed app registered was run")
    }

    @Test func hooksFromASandboxAreRefusedAndNeverRunOutsideIt() throws {
        let fixture = try Fixture("sandbox-hooks")
        let marker = fixture.session.directory.appendingPathComponent("escaped")
        let homeMarker = fixture.session.directory.appendingPathComponent("home/escaped")
        // Not yet allowed: refused before the user is even asked.
        let hook = "touch \(marker.path); touch \"$HOME/escaped\""
        let unasked = try fixture.gdbus("Schedule", "{'duration': <1.0>, 'title': <'Escape'>, 'hooks': <{'fire': '\(hook)'}>}")
        #expect(unasked.status != 0)
        #expect(unasked.stderr.contains("io.github.tocsin.Error.NotAuthorized"), "\(unasked.stderr)")
        #expect(unasked.stderr.contains("“org.example.Sandboxed” runs in a Flatpak sandbox, and Tocsin runs no command for a sandboxed app"), "\(unasked.stderr)")
        #expect(fixture.agent.notifications(titled: "Allow “org.example.Sandboxed” to set alarms?").isEmpty, "the user was asked about a request that was refused anyway")

        // Allowed by the user: hooks are still refused, for every event, and nothing is scheduled.
        #expect(try fixture.agent.tocsin("auth", "grant", Self.appID).status == 0)
        for request in [
            "{'duration': <1.0>, 'title': <'Escape'>, 'hooks': <{'fire': '\(hook)'}>}",
            "{'duration': <1.0>, 'title': <'Escape'>, 'button-label': <'Next'>, 'hooks': <{'secondary': '\(hook)'}>}",
            "{'duration': <60.0>, 'title': <'Escape'>, 'hooks': <{'cancel': '\(hook)', 'stop': '\(hook)', 'missed': '\(hook)'}>}",
        ] {
            let refused = try fixture.gdbus("Schedule", request)
            #expect(refused.stderr.contains("io.github.tocsin.Error.NotAuthorized"), "\(request): \(refused)")
            #expect(refused.stderr.contains("act on its events in the app itself"), "\(refused.stderr)")
        }
        #expect(try fixture.agent.alarms().isEmpty)

        // Without hooks it schedules, rings and is stopped; still nothing ran outside.
        let id = try fixture.scheduledID(try fixture.gdbus("Schedule", "{'duration': <1.0>, 'title': <'Tea'>}"))
        _ = try fixture.agent.waitForNotification(titled: "Tea") { $0.urgency == 2 }
        #expect(try fixture.gdbus("Stop", "'\(id)'").status == 0)
        Thread.sleep(forTimeInterval: 1)
        #expect(!FileManager.default.fileExists(atPath: marker.path), "a hook ran outside the sandbox")
        #expect(!FileManager.default.fileExists(atPath: homeMarker.path), "a hook ran outside the sandbox")
    }

    @Test func soundFilesAreReadAsTheSandboxSeesThem() throws {
        let fixture = try Fixture("sandbox-sound")
        #expect(try fixture.agent.tocsin("auth", "grant", Self.appID).status == 0)
        let sox = try HeadlessSession.executable("sox")
        // The user's file, outside the sandbox: a WAV the app must not get played.
        let secret = fixture.session.directory.appendingPathComponent("home/secret.wav")
        try #require(try fixture.session.run(sox, ["-n", "-r", "44100", "-c", "2", "-b", "16", secret.path, "synth", "1", "sine", "440"]).status == 0)
        // The app's own: 0.2 s of tone then 1.8 s of silence, a pattern no theme sound has.
        let own = fixture.sandbox.appFiles.appendingPathComponent("ring.wav")
        try #require(try fixture.session.run(sox, ["-n", "-r", "44100", "-c", "2", "-b", "16", own.path, "synth", "0.2", "sine", "880", "vol", "0.5", "pad", "0", "1.8"]).status == 0)
        try FileManager.default.createSymbolicLink(atPath: fixture.sandbox.appFiles.appendingPathComponent("link.wav").path, withDestinationPath: secret.path)

        for (path, reason) in [
            (secret.path, "“\(secret.path)” does not exist where the application sees files"),
            ("/var/data/link.wav", "“/var/data/link.wav” does not exist where the application sees files"),
            ("/var/data/../..\(secret.path)", "does not exist where the application sees files"),
            // The sandbox's /proc/self is no way out either (whatever it leads to, it is refused).
            ("/proc/self/root\(secret.path)", "The sound file cannot be used:"),
            ("/dev/zero", "is not a regular file"),
        ] {
            let refused = try fixture.gdbus("Schedule", "{'duration': <1.0>, 'sound': <'\(path)'>}")
            #expect(refused.stderr.contains("io.github.tocsin.Error.InvalidArgument"), "\(path): \(refused)")
            #expect(refused.stderr.contains(reason), "\(path): \(refused.stderr)")
        }
        #expect(try fixture.agent.alarms().isEmpty)

        // Its own file, by the path it sees it at, plays — from the agent's copy, after the app
        // (here: the gdbus call) is gone and its file with it.
        let recording = try fixture.session.startRecording()
        let id = try fixture.scheduledID(try fixture.gdbus("Schedule", "{'duration': <2.0>, 'title': <'Own sound'>, 'sound': <'/var/data/ring.wav'>}"))
        try FileManager.default.removeItem(at: own)
        let alarm = try #require(try fixture.agent.alarm(id))
        let copy = try #require(alarm.string("sound"))
        #expect(copy.hasPrefix(fixture.agent.stateDirectory.appendingPathComponent("sounds").path + "/"), "\(copy)")
        let alert = try fixture.agent.waitForNotification(titled: "Own sound") { $0.urgency == 2 }
        _ = fixture.agent.eventually(timeout: 3) { recording.currentTrace().firstLoudWindow(after: alert.receivedAt.addingTimeInterval(-0.5)) != nil }
        Thread.sleep(forTimeInterval: 4.5)
        #expect(try fixture.agent.tocsin("stop", id).status == 0)
        let trace = recording.stop()
        let first = try #require(trace.firstLoudWindow(after: alert.receivedAt.addingTimeInterval(-0.5)), "nothing was heard")
        #expect(trace.rms(from: first, to: first.addingTimeInterval(0.15)) > 0.05, "the tone was not loud")
        #expect(trace.isSilent(from: first.addingTimeInterval(0.4), to: first.addingTimeInterval(1.7)), "not the app's sound: it did not fall silent after 0.2 s")
        #expect(trace.firstLoudWindow(after: first.addingTimeInterval(1.8)) != nil, "the sound did not loop")
        #expect(!fixture.agent.agentLog.contains("ringing the default alarm sound instead"), "\(fixture.agent.agentLog)")
        // Gone with its alarm.
        #expect(fixture.agent.eventually(timeout: 3) { !FileManager.default.fileExists(atPath: copy) }, "the copy outlived its alarm")
    }

    @Test func aSandboxedAppCannotSpeakAsAnotherOrAsTheCommandLine() throws {
        let fixture = try Fixture("sandbox-identity")
        let userTimer = try fixture.agent.startTimer("10m", "--title", "The user's")
        for claimed in ["org.example.Other", "tocsin"] {
            let refused = try fixture.gdbus("IdentifyApplication", "'\(claimed)'")
            #expect(refused.stderr.contains("io.github.tocsin.Error.NotAuthorized"), "\(claimed): \(refused)")
        }
        // The real command line, run inside the sandbox, is the app there, not the user.
        let list = try fixture.tocsinInside("list")
        #expect(list.status == 0, "\(list)")
        #expect(!list.stdout.contains("The user's"), "\(list.stdout)")
        let grant = try fixture.tocsinInside("auth", "grant", Self.appID)
        #expect(grant.status == 1, "\(grant)")
        #expect(grant.stderr.contains("Only the user, through the tocsin command line, may change an application's authorization"), "\(grant.stderr)")
        let cancel = try fixture.tocsinInside("cancel", userTimer)
        #expect(cancel.status == 1, "\(cancel)")
        #expect(try fixture.agent.alarm(userTimer) != nil, "the sandbox cancelled the user's timer")
        #expect(try fixture.agent.tocsin("auth", "list").stdout.contains("\(Self.appID)  authorized") == false)
    }

    @Test func aSandboxThatIsNotFlatpaksIsRefused() throws {
        let fixture = try Fixture("sandbox-unidentified", appID: nil)
        let refused = try fixture.gdbus("List")
        #expect(refused.stderr.contains("io.github.tocsin.Error.NotAuthorized"), "\(refused)")
        #expect(refused.stderr.contains("runs in a sandbox that is not a Flatpak sandbox"), "\(refused.stderr)")
    }

    @Test func anotherAppsAlarmsAreInvisibleInListGetAndSignals() throws {
        let fixture = try Fixture("sandbox-privacy")
        let gdbus = try HeadlessSession.executable("gdbus")
        #expect(try fixture.agent.tocsin("auth", "grant", "gdbus").status == 0)
        #expect(try fixture.agent.tocsin("auth", "grant", Self.appID).status == 0)
        let userTimer = try fixture.agent.startTimer("10m", "--title", "User secret")
        let nativeApp = try fixture.session.run(gdbus, AuthorizationTests.gdbus("Schedule", "{'duration': <600.0>, 'title': <'Native secret'>}"))
        #expect(nativeApp.status == 0, "\(nativeApp)")
        let watch = try fixture.agent.startWatching { try fixture.launchInside([try AgentSession.binary("tocsin").path, "watch", "--json"]) }

        let own = try fixture.scheduledID(try fixture.gdbus("Schedule", "{'duration': <600.0>, 'title': <'Sandboxed own'>}"))
        _ = try fixture.agent.startTimer("10m", "--title", "User later")
        #expect(try fixture.agent.tocsin("cancel", userTimer).status == 0)
        #expect(try fixture.gdbus("Cancel", "'\(own)'").status == 0)

        let list = try fixture.gdbus("List")
        #expect(list.status == 0, "\(list)")
        #expect(!list.stdout.contains("secret") && !list.stdout.contains("User later"), "\(list.stdout)")
        let others = try fixture.agent.alarms().compactMap { $0.string("id") }
        #expect(others.count == 2)
        for id in others {
            let get = try fixture.gdbus("Get", "'\(id)'")
            #expect(get.stderr.contains("io.github.tocsin.Error.NotFound"), "\(get)")
            let cancel = try fixture.gdbus("Cancel", "'\(id)'")
            #expect(cancel.stderr.contains("io.github.tocsin.Error.NotFound"), "\(cancel)")
        }
        #expect(try fixture.agent.alarms().count == 2)
        let status = try fixture.gdbus("GetStatus")
        #expect(status.stdout.contains("'alarm-count': <int64 0>"), "the sandbox was told of others' alarms: \(status.stdout)")
        #expect(!status.stdout.contains("'watchers'"), "the sandbox was told who else watches: \(status.stdout)")
        #expect(try fixture.agent.watcherCount() == 1, "the command line should count the sandbox's tocsin watch")

        #expect(fixture.agent.eventually(timeout: 5) { watch.standardOutput().contains("\"cancelled\"") }, "the sandbox heard nothing of its own alarm: \(watch.standardOutput()) \(watch.standardError())")
        let heard = watch.standardOutput()
        #expect(heard.contains("Sandboxed own"))
        #expect(!heard.contains("secret") && !heard.contains("User later"), "the sandbox heard of others' alarms: \(heard)")
        watch.terminate()
    }

    @Test func theConsentPromptSaysWhatIsGrantedAndAuthListShowsTheSandbox() throws {
        let fixture = try Fixture("sandbox-consent")
        let waiting = try fixture.launchInside(["/usr/bin/gdbus"] + AuthorizationTests.gdbus("Schedule", "{'duration': <600.0>, 'title': <'Asked'>}"))
        let question = try fixture.agent.waitForNotification(titled: "Allow “org.example.Sandboxed” to set alarms?", timeout: .seconds(5))
        #expect(question.body.contains("up to 100 alarms and timers that ring with sound even during Do Not Disturb"), "\(question.body)")
        #expect(question.body.contains("It runs in a Flatpak sandbox: Tocsin runs no commands for it"), "\(question.body)")
        try fixture.session.clickAction(label: "Allow", onNotification: question.id)
        #expect(waiting.waitForExit(timeout: .seconds(5)) == 0, "\(waiting.standardError())")

        let gdbus = try HeadlessSession.executable("gdbus")
        let native = try fixture.session.launch(gdbus, AuthorizationTests.gdbus("RequestAuthorization"))
        let nativeQuestion = try fixture.agent.waitForNotification(titled: "Allow “gdbus” to set alarms?", timeout: .seconds(5))
        #expect(nativeQuestion.body.contains("It is not sandboxed: like any program you run, it has your rights, and its alarms may run commands."), "\(nativeQuestion.body)")
        try fixture.session.clickAction(label: "Don’t Allow", onNotification: nativeQuestion.id)
        #expect(native.waitForExit(timeout: .seconds(5)) == 0)

        let list = try fixture.agent.tocsin("auth", "list")
        #expect(list.stdout.contains("org.example.Sandboxed  authorized  Flatpak sandbox  1 alarm\n"), "\(list.stdout)")
        #expect(list.stdout.contains("gdbus  denied  not sandboxed  0 alarms\n"), "\(list.stdout)")
        // Known after a restart too.
        fixture.agent.agent.kill(signal: SIGTERM)
        _ = fixture.agent.agent.waitForExit(timeout: .seconds(5))
        try fixture.agent.restartAgent()
        #expect(try fixture.agent.tocsin("auth", "list").stdout.contains("org.example.Sandboxed  authorized  Flatpak sandbox  1 alarm\n"))
    }

    @Test func anAppsAlarmSavedBeforeTocsinRecordedItsSandboxRunsNoHooks() throws {
        let fixture = try AgentSession("legacy-app-hooks")
        let gdbus = try HeadlessSession.executable("gdbus")
        #expect(try fixture.tocsin("auth", "grant", "gdbus").status == 0)
        let marker = fixture.session.directory.appendingPathComponent("hook-ran")
        let scheduled = try fixture.session.run(gdbus, AuthorizationTests.gdbus("Schedule", "{'duration': <4.0>, 'title': <'Old'>, 'hooks': <{'fire': 'touch \(marker.path)'}>}"))
        #expect(scheduled.status == 0, "\(scheduled)")
        // Saved as an earlier Tocsin saved it: without where the app ran.
        fixture.agent.kill(signal: SIGTERM)
        _ = fixture.agent.waitForExit(timeout: .seconds(5))
        let snapshot = fixture.stateDirectory.appendingPathComponent("alarms.json")
        let saved = try String(contentsOf: snapshot, encoding: .utf8)
        try #require(saved.contains("\"appConfinement\":\"unconfined\","), "\(saved)")
        try saved.replacingOccurrences(of: "\"appConfinement\":\"unconfined\",", with: "").write(to: snapshot, atomically: true, encoding: .utf8)
        try fixture.restartAgent()
        _ = try fixture.waitForNotification(titled: "Old") { $0.urgency == 2 }
        Thread.sleep(forTimeInterval: 1)
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the hook of an alarm of unknown origin ran")
        #expect(fixture.agentLog.contains("1 alarm(s) of applications were saved before Tocsin recorded whether the application runs in a sandbox; their hooks will not run"), "\(fixture.agentLog)")
        #expect(fixture.agentLog.contains("Not running the fire hook of “Old”: gdbus scheduled it before Tocsin recorded whether it runs in a sandbox"), "\(fixture.agentLog)")
        #expect(try fixture.tocsin("stop").status == 0)
    }
}
