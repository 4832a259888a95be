import Foundation
import Testing
@testable import TocsinCore
import HeadlessSession
import TocsinFiles
import TocsinTestSupport

// AlarmDecider.swift: random walks of inputs, checked after every step against what must always
// hold, whatever the order of things.
@Suite("Alarm decider: random walks")
struct AlarmDeciderWalkTests {
    /// One walk: the state driven by random inputs, and what the outside world saw of it — the
    /// sound playing, what was saved, every due time that rang or was missed.
    struct Walk {
        var run: DeciderRun
        var generator: SplitMix
        var seconds: TimeInterval = 0
        /// The alarms ringing aloud, as the `.ring` and `.silence` effects left them.
        var sounding: Set<UUID> = []
        /// What the media player shows, as the `.showPlayer` effects left it.
        var player: RingingPlayerContent?
        /// What the lock screen shows, as the `.showLockScreen` effects left it.
        var lockScreen: LockScreenContent?
        /// Whether the display is held awake, as the `.holdDisplayAwake` effects left it.
        var displayHeld = false
        /// What is on disk, as the `.save`, `.commit` and `.saveAll` effects left it.
        var saved: [UUID: Alarm] = [:]
        var savedZone: String
        /// Every (alarm, due time) that rang or was missed.
        var dueTimesHandled: Set<String> = []
        /// Alarms removed (stopped, cancelled, missed…): they must never ring again.
        var removed: Set<UUID> = []
        /// The wall-clock timer as last armed.
        var armed: Date?
        var phoneSettings = PhoneRingSettings.off
        /// The settings for raising the output, as the agent was last told them.
        var outputSettings = OutputRaiseSettings.standard
        /// What a locked screen may show, as the agent was last told.
        var lockScreenSettings = LockScreenSettings.standard
        /// Whether Plasma's lock screen is up (the player then waits there between rings).
        var plasmaLocked = false
        /// The sound server as the walk plays it: the default output's levels as they are, as
        /// its user last set them, whether the server answers, and the restore record on disk.
        var output = OutputLevels(channelVolumes: [OutputLevels.volume(percent: 3), OutputLevels.volume(percent: 3)], isMuted: true)
        var userOutput = OutputLevels(channelVolumes: [OutputLevels.volume(percent: 3), OutputLevels.volume(percent: 3)], isMuted: true)
        var serverUp = true
        var savedOutputRecord: OutputRecord?
        /// How many times the decider raised the output.
        var raises = 0
        var nextID = 100
        var zones: [TimeZoneRules] = [.utc, Fixture.zone("Asia/Tokyo"), Fixture.zone("America/New_York"), Fixture.zone("Europe/Paris")]
        var zone = TimeZoneRules.utc
        /// What happened, for the message of a failed check.
        var trail: [String] = []

        init(seed: UInt64) throws {
            generator = SplitMix(seed: seed)
            run = try DeciderRun()
            // DeciderRun started the agent without the walk: what that gave the lock screen (nothing on it).
            lockScreen = run.state.screen.lockScreen
            savedZone = run.book.timeZone.identifier
            for _ in 0..<Int.random(in: 2...6, using: &generator) { try schedule() }
        }

