import BusTestSupport
import CGLib
import Foundation
import Testing
import TocsinCore
@testable import TocsinAgent
import TocsinFiles

/// The whole agent, in-process: a RunningAgent with recording parts and a clock moved by hand.
/// The decider decides, the agent carries out, the parts record — so what a user would get is
/// checked here without a bus, a desktop or a wait, and the integration tests check the real parts.
@Suite(.serialized) struct RunningAgentTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    final class Fixture {
        let clock = ManualClock(RunningAgentTests.t0)
        let notifications = RecordingNotifications()
        let sounds = RecordingSounds()
        let hooks: AlarmHooksRunning
        let recordedHooks = RecordingHooks()
        let signals = RecordingSignals()
        let appIntents = RecordingAppIntents()
        let tray: RecordingTray
        let phones = RecordingPhones()
        let player = RecordingPlayer()
        let lockScreen = RecordingLockScreen()
        let display = RecordingDisplay()
        let deadline = RecordingTimer()
        let wake = RecordingTimer()
        let logLines = LogLines()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-running-\(UUID())")
        let agent: RunningAgent

        /// A started agent in zone `zone`; `hooks`, given the agent's log, makes a hook runner in
        /// place of the recording one.
        init(zone: TimeZoneRules = .utc, hooks: ((AgentLog) -> AlarmHooksRunning)? = nil, trayHosted: Bool = false,
             authorizations: AppAuthorizations = AppAuthorizations(),
             credentials: @escaping (String) -> PeerCredentials? = { _ in nil }) throws {
            tray = RecordingTray(hosted: trayHosted)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            self.hooks = hooks?(logLines.log) ?? recordedHooks
            var configuration = AgentConfiguration(stateDirectory: directory, log: logLines.log)
            configuration.alarmsPerApplication = 100
            agent = RunningAgent(
                configuration: configuration, store: AlarmPersistence(directory: directory), book: AlarmBook(timeZone: zone),
                authorizations: authorizations, authorizationStore: nil, soundCopies: SandboxedSoundCopies(stateDirectory: directory),
                parts: RunningAgent.Parts(
                    clock: clock, notifications: notifications, sounds: sounds, hooks: self.hooks, appIntents: appIntents, signals: signals, tray: tray, phones: phones, player: player,
                    lockScreen: lockScreen, display: display, deadline: deadline, wake: wake, wakeAvailability: .available, server: QuietServer(),
                    callers: CallerIdentifier(credentials: credentials)))
            // A panel that is there from the start tells the agent so, as TrayItem does when it finds one.
            if trayHosted { agent.run(.panelChanged(isShown: true)) }
            agent.run(.started(in: zone))
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// Schedules `request` as the command line would; returns the id.
        @discardableResult
        func schedule(_ request: AlarmRequest) throws -> UUID {
            let id = UUID()
            try agent.make(.schedule(request, id: id, owner: nil, confinement: .unconfined, ownerLimit: nil), by: .press)
            return id
        }

        /// What the agent answers `sender` for the D-Bus call `call` (answered at once here: the
        /// callers it is used with are already allowed).
        /// The answer to `call`: at once, or (a sound file looked at off the main loop) once the
        /// test's main context has had it, within 5 s.
        func answer(_ call: AlarmsCall, from sender: String) -> Result<AlarmsReply, TocsinError>? {
            var answer: Result<AlarmsReply, TocsinError>?
            withOwnMainContext { context in
                agent.handle(call, from: sender) { answer = $0 }
                _ = runMainContext(context, for: 5) { answer != nil }
            }
            return answer
        }

        /// Performs `intent` on `id` as the user's press of a button would.
        func perform(_ intent: AlarmIntent, on id: UUID) throws {
            try agent.make(.perform(intent, on: id), by: .press)
        }

        /// Moves the clock to `seconds` after t0 and lets the agent wake as its timer would.
        func advance(to seconds: TimeInterval) {
            clock.now = RunningAgentTests.t0.addingTimeInterval(seconds)
            agent.run(.timePassed)
        }

        /// Lets the agent wake at every instant it arms its timer for, up to `seconds` after t0
        /// (each whole second while a countdown shows): what a running agent does.
        func run(until seconds: TimeInterval) {
            let end = RunningAgentTests.t0.addingTimeInterval(seconds)
            while let next = deadline.next, next <= end {
                clock.now = max(clock.now, next)
                agent.run(.timePassed)
            }
            clock.now = end
            agent.run(.timePassed)
        }

        func at(_ seconds: TimeInterval) -> Date { RunningAgentTests.t0.addingTimeInterval(seconds) }
    }

