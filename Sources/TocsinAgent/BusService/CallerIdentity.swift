import CGLib
import FoundationEssentials
import Glibc
import TocsinCore

/// Who is calling the agent, as far as the agent can tell: the application id an alarm belongs
/// to and authorization is granted to, and where that application runs.
///
/// In order of trust: a Flatpak-sandboxed caller is identified from its sandbox (what it claims
/// does not count); an application outside any sandbox that said who it is (`IdentifyApplication`)
/// is taken at its word, as it already has the user's rights; the `tocsin` command line is
/// recognised by its executable; any other program is known by its executable's name.
struct Caller {
    /// The application id.
    let appID: String
    /// Where the caller runs.
    let confinement: AppConfinement
    /// A sandboxed caller's view of files, through which a file it names is read; `nil` outside
    /// a sandbox, where the agent sees what the caller sees.
    let files: ProcessFileView?

    /// True when the caller runs in a sandbox.
    var isSandboxed: Bool { confinement.isSandboxed }
    /// True for the user's own command line, which is always authorized and sees every alarm.
    /// A program inside a sandbox is never it, whatever its executable is called.
    var isCommandLine: Bool { confinement == .unconfined && appID == AppAuthorizations.commandLineAppID }
    /// The owner the alarm book records for its alarms: the application, or `nil` for the
    /// user's command line.
    var owner: String? { isCommandLine ? nil : appID }
}

/// What the bus daemon knows of a connection's process.
struct PeerCredentials {
    /// The process that opened the connection, in the agent's pid namespace.
    let processID: pid_t
    /// Its user.
    let userID: uid_t
}

/// Identifies callers from their process, and remembers the ids applications declared.
///
/// It fails closed: a caller it cannot place — no process id from the bus, another user, a
/// process whose root cannot be looked at, a sandbox that is not Flatpak's — is refused rather
/// than taken for a program outside any sandbox (docs/SECURITY.md).
final class CallerIdentifier {
    /// Ids declared with `IdentifyApplication`, by unique bus name.
    private var declared: [String: String] = [:]
    /// What the process behind each unique bus name is, looked up once: a connection's process,
    /// its sandbox and its executable never change, and asking the bus and /proc again on every
    /// call (and on every signal to a watcher) showed in profiles.
    private var peers: [String: Peer] = [:]
    private let credentials: (String) -> PeerCredentials?
    private let userID = getuid()

    /// An identifier asking `credentials` for a peer's process and user.
    init(credentials: @escaping (String) -> PeerCredentials?) {
        self.credentials = credentials
    }

    /// Who `sender` is; refused (`NotAuthorized`, with the reason) when the agent cannot tell.
    func identify(_ sender: String) throws(TocsinError) -> Caller {
        let peer: Peer
        if let known = peers[sender] { peer = known } else { peer = try lookUp(sender) }
        switch peer {
        case .flatpak(let appID, let files):
            return Caller(appID: appID, confinement: .flatpak, files: files)
        case .unconfined(let executableName):
            return Caller(appID: declared[sender] ?? executableName ?? "unknown", confinement: .unconfined, files: nil)
        }
    }

    /// The process behind `sender`, remembered once known (a refusal is not remembered: the next
    /// call asks again).
    private func lookUp(_ sender: String) throws(TocsinError) -> Peer {
        guard let peer = credentials(sender) else {
            throw Self.refusal("The bus cannot tell which process is calling, so Tocsin cannot tell which application it is.")
        }
        guard peer.userID == userID else {
            throw Self.refusal("The call comes from another user (uid \(peer.userID)); Tocsin serves only the programs of the user it runs for.")
        }
        let files: ProcessFileView
        do {
            files = try ProcessFileView(pid: peer.processID)
        } catch {
            throw Self.refusal("Tocsin cannot tell whether the calling process runs in a sandbox: \(error.message).")
        }
        let process: Peer
        if files.isAgentRoot {
            process = .unconfined(executableName: Self.executableName(of: peer.processID))
        } else if let appID = Self.flatpakAppID(seenBy: files) {
            process = .flatpak(appID: appID, files: files)
        } else {
            throw Self.refusal("The calling process runs in a sandbox that is not a Flatpak sandbox (it has no /.flatpak-info naming its application), so Tocsin cannot tell which application it is.")
        }
        peers[sender] = process
        return process
    }

    /// Records the id `sender` declared; a sandboxed caller may only declare its own.
    func declare(_ appID: String, for sender: String) throws(TocsinError) {
        let validated: String
        do { validated = try AppAuthorizations.validatedAppID(appID) } catch { throw TocsinError(.invalidArgument, error.message) }
        let caller = try identify(sender)
        if caller.isSandboxed && caller.appID != validated {
            throw TocsinError(.notAuthorized, "This application runs in the sandbox of “\(caller.appID)” and cannot speak as “\(validated)”.")
        }
        if validated == AppAuthorizations.commandLineAppID && !caller.isCommandLine {
            throw TocsinError(.notAuthorized, "Only the tocsin command line is “tocsin”; choose your application's own id.")
        }
        declared[sender] = validated
    }

    /// Forgets what `sender` declared, once it left the bus.
    func forget(_ sender: String) {
        declared[sender] = nil
        peers[sender] = nil
    }

    private static func refusal(_ message: String) -> TocsinError {
        TocsinError(.notAuthorized, message)
    }

    /// The Flatpak application id a sandbox's `/.flatpak-info` names (`[Application] name=`), read
    /// with GLib's key-file parser as xdg-desktop-portal reads it. Flatpak writes the file and
    /// mounts it read-only, so it must be a regular file reached without a symbolic link.
    private static func flatpakAppID(seenBy files: ProcessFileView) -> String? {
        guard let bytes = try? files.readRegularFile("/.flatpak-info", limit: 256 * 1024, followingLinks: false) else { return nil }
        let keyFile = g_key_file_new()
        defer { g_key_file_free(keyFile) }
        let loaded = bytes.withUnsafeBytes { buffer in
            g_key_file_load_from_data(keyFile, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), gsize(buffer.count), G_KEY_FILE_NONE, nil)
        }
        guard loaded != 0, let name = g_key_file_get_string(keyFile, "Application", "name", nil) else { return nil }
        defer { g_free(name) }
        return try? AppAuthorizations.validatedAppID(String(cString: name))
    }

    /// The file name of `pid`'s executable ("tocsin", "python3").
    private static func executableName(of pid: pid_t) -> String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe") else { return nil }
        // A replaced binary reads "/usr/bin/tocsin (deleted)".
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasSuffix(" (deleted)") { name.removeLast(" (deleted)".count) }
        return (try? AppAuthorizations.validatedAppID(name)) ?? "unknown"
    }
}

/// What `CallerIdentifier` learned of a peer's process.
private enum Peer {
    /// Outside any sandbox; its executable's file name, if it could be read.
    case unconfined(executableName: String?)
    /// In a Flatpak sandbox of `appID`, whose files are seen through `files`.
    case flatpak(appID: String, files: ProcessFileView)
}