        mutating func random(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
        mutating func chance(_ percent: Int) -> Bool { random(1...100) <= percent }

        /// A new alarm of a random kind: a timer, a fixed-date alarm, a local time (once or on
        /// weekdays), with or without a pre-alert, a snooze, a custom button, a short late limit.
        mutating func randomRequest() throws -> AlarmRequest {
            let snooze: TimeInterval? = chance(60) ? Double(random(5...300)) : nil
            let label: String? = snooze == nil && chance(40) ? "Next step" : nil
            let ringLimit = Double(random(5...900)), lateLimit = Double(random(30...900))
            switch random(0...3) {
            case 0:
                return AlarmRequest(title: "Timer", duration: Double(random(1...600)), snoozeDuration: snooze, secondaryButtonLabel: label,
                                    ringLimit: ringLimit, lateLimit: lateLimit)
            case 1:
                return AlarmRequest(kind: .alarm, schedule: .fixed(at(seconds + Double(random(1...7200)))), title: "Fixed",
                                    duration: chance(50) ? Double(random(1...600)) : 0, snoozeDuration: snooze, secondaryButtonLabel: label,
                                    ringLimit: ringLimit, lateLimit: lateLimit)
            default:
                let weekdays: Set<Weekday> = chance(50) ? [] : Set(Weekday.allCases.filter { _ in chance(60) })
                let time = try TimeOfDay(hour: random(0...23), minute: random(0...59))
                return AlarmRequest(kind: .alarm, schedule: .timeOfDay(time, weekdays: weekdays), title: weekdays.isEmpty ? "Once" : "Weekly",
                                    duration: chance(50) ? Double(random(1...600)) : 0, snoozeDuration: snooze, secondaryButtonLabel: label,
                                    ringLimit: ringLimit, lateLimit: lateLimit)
            }
        }

        /// An alarm's own choice of raising the output; its levels, like the settings', are never
        /// one the user sets by hand in a walk (see the user's hand below).
        mutating func randomOutputRaise() -> OutputRaiseChoice? {
            switch random(1...100) {
            case 1...60: nil
            case 61...75: .never
            case 76...85: .raise(toPercent: nil)
            default: .raise(toPercent: random(61...79))
            }
        }

        mutating func schedule() throws {
            nextID += 1
            var request = try randomRequest()
            request.outputRaise = randomOutputRaise()
            let change = AlarmChange.schedule(request, id: fixedID(nextID), owner: nil, confinement: .unconfined, ownerLimit: nil)
            try step("schedule \(nextID)", .asked(change, by: .press))
        }

        /// One random input.
        mutating func randomStep() throws {
            let alarms = run.book.alarms
            let some = alarms.isEmpty ? fixedID(999) : alarms[random(0...(alarms.count - 1))].id
            switch random(0...118) {
            case 0..<35:
                // Mostly as the agent's timer wakes it; now and then after a sleep.
                let target = chance(85) ? (armed ?? at(seconds + 60)) : at(seconds + Double(random(60...14_400)))
                seconds = max(seconds, target.timeIntervalSince(t0)) + Double(random(0...200)) / 1000
                try step("time", .timePassed)
            case 35..<55:
                let intent = [AlarmIntent.pause, .resume, .cancel, .stop, .countdown, .secondary][random(0...5)]
                try step("\(intent) \(some)", .asked(.perform(intent, on: chance(95) ? some : fixedID(998)), by: .press))
            case 55..<60:
                try schedule()
            case 60..<63:
                try step("stop all", .asked(.stopEveryRinging, by: .press))
            case 63..<68:
                try step("closed \(some)", .notificationClosed(some))
            case 68..<70:
                try step("lost \(some)", .notificationLost(some, .bannerHandedOver))
            case 70..<75:
                let offset = Double(random(-3600...3600))
                seconds += offset
                try step("clock set by \(offset)", .clockSet(by: offset))
            case 75..<80:
                zone = zones[random(0...(zones.count - 1))]
                try step("zone \(zone.identifier)", .timeZoneChanged(zone))
            case 80..<86:
                try restart()
            case 86..<89:
                try step("panel", .panelChanged(isShown: chance(50)))
            case 89..<92:
                phoneSettings = chance(50) ? .off : PhoneRingSettings(isEnabled: true, delay: Double(random(0...60)))
                try step("phones", .phoneSettingsChanged(phoneSettings))
            case 92..<95:
                try step("sound problem", .soundProblemChanged(chance(50) ? nil : "No sound server."))
            case 95..<97:
                try step("server", .notificationServerChanged)
            case 100..<104:
                try step("output reported", .soundOutputChanged(outputReport))
            case 104..<107:
                // The user's hand, on a server that answers: during a ring, turned down (never to
                // a level alarms raise to, 61–79 %, which could not be told from Tocsin's own) or
                // muted; otherwise anything.
                guard serverUp else { return }
                if !sounding.isEmpty {
                    if chance(50) {
                        output.isMuted = true
                        userOutput.isMuted = true
                    } else {
                        let percent = [random(1...60), random(80...100)][random(0...1)]
                        output.channelVolumes = output.channelVolumes.map { _ in OutputLevels.volume(percent: percent) }
                        userOutput.channelVolumes = output.channelVolumes
                    }
                } else {
                    output = OutputLevels(channelVolumes: [OutputLevels.volume(percent: random(0...100)), OutputLevels.volume(percent: random(0...100))],
                                          isMuted: chance(50))
                    userOutput = output
                }
                try step("user sets output \(AgentState.describe(output))", .soundOutputChanged(outputReport))
            case 107..<110:
                serverUp.toggle()
                try step(serverUp ? "sound server back" : "sound server gone", .soundOutputChanged(outputReport))
            case 110..<113:
                outputSettings = OutputRaiseSettings(raises: chance(60), levelPercent: random(61...79))
                try step("raise \(outputSettings.raises) to \(outputSettings.levelPercent)", .outputRaiseSettingsChanged(outputSettings))
            case 113..<116:
                lockScreenSettings = LockScreenSettings(showsTitles: chance(50))
                try step("lock-screen titles \(lockScreenSettings.showsTitles)", .lockScreenSettingsChanged(lockScreenSettings))
            case 116..<119:
                plasmaLocked.toggle()
                try step(plasmaLocked ? "Plasma locked" : "Plasma unlocked", .lockScreenKeepingPlayerChanged(isUp: plasmaLocked))
            default:
                if let ringing = alarms.first(where: { $0.state.name == .alerting }) { try step("phones rung", .phonesRung(ringing)) }
            }
        }

        /// What the sound server says now.
        var outputReport: SoundOutputReport? {
            serverUp ? SoundOutputReport(server: "PulseAudio 16.1", defaultSink: "speakers", sinks: ["speakers": output]) : nil
        }

        /// The agent stops and starts again from what was saved: the sound stops with it.
        mutating func restart() throws {
            trail.append("restart")
            let loaded = AlarmBook(alarms: Array(saved.values), timeZone: Fixture.zone(savedZone))
            run.state = AgentState(book: loaded, localeIdentifier: "C", outputRecord: savedOutputRecord)
            sounding = []
            // The player, the lock screen's interface and the idle inhibitor go with the agent's connection.
            player = nil
            lockScreen = nil
            displayHeld = false
            armed = nil
            // Checked once started: before that, nothing rings or is armed yet.
            try feed(.phoneSettingsChanged(phoneSettings))
            try feed(.outputRaiseSettingsChanged(outputSettings))
            try feed(.lockScreenSettingsChanged(lockScreenSettings))
            try feed(.lockScreenKeepingPlayerChanged(isUp: plasmaLocked))
            try step("started", .started(in: zone))
            try step("output reported", .soundOutputChanged(outputReport))
        }

        /// Feeds `input`, carries out its effects as the agent would (a commit is saved, or now
        /// and then fails), and checks the invariants.
        mutating func step(_ name: String, _ input: AgentInput) throws {
            trail.append("\(name) at \(seconds)")
            try feed(input)
            try check()
        }

        /// Feeds `input` and carries out its effects, without checking.
        mutating func feed(_ input: AgentInput) throws {
            var next: AgentInput? = input
            while let input = next {
                next = nil
                for effect in run.feed(input, at: seconds) {
                    if let report = try carryOut(effect) { next = report }
                }
            }
        }

        mutating func carryOut(_ effect: AgentEffect) throws -> AgentInput? {
            switch effect {
            case .ring(let id, _):
                #expect(!removed.contains(id), "a removed alarm rings again: \(trail.suffix(12))")
                sounding.insert(id)
            case .silence(let id):
                sounding.remove(id)
            case .signal(let event):
                if event.kind == .fired || event.kind == .missed, let due = event.dueDate {
                    let key = "\(event.alarm.id) \(due.timeIntervalSince1970)"
                    #expect(!dueTimesHandled.contains(key), "“\(event.alarm.title)” came due twice for one time: \(trail.suffix(80))")
                    dueTimesHandled.insert(key)
                }
                #expect(!removed.contains(event.alarm.id), "a removed alarm changes again: \(event.kind) \(trail.suffix(12))")
                if event.removesAlarm { removed.insert(event.alarm.id) }
            case .save(let changes):
                apply(changes)
            case .commit(let changes):
                guard chance(90) else { return .changeNotSaved(reason: "The disk is full.") }
                apply(changes)
                return .changeSaved
            case .saveAll:
                saved = Dictionary(uniqueKeysWithValues: run.book.alarms.map { ($0.id, $0) })
                savedZone = run.book.timeZone.identifier
            case .armDeadline(let date):
                armed = date
            case .showPlayer(let content):
                #expect(content != player, "the player shown again as it was: \(trail.suffix(12))")
                player = content
            case .showLockScreen(let content):
                #expect(content != lockScreen, "the lock screen given again what it shows: \(trail.suffix(12))")
                lockScreen = content
            case .holdDisplayAwake(let awake):
                #expect(awake != displayHeld, "the display held or let go twice: \(trail.suffix(12))")
                displayHeld = awake
            case .wakeDisplay:
                #expect(displayHeld, "the display woken while nothing rings: \(trail.suffix(12))")
            case .setOutput(let sink, let levels):
                #expect(sink == "speakers")
                if serverUp {
                    if !levels.isMuted, output.isMuted || levels.loudest > output.loudest { raises += 1 }
                    output = levels
                }
            case .saveOutputRecord(let record):
                savedOutputRecord = record
            default:
                break
            }
            return nil
        }

        mutating func apply(_ changes: [JournalChange]) {
            for change in changes {
                switch change {
                case .put(let alarm): saved[alarm.id] = alarm
                case .remove(let id): saved[id] = nil
                case .zone(let identifier): savedZone = identifier
                }
            }
        }

        /// What holds after every input.
        func check() throws {
            let book = run.book
            let context = "\(trail.suffix(12))"
            #expect(run.state.pendingChange == nil, "a change left waiting: \(context)")
            // Sound plays exactly while an alarm rings: every sound started is stopped.
            #expect(sounding == Set(book.alarms.filter { $0.state.name == .alerting }.map(\.id)), "sound and ringing disagree: \(context)")
            // The media player is there while an alarm rings, and shows the one ringing longest;
            // otherwise, while Plasma's screen is locked, the one that rings next, if any.
            let waiting = plasmaLocked ? RingingPlayerContent(waitingFor: book, now: at(seconds), settings: lockScreenSettings,
                                                                          timeOfDay: run.state.contentWriter.timeOfDay, day: run.state.contentWriter.dayOfMonth) : nil
            #expect(player == RingingPlayerContent(alarms: book.alarms, settings: lockScreenSettings) ?? waiting,
                    "the player shows \(player.map { "\($0.title) (\($0.artist))" } ?? "nothing"): \(context)")
            // The display is held lit exactly while an alarm rings, and the agent wakes in time
            // to wake it again; the lock screen shows every alarm on screen as it is.
            #expect(displayHeld == !sounding.isEmpty, "display held \(displayHeld) with \(sounding.count) ringing: \(context)")
            if let wake = run.state.screen.nextDisplayWake {
                #expect(!sounding.isEmpty && armed.map { $0 <= wake } == true, "the display's wake at \(wake) not armed (\(String(describing: armed))): \(context)")
            }
            let shown = LockScreenContent(alarms: book.onScreen, settings: lockScreenSettings, timeOfDay: run.state.contentWriter.timeOfDay)
            #expect(lockScreen == shown, "the lock screen shows \(lockScreen?.entries.map(\.title) ?? []), held \(shown.entries.map(\.title)): \(context)")
            // What is saved is what is held: a restart at any step loses and invents nothing.
            #expect(saved.values.sorted(by: AlarmBook.oldestFirst) == book.alarms, "saved and held disagree: \(context)")
            #expect(savedZone == book.timeZone.identifier, "saved zone \(savedZone), held \(book.timeZone.identifier): \(context)")
            // And the state file's format carries it unchanged.
            var writer = AlarmJSONWriter()
            try writer.writeSnapshot(format: AlarmStore.formatVersion, timeZone: book.timeZone.identifier, alarms: book.alarms)
            let read = try #require(AlarmJSONReader.snapshot(writer.bytes))
            #expect(read.alarms == book.alarms && read.timeZone == book.timeZone.identifier, "the snapshot does not read back: \(context)")
            // Every raise is put back once no sound that raises the output plays (none at all, or
            // only --no-raise ones, or none with raising off) and the server answers: the output
            // is as its user last left it, and no record is left behind.
            let raising = sounding.contains { outputSettings.level(for: book[$0]?.outputRaise) != nil }
            if run.state.output.report != nil, !raising {
                #expect(run.state.output.record == nil && savedOutputRecord == nil, "a record left with nothing ringing: \(context)")
                #expect(output == userOutput, "output \(AgentState.describe(output)), the user left \(AgentState.describe(userOutput)): \(context)")
            }
            // The agent never sleeps past a deadline.
            if let deadline = book.nextDeadline {
                #expect(armed.map { $0 <= deadline } == true, "armed for \(String(describing: armed)), next deadline \(deadline): \(context)")
            }
        }
    }

