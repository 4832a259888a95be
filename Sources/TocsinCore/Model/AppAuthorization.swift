import FoundationEssentials

/// Whether an application may set alarms that ring through do-not-disturb — AlarmKit's consent
/// model: nothing rings for an app until its user allowed it.
public enum AuthorizationState: String, Sendable, Codable, CaseIterable {
    /// Not asked yet: scheduling asks first.
    case notDetermined
    /// Allowed by the user.
    case authorized
    /// Refused by the user: scheduling fails.
    case denied
}

/// The user's answers, per application id.
public struct AppAuthorizations: Sendable, Equatable, Codable {
    /// The application id of the user's own command line, which is always authorized: whoever
    /// types `tocsin` at a shell is the user.
    public static let commandLineAppID = "tocsin"

    private var states: [String: AuthorizationState]
    /// Where each application that called the agent ran, the last time it did: what the consent
    /// prompt and `tocsin auth list` say of it.
    public private(set) var confinements: [String: AppConfinement]

    /// Answers `states`, and what is known of where the apps run.
    public init(_ states: [String: AuthorizationState] = [:], confinements: [String: AppConfinement] = [:]) {
        self.states = states.filter { $0.value != .notDetermined }
        self.confinements = confinements.filter { $0.key != Self.commandLineAppID }
    }

    /// Records that `app` was seen running in `confinement`; true when that is news worth saving.
    public mutating func note(_ confinement: AppConfinement, for app: String) -> Bool {
        guard app != Self.commandLineAppID, confinements[app] != confinement else { return false }
        confinements[app] = confinement
        return true
    }

    /// The state of `app`.
    public func state(of app: String) -> AuthorizationState {
        app == Self.commandLineAppID ? .authorized : states[app] ?? .notDetermined
    }

    /// Records the user's answer for `app`; `.notDetermined` forgets it, so the app is asked again.
    public mutating func set(_ state: AuthorizationState, for app: String) {
        states[app] = state == .notDetermined ? nil : state
    }

    /// Every application with an answer, by id.
    public var answers: [String: AuthorizationState] { states }

    /// Every application with an answer or seen asking, by id: its answer, where it ran, and
    /// how many alarms it holds (`alarmCount`).
    public func records(alarmCount: (String) -> Int) -> [ApplicationRecord] {
        Set(states.keys).union(confinements.keys).sorted().map { app in
            ApplicationRecord(appID: app, authorization: state(of: app), confinement: confinements[app], alarmCount: alarmCount(app))
        }
    }

    /// Checks that `text` can be an application id: a reverse-DNS name such as `org.example.Cook`
    /// or a program name, letters, digits, `.`, `-` and `_`, at most 255 characters.
    public static func validatedAppID(_ text: String) throws(AlarmInputError) -> String {
        guard !text.isEmpty, text.count <= 255, text.consists(ofASCII: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") else {
            throw AlarmInputError("“\(AlarmInputError.quotable(text.prefix(64)))” is not an application id (letters, digits, “.”, “-”, “_”, such as org.example.Cook).")
        }
        return text
    }
}

/// What the agent knows of one application (`ListApplications`, `tocsin auth list`).
public struct ApplicationRecord: Sendable, Equatable {
    /// The application's id.
    public let appID: String
    /// Whether it may set alarms.
    public let authorization: AuthorizationState
    /// Where it ran when it last asked; `nil` when not known.
    public let confinement: AppConfinement?
    /// How many alarms it holds.
    public let alarmCount: Int

    /// A record of `appID`.
    public init(appID: String, authorization: AuthorizationState, confinement: AppConfinement?, alarmCount: Int) {
        self.appID = appID
        self.authorization = authorization
        self.confinement = confinement
        self.alarmCount = alarmCount
    }
}
