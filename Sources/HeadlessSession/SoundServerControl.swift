import Foundation

/// The session's sound server while a test may stop and start it again (to check that a program
/// survives a sound-server restart). Each start is a fresh `SoundServer` of the same kind, at the
/// same address, so PULSE_SERVER and the session's environment stay right.
///
/// `@unchecked Sendable`: `current` is guarded by `lock`, which is held for a whole stop or
/// restart so two of them never interleave.
final class SoundServerControl: @unchecked Sendable {
    let kind: SoundServerKind
    private let launcher: ChildLauncher
    /// The environment the server was first started with (the session's bus, display, XDG directories).
    private let environment: [String: String]
    private let lock = NSLock()
    private var current: SoundServer?

    init(running server: SoundServer, launcher: ChildLauncher, environment: [String: String]) {
        kind = server.kind
        self.launcher = launcher
        self.environment = environment
        current = server
    }

    /// Ends the running server's processes (no-op when it is already stopped).
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        current?.stop()
        current = nil
    }

    /// Ends the running server, if any, and starts a new one; returns once it is as ready as at
    /// the session's start (null sink loaded and default, silence stream playing). When the new
    /// one fails, whatever part of it had started is ended too, and the error says which part failed.
    func restart() throws {
        lock.lock()
        defer { lock.unlock() }
        current?.stop()
        current = nil
        let before = Set(launcher.registry.all.map { ObjectIdentifier($0) })
        do {
            current = try SoundServer.start(kind, launcher: launcher, environment: environment)
        } catch {
            // Only the server's own parts: a test may launch programs of its own meanwhile.
            let parts: Set = ["pulseaudio", "pipewire", "wireplumber", "pipewire-pulse", "silence-stream"]
            for process in launcher.registry.running.reversed()
            where !before.contains(ObjectIdentifier(process)) && parts.contains(process.name) {
                process.terminate(grace: .seconds(2))
            }
            throw error
        }
    }

    /// Whether a server started by the session is running (every one of its processes).
    var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return current?.processes.allSatisfy(\.isRunning) ?? false
    }
}