    @Test func aTimerCountsDownEverySecondThenRingsWithItsHook() throws {
        let fixture = try Fixture()
        let id = try fixture.schedule(AlarmRequest(title: "Tea", duration: 5, hooks: AlarmHooks([.fire: "echo tea"])))
        #expect(fixture.notifications.onScreen[id]?.body.hasPrefix("0:05 remaining") == true)
        #expect(fixture.deadline.next == fixture.at(1), "the next whole second, for the countdown")
        fixture.run(until: 4.5)
        let ticks = fixture.notifications.shown.filter { $0.id == id && $0.isTick }.map { $0.content.body.prefix(4) }
        #expect(ticks == ["0:04", "0:03", "0:02", "0:01"], "\(ticks)")
        #expect(fixture.sounds.rings.isEmpty)
        fixture.run(until: 5)
        #expect(fixture.sounds.ringingAlarms == [id])
        #expect(fixture.signals.kinds(of: id) == [.scheduled, .fired])
        #expect(fixture.notifications.onScreen[id]?.urgency == .critical)
        #expect(fixture.recordedHooks.runs.map(\.command) == ["echo tea"])
        #expect(fixture.recordedHooks.runs.first?.fireTime == fixture.at(5))
        // Ringing: no more per-second wake-ups, only the display's every 10 s (before the ring limit).
        #expect(fixture.deadline.next == fixture.at(5 + AgentState.displayWakeInterval))
        try fixture.notifications.press("Stop", on: id)
        #expect(fixture.sounds.ringingAlarms.isEmpty)
        #expect(fixture.notifications.onScreen[id] == nil)
        #expect(fixture.signals.kinds(of: id) == [.scheduled, .fired, .stopped])
        #expect(fixture.deadline.next == nil, "nothing left to wake for")
    }

    @Test func theMediaPlayerShowsWhatRingsAndItsControlsStopOrSnoozeIt() throws {
        let fixture = try Fixture()
        let tea = try fixture.schedule(AlarmRequest(title: "Tea", duration: 5, snoozeDuration: 60))
        let eggs = try fixture.schedule(AlarmRequest(title: "Eggs", duration: 6))
        #expect(fixture.player.shown.isEmpty, "nothing rings: no player")
        fixture.run(until: 6)
        #expect(fixture.player.shown.map { $0?.title } == ["Tea"], "the one ringing longest, shown once")
        fixture.player.press(.playPause)
        #expect(fixture.agent.book[tea] == nil && fixture.player.current?.title == "Eggs", "Play/Pause stopped Tea; Eggs shows")
        #expect(fixture.player.current?.canGoNext == false)
        fixture.player.press(.next)
        #expect(fixture.agent.book[eggs]?.state.name == .alerting, "Eggs has no second button: Next does nothing")
        fixture.player.press(.stop)
        #expect(fixture.agent.book[eggs] == nil && fixture.player.shown.last == .some(nil), "the last Stop: the player goes")
        #expect(fixture.sounds.ringingAlarms.isEmpty)

        let bread = try fixture.schedule(AlarmRequest(title: "Bread", duration: 1, snoozeDuration: 60))
        fixture.run(until: 8)
        fixture.player.press(.next)
        #expect(fixture.agent.book[bread]?.state.name == .countdown && fixture.agent.book[bread]?.snoozes == 1, "Next snoozed it")
        #expect(fixture.player.current == nil && fixture.sounds.ringingAlarms.isEmpty)
    }

