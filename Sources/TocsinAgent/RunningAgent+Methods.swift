import CGLib
import FoundationEssentials
import GLibSupport
import TocsinCore

// The D-Bus methods of io.github.tocsin.Alarms1, as the agent answers them: who is calling,
// whether the caller may, and what the alarm book says.

extension RunningAgent: AlarmsServiceHandler {
    /// A `List` reply of at least this many alarms leaves enough freed heap to be worth trimming.
    static let largeReply = 500

    func handle(_ method: AlarmsMethod, arguments: OpaquePointer, sender: String, reply: @escaping (Result<OpaquePointer?, ServiceError>) -> Void) {
        do {
            let caller = try callers.identify(sender)
            switch method {
            case .schedule:
                let request = try scheduleRequest(in: arguments, from: caller)
                if !caller.isCommandLine { authorizationDesk.note(caller.confinement, for: caller.appID) }
                // Scheduling waits for the user's consent the first time an application asks.
                authorizationDesk.resolve(caller.appID, confinement: caller.confinement) { [unowned self] state in
                    guard state == .authorized else {
                        return reply(.failure(ServiceError(AlarmError.notAuthorized(app: caller.appID, state: state))))
                    }
                    // A sandboxed app's sound file is copied only once the user allowed the app.
                    keepSound(of: request, for: caller) { [unowned self] prepared in
                        do throws(ServiceError) {
                            try schedule(try prepared.get(), for: caller) { reply(.success($0)) }
                        } catch {
                            if case .success(let request) = prepared { soundCopies.discard(request.sound) }
                            reply(.failure(error))
                        }
                    }
                }
            case .requestAuthorization:
                if !caller.isCommandLine { authorizationDesk.note(caller.confinement, for: caller.appID) }
                authorizationDesk.resolve(caller.appID, confinement: caller.confinement) { state in
                    reply(.success(Variant.tuple([g_variant_new_string(state.rawValue)])))
                }
            default:
                reply(.success(try answer(method, arguments: arguments, sender: sender, caller: caller)))
            }
        } catch {
            reply(.failure(error))
        }
    }

    /// The methods that answer at once.
    private func answer(_ method: AlarmsMethod, arguments: OpaquePointer, sender: String, caller: Caller) throws(ServiceError) -> OpaquePointer? {
        switch method {
        case .schedule, .requestAuthorization:
            preconditionFailure("answered by handle(_:arguments:sender:reply:)")
        case .cancel: try perform(.cancel, arguments, caller: caller)
        case .pause: try perform(.pause, arguments, caller: caller)
        case .resume: try perform(.resume, arguments, caller: caller)
        case .stop: try perform(.stop, arguments, caller: caller)
        case .countdown: try perform(.countdown, arguments, caller: caller)
        case .secondary: try perform(.secondary, arguments, caller: caller)
        case .list:
            let visible = book.alarms.lazy.filter { caller.isCommandLine || $0.owner == caller.appID }
            let replyCount = caller.isCommandLine ? book.count : book.alarmCount(ownedBy: caller.appID)
            if replyCount >= Self.largeReply { memory.returnFreedMemorySoon() }
            return Variant.tuple([Variant.make(dictionariesOf: visible, AlarmWireFormat.encode)])
        case .get:
            let alarm = try ownAlarm(try alarmID(in: arguments), caller: caller)
            return Variant.tuple([Variant.make(dictionary: AlarmWireFormat.encode(alarm))])
        case .getStatus:
            return Variant.tuple([Variant.make(dictionary: status(for: caller))])
        case .watch:
            signals.watch(from: sender)
        case .identifyApplication:
            try callers.declare(Variant.string(in: arguments, at: 0), for: sender)
        case .getAuthorization:
            return Variant.tuple([g_variant_new_string(authorizationDesk.authorizations.state(of: caller.appID).rawValue)])
        case .listAuthorizations:
            try requireCommandLine(caller, toDo: "see the applications' authorizations")
            let answers = authorizationDesk.authorizations.answers.mapValues(\.rawValue)
            return Variant.tuple([Variant.make(.stringMap(answers))])
        case .listApplications:
            try requireCommandLine(caller, toDo: "see the applications' authorizations")
            let authorizations = authorizationDesk.authorizations
            let apps = Set(authorizations.answers.keys).union(authorizations.confinements.keys).sorted()
            return Variant.tuple([Variant.make(dictionaries: apps.map { app in
                var entry: [String: WireValue] = [
                    "app-id": .string(app),
                    "authorization": .string(authorizations.state(of: app).rawValue),
                    "alarms": .integer(Int64(book.alarmCount(ownedBy: app))),
                ]
                entry["confinement"] = authorizations.confinements[app].map { .string($0.rawValue) }
                return entry
            })])
        case .setAuthorization:
            try requireCommandLine(caller, toDo: "change an application's authorization")
            let app: String
            do { app = try AppAuthorizations.validatedAppID(Variant.string(in: arguments, at: 0)) } catch { throw ServiceError(.invalidArgument, error.message) }
            let stateText = Variant.string(in: arguments, at: 1)
            guard let state = AuthorizationState(rawValue: stateText) else {
                throw ServiceError(.invalidArgument, "“\(AlarmInputError.quotable(stateText.prefix(32)))” is not an authorization state (notDetermined, authorized, denied).")
            }
            guard app != AppAuthorizations.commandLineAppID else {
                throw ServiceError(.invalidArgument, "The tocsin command line is always authorized.")
            }
            authorizationDesk.set(state, for: app)
        }
        return nil
    }