    @Test("A removed alarm never rings again, no due time rings twice, sound plays exactly while ringing (the media player shows the one ringing longest, the display is held lit, the lock screen shows what is held), what is saved is what is held, no deadline is slept through, the output is put back as its user left it", arguments: 1...40)
    func walk(_ seed: Int) throws {
        var walk = try Walk(seed: UInt64(seed) * 7919)
        for _ in 0..<300 { try walk.randomStep() }
        // The end: everything that rings is stopped, the rest cancelled; nothing may sound then.
        try walk.step("stop all", .asked(.stopEveryRinging, by: .press))
        for alarm in walk.run.book.alarms { try walk.step("cancel", .asked(.perform(.cancel, on: alarm.id), by: .press)) }
        #expect(walk.sounding.isEmpty || walk.run.book.count > 0, "silence at the end, unless a save failed: \(walk.sounding)")
        #expect(walk.dueTimesHandled.count > 0, "the walk rang something")
    }

    @Test("The walks raise the output and put it back, again and again")
    func walksRaiseTheOutput() throws {
        var raises: [Int] = []
        for seed in 41...60 {
            var walk = try Walk(seed: UInt64(seed) * 7919)
            for _ in 0..<300 { try walk.randomStep() }
            raises.append(walk.raises)
        }
        // Some walks ring only while the output is loud enough, or while no server answers.
        #expect(raises.reduce(0, +) >= 10 && raises.filter { $0 > 0 }.count >= 5, "raises per walk: \(raises)")
    }
}