    @Test func theLockScreenShowsWhatRingsAndCountsAndItsButtonsAct() throws {
        let fixture = try Fixture()
        let tea = try fixture.schedule(AlarmRequest(title: "Tea", duration: 5, snoozeDuration: 60))
        _ = try fixture.schedule(AlarmRequest(title: "Eggs", duration: 600))
        #expect(fixture.lockScreen.current?.entries.map(\.title) == ["Tea", "Eggs"], "the soonest end first")
        let shownBeforeTicks = fixture.lockScreen.shown.count
        fixture.run(until: 3)
        #expect(fixture.lockScreen.shown.count == shownBeforeTicks, "the seconds are counted on the lock screen, not sent")
        fixture.run(until: 5)
        #expect(fixture.lockScreen.current?.entries.map(\.title) == ["Tea", "Eggs"])
        #expect(fixture.lockScreen.current?.entries.first?.buttons.map(\.label) == ["Stop", "Snooze"])
        #expect(fixture.display.calls == ["hold", "wake"], "woken and held as it starts ringing")
        fixture.run(until: 25)
        #expect(fixture.display.calls == ["hold", "wake", "wake", "wake"], "woken again every 10 s while it rings")
        #expect(fixture.lockScreen.press("Snooze", on: "Tea"))
        #expect(fixture.agent.book[tea]?.snoozes == 1 && fixture.sounds.ringingAlarms.isEmpty, "snoozed from the lock screen")
        #expect(fixture.display.calls.last == "release", "let go once nothing rings")
        fixture.run(until: 86)
        #expect(fixture.sounds.ringingAlarms == [tea], "the snooze rang again")
        #expect(fixture.lockScreen.press("Stop", on: "Tea"))
        #expect(fixture.agent.book[tea] == nil && fixture.sounds.ringingAlarms.isEmpty, "stopped from the lock screen")
        #expect(fixture.display.calls == ["hold", "wake", "wake", "wake", "release", "hold", "wake", "release"], "\(fixture.display.calls)")
        #expect(fixture.lockScreen.current?.entries.map(\.title) == ["Eggs"])
        #expect(!fixture.lockScreen.press("Stop", on: "Eggs"), "a countdown shows no Stop")
    }

    @Test func hiddenTitlesReachTheLockScreenThePlayerAndTheNotificationsHint() throws {
        let fixture = try Fixture()
        let tea = try fixture.schedule(AlarmRequest(title: "Flight to Oslo", duration: 2))
        #expect(fixture.notifications.onScreen[tea]?.showsOnLockScreen == true, "titles show by default")
        fixture.agent.run(.lockScreenSettingsChanged(LockScreenSettings(showsTitles: false)))
        #expect(fixture.lockScreen.current?.entries.map(\.title) == ["Timer"])
        #expect(fixture.notifications.onScreen[tea]?.showsOnLockScreen == false, "shown again without GNOME's privacy hint")
        #expect(fixture.notifications.onScreen[tea]?.summary == "Flight to Oslo", "the notification itself keeps its title")
        fixture.run(until: 2)
        #expect(fixture.player.current?.title == "Timer")
        fixture.agent.run(.lockScreenSettingsChanged(.standard))
        #expect(fixture.player.current?.title == "Flight to Oslo" && fixture.lockScreen.current?.entries.first?.title == "Flight to Oslo")
        #expect(fixture.notifications.onScreen[tea]?.showsOnLockScreen == true)
    }

