import FoundationEssentials

/// Where an application runs, as the agent tells from its process — what decides how far it is
/// trusted (docs/SECURITY.md).
///
/// A program outside any sandbox already has every right the user has, so what it asks the
/// agent to do on its behalf (run a command, read a file) gives it nothing new. A sandboxed app
/// has only what its sandbox grants: the agent must never become its way out, so it runs no
/// command for it and reads files only as the sandbox sees them.
public enum AppConfinement: String, Sendable, Codable, CaseIterable {
    /// Outside any sandbox, with the user's rights.
    case unconfined
    /// Inside a Flatpak sandbox, identified by the sandbox's `/.flatpak-info`.
    case flatpak

    /// True for a sandbox.
    public var isSandboxed: Bool { self != .unconfined }

    /// How `tocsin auth list` and the consent prompt name it.
    public var phrase: String {
        switch self {
        case .unconfined: "not sandboxed"
        case .flatpak: "Flatpak sandbox"
        }
    }
}
