import FoundationEssentials
import GLibSupport
import TocsinCore

// The D-Bus methods of io.github.tocsin.Alarms1, as the agent answers them: who is calling,
// whether the caller may, and what the alarm book says.

extension RunningAgent: AlarmsServiceHandler {
    /// A `List` reply of at least this many alarms leaves enough freed heap to be worth trimming.
    static let largeReply = 500
    /// How long `GetStatus` waits for a notification server that must be asked for its
    /// do-not-disturb (mako answers in a millisecond or two; the neighbour fuzzer's slow one held
    /// the answer a second).
    static let statusPatience = 0.05

    func handle(_ call: AlarmsCall, from sender: String, reply: @escaping (Result<AlarmsReply, TocsinError>) -> Void) {
        do {
            let caller = try callers.identify(sender)
            switch call {
            case .schedule(let asked):
                // A sound file the caller names is looked at off the main loop; a sandboxed
                // caller's, later, as the caller sees it.
                guard case .file = asked.sound, !caller.isSandboxed else { return schedule(asked, soundProblem: nil, from: caller, reply: reply) }
                SoundCheck.examine(asked.sound) { [unowned self] problem in
                    schedule(asked, soundProblem: problem, from: caller, reply: reply)
                }
            case .getStatus where server.server?.profile.doNotDisturb?.announcesChanges == false:
                // This server tells nobody when its do-not-disturb changes (mako): ask it first —
                // but a server slow to say holds the answer `statusPatience` seconds at most, and
                // the status then says what was last known.
                var answered = false
                let answer = { [unowned self] in
                    guard !answered else { return }
                    answered = true
                    reply(.success(.status(status(for: caller))))
                }
                let patience = MainLoop.after(seconds: Self.statusPatience) { answer() }
                server.refresh {
                    patience.cancel()
                    answer()
                }
            case .requestAuthorization:
                if !caller.isCommandLine { authorizationDesk.note(caller.confinement, for: caller.appID) }
                authorizationDesk.resolve(caller.appID, confinement: caller.confinement) { state in
                    reply(.success(.authorization(state)))
                }
            default:
                reply(.success(try answer(call, from: sender, caller: caller)))
            }
        } catch {
            reply(.failure(error))
        }
    }

    /// Schedules `asked` for `caller` once its sound was examined (`soundProblem`, for a file
    /// outside a sandbox; otherwise examined here): refused at once if it cannot be scheduled,
    /// then — the first time an application asks — once the user allowed the application.
    private func schedule(_ asked: AlarmRequest, soundProblem: String?, from caller: Caller,
                          reply: @escaping (Result<AlarmsReply, TocsinError>) -> Void) {
        do throws(TocsinError) {
            // A theme's sound is looked for in the XDG data directories, at once.
            let problem: String?
            if case .file = asked.sound { problem = caller.isSandboxed ? nil : soundProblem } else { problem = SoundCheck.problem(with: asked.sound) }
            let request = withPlayableSound(asked, from: caller, problem: problem)
            // What cannot be scheduled is refused here, before the user is asked to allow the app.
            try check(request, from: caller, soundProblem: request.sound == asked.sound ? problem : nil)
            if !caller.isCommandLine { authorizationDesk.note(caller.confinement, for: caller.appID) }
            // Scheduling waits for the user's consent the first time an application asks.
            authorizationDesk.resolve(caller.appID, confinement: caller.confinement) { [unowned self] state in
                guard state == .authorized else {
                    return reply(.failure(TocsinError(AlarmError.notAuthorized(app: caller.appID, state: state))))
                }
                // A sandboxed app's sound file is copied only once the user allowed the app.
                keepSound(of: request, for: caller) { [unowned self] prepared in
                    do throws(TocsinError) {
                        try schedule(try prepared.get(), for: caller) { reply(.success(.id($0))) }
                    } catch {
                        if case .success(let request) = prepared { soundCopies.discard(request.sound) }
                        reply(.failure(error))
                    }
                }
            }
        } catch {
            reply(.failure(error))
        }
    }