    @Test func theTrayFollowsTheCountdownEachSecondAndItsClicksActLikeButtons() throws {
        let fixture = try Fixture(trayHosted: true)
        #expect(fixture.tray.current == nil, "nothing runs: no item")
        let id = try fixture.schedule(AlarmRequest(title: "Pasta", duration: 3))
        #expect(fixture.tray.current?.label == "Pasta 0:03")
        // The user closes the countdown's notification: the tray still ticks each second.
        fixture.notifications.onDismissed(id)
        #expect(fixture.deadline.next == RunningAgentTests.t0.addingTimeInterval(1))
        fixture.advance(to: 1.004)
        #expect(fixture.tray.current?.label == "Pasta 0:02", "as at the whole second")
        fixture.advance(to: 3)
        #expect(fixture.tray.current?.label == "Pasta ringing" && fixture.tray.current?.itemIsMenu == false)
        fixture.tray.onAction(.stopAllRinging)
        #expect(fixture.agent.book[id] == nil && fixture.tray.current == nil, "stopped and gone")

        fixture.tray.onAction(.newTimer(300))
        let timer = try #require(fixture.agent.book.alarms.first)
        #expect(timer.countdownDuration == 300 && timer.appID == nil, "the user's own timer")
        fixture.tray.onAction(.intent(.pause, timer.id))
        #expect(fixture.agent.book[timer.id]?.state.name == .paused && fixture.tray.current?.label == "Timer 5:00 paused")
        #expect(fixture.signals.events.last?.kind == .paused)
    }

    @Test func aPanelThatComesOrGoesKeepsEveryTimerArmed() throws {
        // The tray's host news comes after alarms were set (the agent starts with none, and
        // learns whether a panel exists a moment later): it must arm from the book as it is now.
        let fixture = try Fixture()
        let timer = try fixture.schedule(AlarmRequest(title: "Pasta", duration: 3))
        fixture.notifications.onDismissed(timer)
        #expect(fixture.deadline.next == fixture.at(3), "no notification, no panel: only the end")
        fixture.tray.isHosted = true
        fixture.tray.onHostChange()
        #expect(fixture.deadline.next == fixture.at(1), "a panel shows the countdown: the next whole second")
        #expect(fixture.tray.current?.label == "Pasta 0:03")
        fixture.tray.isHosted = false
        fixture.tray.onHostChange()
        #expect(fixture.deadline.next == fixture.at(3), "the panel went: the end still")
        fixture.run(until: 3)
        #expect(fixture.sounds.ringingAlarms == [timer])
    }

    @Test func aNotificationTheServerClosedRightAfterAPressIsShownAgain() throws {
        // xfce4-notifyd closes a notification after each press; the alarm, set after the agent
        // started, is shown again as it is now (paused, with Resume).
        let fixture = try Fixture()
        let timer = try fixture.schedule(AlarmRequest(title: "Pasta", duration: 60))
        try fixture.notifications.press("Pause", on: timer)
        let shownBefore = fixture.notifications.shown.count
        fixture.notifications.onClosedAfterButton(timer)
        #expect(fixture.notifications.shown.count == shownBefore + 1, "not shown again")
        #expect(fixture.notifications.onScreen[timer]?.actions.map(\.label).contains("Resume") == true)
    }

    @Test func aCountdownWhoseBannerGnomeLetGoIsShownAgainAsItIsNowAndGoesOnTicking() throws {
        // GNOME Shell 48 destroys a countdown's transient first showing with its banner: the
        // countdown is shown anew (the worker makes it a quiet notification) and keeps ticking;
        // a paused one is shown paused.
        let fixture = try Fixture()
        let timer = try fixture.schedule(AlarmRequest(title: "Pasta", duration: 60))
        fixture.run(until: 5)
        let shownBefore = fixture.notifications.shown.count
        fixture.notifications.onBannerGone(timer)
        #expect(fixture.notifications.shown.count == shownBefore + 1, "not shown again")
        #expect(fixture.notifications.onScreen[timer]?.body.contains("0:55") == true, "\(String(describing: fixture.notifications.onScreen[timer]))")
        fixture.run(until: 7)
        #expect(fixture.notifications.onScreen[timer]?.body.contains("0:53") == true, "it stopped ticking")
        try fixture.notifications.press("Pause", on: timer)
        fixture.notifications.onBannerGone(timer)
        #expect(fixture.notifications.onScreen[timer]?.role == .paused)
        let other = UUID()
        fixture.notifications.onBannerGone(other)
        #expect(fixture.notifications.onScreen[other] == nil, "not an alarm's: nothing to show")
    }

