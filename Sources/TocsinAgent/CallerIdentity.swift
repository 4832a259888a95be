import FoundationEssentials
import Glibc
import TocsinCore

/// Who is calling the agent, as far as the agent can tell: the application id an alarm belongs
/// to and authorization is granted to.
///
/// In order of trust: a Flatpak-sandboxed caller is identified from its sandbox (what it claims
/// does not count); an application that said who it is (`IdentifyApplication`) is taken at its
/// word; the `tocsin` command line is recognised by its executable; any other program is known by
/// its executable's name.
struct Caller: Equatable {
    /// The application id.
    let appID: String
    /// True for the user's own command line, which is always authorized and sees every alarm.
    var isCommandLine: Bool { appID == AppAuthorizations.commandLineAppID }
    /// True when the id comes from a Flatpak sandbox.
    let isSandboxed: Bool
}

/// Identifies callers from their process, and remembers the ids applications declared.
final class CallerIdentifier {
    /// Ids declared with `IdentifyApplication`, by unique bus name.
    private var declared: [String: String] = [:]
    /// What the process behind each unique bus name is, looked up once: a connection's process,
    /// its sandbox and its executable never change, and asking the bus and /proc again on every
    /// call (and on every signal to a watcher) showed in profiles.
    private var processes: [String: PeerProcess] = [:]
    private let processID: (String) -> pid_t?
    private let procRoot: String

    /// An identifier asking `processID` for a peer's pid; `procRoot` is /proc (tests may point elsewhere).
    init(processID: @escaping (String) -> pid_t?, procRoot: String = "/proc") {
        self.processID = processID
        self.procRoot = procRoot
    }

    /// Who `sender` is.
    func identify(_ sender: String) -> Caller {
        let process = processes[sender] ?? lookUp(sender)
        if let sandbox = process?.sandbox {
            return Caller(appID: sandbox, isSandboxed: true)
        }
        if let appID = declared[sender] {
            return Caller(appID: appID, isSandboxed: false)
        }
        return Caller(appID: process?.executableName ?? "unknown", isSandboxed: false)
    }

    /// The process behind `sender`, remembered once the bus told its pid (until then, every
    /// call asks again).
    private func lookUp(_ sender: String) -> PeerProcess? {
        guard let pid = processID(sender) else { return nil }
        let process = PeerProcess(sandbox: flatpakAppID(of: pid), executableName: executableName(of: pid))
        processes[sender] = process
        return process
    }

    /// Records the id `sender` declared; a sandboxed caller may only declare its own.
    func declare(_ appID: String, for sender: String) throws(ServiceError) {
        let validated: String
        do { validated = try AppAuthorizations.validatedAppID(appID) } catch { throw ServiceError(.invalidArgument, error.message) }
        let caller = identify(sender)
        if caller.isSandboxed && caller.appID != validated {
            throw ServiceError(.notAuthorized, "This application runs in the sandbox of “\(caller.appID)” and cannot speak as “\(validated)”.")
        }
        if validated == AppAuthorizations.commandLineAppID && !caller.isCommandLine {
            throw ServiceError(.notAuthorized, "Only the tocsin command line is “tocsin”; choose your application's own id.")
        }
        declared[sender] = validated
    }

    /// Forgets what `sender` declared, once it left the bus.
    func forget(_ sender: String) {
        declared[sender] = nil
        processes[sender] = nil
    }

    /// The Flatpak application id of `pid` from its sandbox's /.flatpak-info, if it runs in one.
    private func flatpakAppID(of pid: pid_t) -> String? {
        guard let info = try? String(contentsOfFile: "\(procRoot)/\(pid)/root/.flatpak-info", encoding: .utf8) else { return nil }
        var inApplication = false
        for line in info.split(separator: "\n") {
            let trimmed = line.trimmingSpaces()
            if trimmed.hasPrefix("[") { inApplication = trimmed == "[Application]" }
            if inApplication, trimmed.hasPrefix("name=") {
                return String(trimmed.dropFirst("name=".count))
            }
        }
        return nil
    }

    /// The file name of `pid`'s executable ("tocsin", "python3").
    private func executableName(of pid: pid_t) -> String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(procRoot)/\(pid)/exe") else { return nil }
        // A replaced binary reads "/usr/bin/tocsin (deleted)".
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasSuffix(" (deleted)") { name.removeLast(" (deleted)".count) }
        return (try? AppAuthorizations.validatedAppID(name)) ?? "unknown"
    }
}

/// What `CallerIdentifier` learned of a peer's process.
private struct PeerProcess {
    /// The Flatpak application id of its sandbox, if it runs in one.
    let sandbox: String?
    /// Its executable's file name, if it could be read.
    let executableName: String?
}