    /// The calls that answer at once.
    private func answer(_ call: AlarmsCall, from sender: String, caller: Caller) throws(TocsinError) -> AlarmsReply {
        switch call {
        case .schedule, .requestAuthorization:
            preconditionFailure("answered by handle(_:from:reply:)")
        case .intent(let intent, let id):
            let alarm = try ownAlarm(id, caller: caller)
            try make(.perform(intent, on: alarm.id), by: .client(caller.appID))
            return .nothing
        case .list:
            let visible = caller.isCommandLine ? book.alarms : book.alarms.filter { $0.owner == caller.appID }
            if visible.count >= Self.largeReply { memory.returnFreedMemorySoon() }
            return .alarms(visible)
        case .get(let id):
            return .alarm(try ownAlarm(id, caller: caller))
        case .getStatus:
            return .status(status(for: caller))
        case .watch:
            signals.watch(from: sender)
            return .nothing
        case .receiveIntents:
            appIntents.addReceiver(sender, appID: caller.appID)
            return .nothing
        case .identifyApplication(let appID):
            try callers.declare(appID, for: sender)
            return .nothing
        case .getAuthorization:
            return .authorization(authorizationDesk.authorizations.state(of: caller.appID))
        case .listAuthorizations:
            try requireCommandLine(caller, toDo: "see the applications' authorizations")
            return .authorizations(authorizationDesk.authorizations.answers)
        case .listApplications:
            try requireCommandLine(caller, toDo: "see the applications' authorizations")
            return .applications(authorizationDesk.authorizations.records(alarmCount: book.alarmCount(ownedBy:)))
        case .setAuthorization(let state, let app):
            try requireCommandLine(caller, toDo: "change an application's authorization")
            guard app != AppAuthorizations.commandLineAppID else {
                throw TocsinError(.invalidArgument, "The tocsin command line is always authorized.")
            }
            authorizationDesk.set(state, for: app)
            return .nothing
        }
    }

    /// Schedules `request` and hands `answer` the new alarm's id as soon as it is saved, before the
    /// live activity, the signal and the hooks: the caller asked for a saved alarm, and a client
    /// scheduling many in a row need not wait for each one's effects.
    private func schedule(_ request: AlarmRequest, for caller: Caller, answer: (UUID) -> Void) throws(TocsinError) {
        let id = request.id ?? UUID()
        let change = AlarmChange.schedule(request, id: id, owner: caller.owner, confinement: caller.confinement, ownerLimit: alarmLimit(of: caller))
        try make(change, by: .client(caller.appID)) { answer(id) }
    }

    /// Hands `ready` the request with a sound the agent can ring later: for a sandboxed caller's
    /// sound file, a copy read as the caller sees it (after the app's other copies, within its
    /// budget); anything else as it is.
    private func keepSound(of request: AlarmRequest, for caller: Caller, ready: @escaping (Result<AlarmRequest, TocsinError>) -> Void) {
        guard case .file(let path) = request.sound, let files = caller.files else { return ready(.success(request)) }
        let used = soundCopies.bytesUsed(by: book.unorderedAlarms.lazy.filter { $0.owner == caller.appID }.map(\.sound))
        let budget = SandboxedSoundCopies.applicationBudget - used
        guard budget > 0 else {
            return ready(.failure(TocsinError(.limitReached, "The sound files of “\(caller.appID)”'s alarms already take \(SandboxedSoundCopies.applicationBudget / (1024 * 1024)) MiB, the most an application's may; cancel some of its alarms or ring a theme sound.")))
        }
        soundCopies.copy(path, seenBy: files, budget: budget) { copied in
            ready(copied.map { sound in
                var kept = request
                kept.sound = sound
                return kept
            })
        }
    }

    /// The alarm `id` if `caller` may see it: the command line sees every alarm, an application
    /// its own. Others' alarms are "not found", so an application learns nothing of them.
    private func ownAlarm(_ id: UUID, caller: Caller) throws(TocsinError) -> Alarm {
        guard let alarm = book[id], caller.isCommandLine || alarm.owner == caller.appID else {
            throw TocsinError(AlarmError.notFound(id: id))
        }
        return alarm
    }

    private func requireCommandLine(_ caller: Caller, toDo what: String) throws(TocsinError) {
        guard caller.isCommandLine else {
            throw TocsinError(.notAuthorized, "Only the user, through the tocsin command line, may \(what).")
        }
    }