    @Test func aNotificationClosedOnAPressLostToAnUpdateIsShownAgainAndSaysSo() throws {
        // xfce4-notifyd rebuilt the countdown's buttons under a press and closed it as dismissed:
        // the countdown is shown again (a dismissal would hide it for good) and it goes on ticking.
        let fixture = try Fixture()
        fixture.notifications.serverProfile = NotificationServerProfile(
            for: NotificationServerIdentity(name: "Xfce Notify Daemon", vendor: "Xfce", version: "0.7.3", capabilities: ["actions"]))
        let timer = try fixture.schedule(AlarmRequest(title: "Pasta", duration: 60))
        let shownBefore = fixture.notifications.shown.count
        fixture.notifications.onPressLostToUpdate(timer)
        #expect(fixture.notifications.shown.count == shownBefore + 1, "not shown again")
        #expect(fixture.notifications.onScreen[timer]?.actions.map(\.label).contains("Pause") == true)
        #expect(fixture.logLines.all.contains {
            $0.contains("xfce4-notifyd closed the notification of “Pasta” as it redrew its buttons, most likely under a press that it lost")
        })
        fixture.run(until: 2)
        #expect(fixture.notifications.shown.count > shownBefore + 1, "its countdown stopped ticking")

        // The same closing for a notification that is no alarm's changes nothing.
        fixture.notifications.onPressLostToUpdate(UUID())
        #expect(fixture.agent.book[timer]?.state.name == .countdown)
    }

    @Test func anUnansweredAlarmRingsThePhonesAfterTheDelayAndAnAnsweredOneNever() throws {
        let fixture = try Fixture()
        fixture.agent.run(.phoneSettingsChanged(PhoneRingSettings(isEnabled: true, delay: 30)))
        #expect(fixture.logLines.all.contains { $0.contains("Alarms ring the paired phones after 30 s unanswered.") })
        let tea = try fixture.schedule(AlarmRequest(title: "Tea", duration: 5, hooks: AlarmHooks([.phone: "echo phoned"])))
        fixture.run(until: 34.9)
        #expect(fixture.sounds.ringingAlarms == [tea] && fixture.phones.rungFor.isEmpty)
        fixture.run(until: 36)
        #expect(fixture.phones.rungFor == [tea], "rung when its 30 s at the desk were up")
        #expect(fixture.recordedHooks.runs.map(\.command) == ["echo phoned"], "its phone hook")
        try fixture.notifications.press("Stop", on: tea)

        let bread = try fixture.schedule(AlarmRequest(title: "Bread", duration: 5))
        fixture.run(until: 36 + 5 + 10)
        try fixture.notifications.press("Stop", on: bread)
        fixture.run(until: 36 + 5 + 60)
        #expect(fixture.phones.rungFor == [tea], "Bread was stopped at the desk in time")
    }

    @Test func anAppsSoundTheAgentCannotPlayRingsAsTheStandardOneWhenTheRequestAsksSoAndIsRefusedOtherwise() throws {
        let appID = "org.example.Clock"
        let fixture = try Fixture(authorizations: AppAuthorizations([appID: .authorized]),
                                  credentials: { _ in PeerCredentials(processID: getpid(), userID: getuid()) })
        try fixture.agent.callers.declare(appID, for: ":1.7")
        let missing = AlarmSound.themeEvent("no-such-sound-\(UUID().uuidString.prefix(8))")
        var request = AlarmRequest(title: "Tea", duration: 60, sound: missing)

        guard case .failure(let refusal)? = fixture.answer(.schedule(request), from: ":1.7") else {
            Issue.record("a sound no theme has was accepted without soundFallback")
            return
        }
        #expect(refusal.name == .invalidArgument)
        #expect(refusal.message.hasPrefix("No installed sound theme has the sound “\(missing.description)”"))

        request.soundFallback = true
        guard case .success(.id(let id))? = fixture.answer(.schedule(request), from: ":1.7") else {
            Issue.record("a request asking for the fallback was not scheduled")
            return
        }
        #expect(fixture.agent.book[id]?.sound == .standard)
        #expect(fixture.logLines.all.contains { $0.contains("“Tea” of “\(appID)” will ring with the standard sound: No installed sound theme has the sound “\(missing.description)”") },
                "\(fixture.logLines.all)")

        request.sound = .file("/nonexistent/tocsin-ring.wav")
        guard case .success(.id(let second))? = fixture.answer(.schedule(request), from: ":1.7") else {
            Issue.record("a missing sound file was not replaced")
            return
        }
        #expect(fixture.agent.book[second]?.sound == .standard)
    }

    @Test func snoozeCountsDownAgainAndRingsAgain() throws {
        let fixture = try Fixture()
        let id = try fixture.schedule(AlarmRequest(title: "Nap", duration: 10, snoozeDuration: 60))
        fixture.run(until: 10)
        try fixture.notifications.press("Snooze", on: id)
        #expect(fixture.sounds.silenced == [id])
        #expect(fixture.notifications.onScreen[id]?.body.hasPrefix("Snoozed: 1:00 remaining") == true, "\(String(describing: fixture.notifications.onScreen[id]))")
        fixture.run(until: 69.5)
        #expect(fixture.sounds.rings.count == 1)
        fixture.run(until: 70)
        #expect(fixture.sounds.rings.count == 2)
        #expect(fixture.signals.kinds(of: id) == [.scheduled, .fired, .snoozed, .fired])
    }

    @Test func pausedKeepsItsRemainingTimeAndCostsNoWakeUps() throws {
        let fixture = try Fixture()
        let id = try fixture.schedule(AlarmRequest(title: "Bread", duration: 60))
        fixture.run(until: 20)
        try fixture.notifications.press("Pause", on: id)
        #expect(fixture.notifications.onScreen[id]?.actions.map(\.label).contains("Resume") == true)
        #expect(fixture.deadline.next == nil, "a paused countdown needs no wake-up")
        fixture.advance(to: 500)
        #expect(fixture.sounds.rings.isEmpty)
        try fixture.notifications.press("Resume", on: id)
        #expect(fixture.notifications.onScreen[id]?.body.hasPrefix("0:40 remaining") == true)
        fixture.run(until: 539.5)
        #expect(fixture.sounds.rings.isEmpty)
        fixture.run(until: 540)
        #expect(fixture.sounds.ringingAlarms == [id])
    }

    @Test func aRingNobodyAnswersEndsAtItsLimitWithANotice() throws {
        let fixture = try Fixture()
        let id = try fixture.schedule(AlarmRequest(title: "Oven", duration: 1, ringLimit: 30))
        fixture.run(until: 1)
        #expect(fixture.sounds.ringingAlarms == [id])
        fixture.run(until: 31)
        #expect(fixture.sounds.ringingAlarms.isEmpty)
        #expect(fixture.signals.kinds(of: id) == [.scheduled, .fired, .unacknowledged])
        #expect(fixture.notifications.notices.map(\.summary) == ["Not acknowledged: Oven"])
        #expect(fixture.notifications.onScreen[id] == nil)
    }

    @Test func anAlarmDueWhileTheMachineSleptBeyondItsLateLimitIsMissedNotRung() throws {
        let fixture = try Fixture()
        let id = try fixture.schedule(AlarmRequest(kind: .alarm, schedule: .fixed(fixture.at(100)), title: "Meeting", duration: 0, lateLimit: 60))
        #expect(fixture.wake.next == fixture.at(100), "a suspended machine wakes for an alarm")
        // The machine slept through it: the agent wakes 300 s late.
        fixture.advance(to: 400)
        #expect(fixture.sounds.rings.isEmpty)
        #expect(fixture.signals.kinds(of: id) == [.scheduled, .missed])
        #expect(fixture.notifications.notices.first?.summary.hasPrefix("Missed: Meeting") == true)
        #expect(fixture.logLines.all.contains { $0.contains("“Meeting” was missed") })
    }

    @Test func aLocalTimeFollowsTheZoneAndAnInstantDoesNot() throws {
        let fixture = try Fixture()
        // 2027-01-15 08:00 UTC is t0: a daily 09:00 in UTC is an hour away.
        let local = try fixture.schedule(AlarmRequest(kind: .alarm, schedule: .timeOfDay(try TimeOfDay(hour: 9), weekdays: Weekday.everyDay), title: "Local", duration: 0))
        let fixed = try fixture.schedule(AlarmRequest(kind: .alarm, schedule: .fixed(fixture.at(7200)), title: "Fixed", duration: 0))
        #expect(fixture.deadline.next == fixture.at(3600))
        let tokyo = try #require(TimeZoneRules(identifier: "Asia/Tokyo"))
        fixture.agent.run(.timeZoneChanged(tokyo))
        // It is 17:00 in Tokyo (UTC+9): today's 09:00 is over, the next is 00:00 UTC tomorrow, 16 h after t0.
        #expect(fixture.signals.kinds(of: local) == [.scheduled, .rescheduled])
        #expect(fixture.signals.kinds(of: fixed) == [.scheduled])
        #expect(fixture.agent.book[local]?.fireDate == fixture.at(16 * 3600))
        #expect(fixture.deadline.next == fixture.at(7200))
    }

    @Test func aClockSetForwardMovesTimersButNotAlarms() throws {
        let fixture = try Fixture()
        let timer = try fixture.schedule(AlarmRequest(title: "Timer", duration: 600))
        let alarm = try fixture.schedule(AlarmRequest(kind: .alarm, schedule: .fixed(fixture.at(3600)), title: "Alarm", duration: 0))
        fixture.run(until: 10)
        // Someone sets the clock 30 s ahead.
        fixture.clock.now = fixture.clock.now.addingTimeInterval(30)
        fixture.agent.run(.clockSet(by: 30))
        #expect(fixture.agent.book[timer]?.fireDate == fixture.at(630))
        #expect(fixture.agent.book[alarm]?.fireDate == fixture.at(3600))
        #expect(fixture.sounds.rings.isEmpty)
        #expect(fixture.notifications.onScreen[timer]?.body.hasPrefix("9:50 remaining") == true, "\(String(describing: fixture.notifications.onScreen[timer]?.body))")
    }

    @Test func twoAlarmsRingAtOnceAndStopOneByOne() throws {
        let fixture = try Fixture()
        let first = try fixture.schedule(AlarmRequest(title: "One", duration: 3))
        let second = try fixture.schedule(AlarmRequest(title: "Two", duration: 3))
        fixture.run(until: 3)
        #expect(Set(fixture.sounds.ringingAlarms) == [first, second])
        try fixture.perform(.stop, on: first)
        #expect(fixture.sounds.ringingAlarms == [second])
        #expect(fixture.notifications.onScreen[second]?.urgency == .critical)
        try fixture.notifications.press("Stop", on: second)
        #expect(fixture.sounds.ringingAlarms.isEmpty)
    }

    @Test func anIntentInTheWrongStateIsRefusedAndChangesNothing() throws {
        let fixture = try Fixture()
        let id = try fixture.schedule(AlarmRequest(title: "Tea", duration: 60))
        let before = fixture.signals.events.count
        #expect(throws: TocsinError.self) { try fixture.perform(.stop, on: id) }
        #expect(fixture.signals.events.count == before)
        #expect(fixture.agent.book[id]?.state.name == .countdown)
    }

    @Test func aHookThatNeverEndsIsKilledAndTheAgentGoesOn() throws {
        // The real runner with a short limit: its child watch and timer run on the default context.
        let fixture = try Fixture(hooks: { log in HookRunner(log: log, timeLimit: 0.3) })
        let id = try fixture.schedule(AlarmRequest(title: "Forever", duration: 1, hooks: AlarmHooks([.fire: "exec sleep 30"])))
        fixture.run(until: 1)
        #expect(fixture.sounds.ringingAlarms == [id])
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !fixture.logLines.all.contains(where: { $0.contains("ran longer than") }) {
            while g_main_context_iteration(nil, 0) != 0 {}
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(fixture.logLines.all.contains { $0.contains("The fire hook of “Forever” ran longer than") && $0.contains("was killed") }, "\(fixture.logLines.all)")
        // The agent still answers and acts.
        try fixture.notifications.press("Stop", on: id)
        #expect(fixture.sounds.ringingAlarms.isEmpty)
    }
}