    /// Schedules `request` and hands `answer` the new alarm's id as soon as it is saved, before the
    /// live activity, the signal and the hooks: the caller asked for a saved alarm, and a client
    /// scheduling many in a row need not wait for each one's effects.
    private func schedule(_ request: AlarmRequest, for caller: Caller, answer: (OpaquePointer) -> Void) throws(ServiceError) {
        let owner = caller.isCommandLine ? nil : caller.appID
        let limit = caller.isCommandLine ? nil : configuration.alarmsPerApplication
        try commit({ book, now throws(AlarmError) in
            try book.schedule(request, id: request.id ?? UUID(), now: now, owner: owner, confinement: caller.confinement, ownerLimit: limit)
        }, whenSaved: { event in answer(Variant.tuple([g_variant_new_string(event.alarm.id.uuidString.lowercased())])) })
    }

    /// Hands `ready` the request with a sound the agent can ring later: for a sandboxed caller's
    /// sound file, a copy read as the caller sees it (after the app's other copies, within its
    /// budget); anything else as it is.
    private func keepSound(of request: AlarmRequest, for caller: Caller, ready: @escaping (Result<AlarmRequest, ServiceError>) -> Void) {
        guard case .file(let path) = request.sound, let files = caller.files else { return ready(.success(request)) }
        let used = soundCopies.bytesUsed(by: book.alarms.lazy.filter { $0.owner == caller.appID }.map(\.sound))
        let budget = SandboxedSoundCopies.applicationBudget - used
        guard budget > 0 else {
            return ready(.failure(ServiceError(.limitReached, "The sound files of “\(caller.appID)”'s alarms already take \(SandboxedSoundCopies.applicationBudget / (1024 * 1024)) MiB, the most an application's may; cancel some of its alarms or ring a theme sound.")))
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
    private func ownAlarm(_ id: UUID, caller: Caller) throws(ServiceError) -> Alarm {
        guard let alarm = book[id], caller.isCommandLine || alarm.owner == caller.appID else {
            throw ServiceError(AlarmError.notFound(id: id.uuidString.lowercased()))
        }
        return alarm
    }

    private func requireCommandLine(_ caller: Caller, toDo what: String) throws(ServiceError) {
        guard caller.isCommandLine else {
            throw ServiceError(.notAuthorized, "Only the user, through the tocsin command line, may \(what).")
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
            .ringing: .string(sounds.ringingAlarms.filter { caller.isCommandLine || book[$0]?.owner == caller.appID }
                .map { $0.uuidString.lowercased() }.joined(separator: ",")),
        ]
        if let server = server.server {
            status[.notificationServer] = .string("\(server.name) \(server.version)")
            status[.notificationActions] = .bool(server.showsActions)
            status[.notificationProgress] = .bool(server.showsProgress)
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
        status[.alarmSoundInstalled] = .bool(SoundCheck.problem(with: .themeEvent(AlarmSound.standardEventID)) == nil)
        switch wakeAvailability {
        case .available:
            status[.canWakeSystem] = .bool(true)
        case .unavailable(let reason):
            status[.canWakeSystem] = .bool(false)
            status[.wakeProblem] = .string(reason)
        }
        return Dictionary(uniqueKeysWithValues: status.map { ($0.key.rawValue, $0.value) })
    }

    private func perform(_ intent: AlarmIntent, _ arguments: OpaquePointer, caller: Caller) throws(ServiceError) {
        let id = try ownAlarm(try alarmID(in: arguments), caller: caller).id
        try commit { book, now throws(AlarmError) in try book.perform(intent, on: id, now: now) }
    }

    /// The request `caller` sent, refused at once — before the user is asked about the app —
    /// when it cannot be scheduled: malformed, hooks from a sandbox, or (outside a sandbox) a
    /// sound the agent cannot play. A sandboxed caller's sound file is looked at in its sandbox, later.
    private func scheduleRequest(in arguments: OpaquePointer, from caller: Caller) throws(ServiceError) -> AlarmRequest {
        let dictionary = Variant.child(arguments, 0)
        defer { g_variant_unref(dictionary) }
        let request: AlarmRequest
        do {
            request = try AlarmWireFormat.decodeRequest(Variant.dictionary(dictionary))
        } catch {
            throw ServiceError(.invalidArgument, error.message)
        }
        if caller.isSandboxed && !request.hooks.isEmpty {
            throw ServiceError(AlarmError.hooksFromSandbox(app: caller.appID, confinement: caller.confinement))
        }
        if case .file = request.sound, caller.isSandboxed { return request }
        if let problem = SoundCheck.problem(with: request.sound) {
            throw ServiceError(.invalidArgument, problem)
        }
        return request
    }

    private func alarmID(in arguments: OpaquePointer) throws(ServiceError) -> UUID {
        let text = Variant.string(in: arguments, at: 0)
        guard let id = UUID(uuidString: text) else {
            throw ServiceError(.invalidArgument, "“\(AlarmInputError.quotable(text.prefix(64)))” is not an alarm id (ids look like 3f2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5a).")
        }
        return id
    }
}