    /// What `tocsin status` shows: how this agent is set up and what it can do. The alarms it
    /// counts and names as ringing are those `caller` may see.
    private func status(for caller: Caller) -> [String: WireValue] {
        typealias Key = AlarmWireFormat.StatusKey
        var status: [Key: WireValue] = [
            .version: .string(TocsinVersion.string),
            .timeZone: .string(book.timeZone.identifier),
            .stateFile: .string(store.fileURL.path),
            .stateWritable: .bool(store.isWritable),
            .alarmCount: .integer(Int64(caller.isCommandLine ? book.count : book.alarmCount(ownedBy: caller.appID))),
            .ringing: .string(ringingAlarms(seenBy: caller).map { $0.id.uuidString.lowercased() }.joined(separator: ",")),
        ]
        if let server = server.server {
            status[.notificationServer] = .string("\(server.identity.name) \(server.identity.version)")
            status[.notificationActions] = .bool(server.profile.drawsButtons)
            status[.notificationProgress] = .bool(server.profile.progress != .none)
        }
        switch server.doNotDisturb {
        case .unknown: status[.doNotDisturb] = .string("unknown")
        case .off: status[.doNotDisturb] = .string("off")
        case .on(let hidesAlerts, let how):
            status[.doNotDisturb] = .string("on")
            status[.doNotDisturbHidesAlerts] = .bool(hidesAlerts)
            status[.doNotDisturbMechanism] = .string(how)
        }
        status[.soundProblem] = sounds.soundProblem.map(WireValue.string)
        status[.panel] = .string((tray?.host ?? .off).rawValue)
        if let report = state.output.report {
            status[.soundServer] = .string(report.server)
            if let sink = report.defaultSink, let levels = report.sinks[sink] {
                status[.output] = .string(sink)
                status[.outputMuted] = .bool(levels.isMuted)
                status[.outputVolume] = .integer(Int64(levels.percent))
            }
        }
        status[.raiseOutput] = .bool(state.output.settings.raises)
        status[.ringLevel] = .integer(Int64(state.output.settings.levelPercent))
        status[.alarmSoundInstalled] = .bool(SoundCheck.problem(with: .themeEvent(AlarmSound.standardEventID)) == nil)
        // Who else listens is the user's to know, not another application's.
        if caller.isCommandLine { status[.watchers] = .integer(Int64(signals.watcherCount)) }
        switch wakeAvailability {
        case .available:
            status[.canWakeSystem] = .bool(true)
        case .unavailable(let reason):
            status[.canWakeSystem] = .bool(false)
            status[.wakeProblem] = .string(reason)
        }
        return Dictionary(uniqueKeysWithValues: status.map { ($0.key.rawValue, $0.value) })
    }

    /// The alarms ringing that `caller` may see, as the book holds them: the one that has rung
    /// longest first.
    private func ringingAlarms(seenBy caller: Caller) -> [Alarm] {
        book.unorderedAlarms.compactMap { alarm -> (since: Date, alarm: Alarm)? in
            guard case .alerting(let since) = alarm.state, caller.isCommandLine || alarm.owner == caller.appID else { return nil }
            return (since, alarm)
        }
        .sorted { ($0.since, $0.alarm.id.uuidString) < ($1.since, $1.alarm.id.uuidString) }
        .map(\.alarm)
    }

    /// The most alarms `caller` may hold: none for the user's command line.
    private func alarmLimit(of caller: Caller) -> Int? {
        caller.isCommandLine ? nil : configuration.alarmsPerApplication
    }

    /// `request` ringing the standard sound in place of one the agent cannot play, when it asks
    /// for that (`soundFallback`: what AlarmKit does with a sound it cannot find) — logged, so the
    /// app's author can learn why. A sandboxed caller's sound file is looked at in its sandbox,
    /// later, and refused there as before: what lies outside the sandbox is not the app's to ring.
    private func withPlayableSound(_ request: AlarmRequest, from caller: Caller, problem: String?) -> AlarmRequest {
        if case .file = request.sound, caller.isSandboxed { return request }
        guard request.soundFallback, let problem else { return request }
        log.info("“\(request.title ?? request.kind.rawValue)” of “\(caller.appID)” will ring with the standard sound: \(problem)")
        var playable = request
        playable.sound = .standard
        return playable
    }

    /// Refuses at once — before the user is asked about the app — a request that cannot be
    /// scheduled: hooks from a sandbox, whatever the alarm book would refuse now (a time in the
    /// past, a bad duration, an id in use, a limit reached), or (outside a sandbox) a sound the
    /// agent cannot play. A sandboxed caller's sound file is looked at in its sandbox, later.
    private func check(_ request: AlarmRequest, from caller: Caller, soundProblem: String?) throws(TocsinError) {
        do throws(AlarmError) {
            // The alarm the book would add now. It is added only once the app is allowed, and
            // checked again then: the user may answer minutes later.
            _ = try book.newAlarm(for: request, id: request.id ?? UUID(), now: clock.now, owner: caller.owner,
                                  confinement: caller.confinement, ownerLimit: alarmLimit(of: caller))
        } catch {
            throw TocsinError(error)
        }
        if let soundProblem { throw TocsinError(.invalidArgument, soundProblem) }
    }
}
