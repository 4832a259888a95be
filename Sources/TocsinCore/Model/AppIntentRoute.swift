/// How the agent reaches an application to have it perform an app intent, chosen from what it
/// knows: the application's processes that take intents, its desktop entry, where it runs.
///
/// Exactly one process performs each press: the application's oldest running receiver; else
/// the application is started, the freedesktop way where its desktop entry says so (D-Bus
/// activation, which also delivers the call), else by the program it registered, which then
/// registers as a receiver and is handed the press. A sandboxed application is only ever started
/// through its sandbox (D-Bus activation, `flatpak run` of its own id), never by a path it gave.
public enum AppIntentRoute: Sendable, Equatable {
    /// Call the receiver with this unique bus name.
    case receiver(String)
    /// Call the application's well-known name, which D-Bus activation starts it for.
    case busActivation(name: String)
    /// Start this program (its arguments); the press waits until the application takes intents.
    case launch([String])
    /// The application cannot be reached; why, for the log.
    case unreachable(String)

    /// The route for `appID`, whose running receivers (oldest first) are `receivers`, whose
    /// desktop entry says `DBusActivatable=true` or not, which ran in `confinement` when it
    /// scheduled, and which registered `executable`.
    public static func choose(appID: String, receivers: [String], dbusActivatable: Bool,
                              confinement: AppConfinement?, executable: String?) -> AppIntentRoute {
        if let oldest = receivers.first { return .receiver(oldest) }
        if dbusActivatable && ApplicationBusName.isBusName(appID) { return .busActivation(name: appID) }
        switch confinement {
        case .flatpak?:
            return .launch(["flatpak", "run", appID, AppIntentButtons.launchArgument])
        case .unconfined?:
            guard let executable else {
                return .unreachable("it is not running, its desktop entry does not make it D-Bus activatable, and it registered no program to start")
            }
            return .launch([executable, AppIntentButtons.launchArgument])
        case nil:
            return .unreachable("it is not running, and Tocsin did not record whether it runs in a sandbox, so it starts nothing for it")
        }
    }
}
