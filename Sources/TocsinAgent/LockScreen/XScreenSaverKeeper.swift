import CGLib
import FoundationEssentials
import GLibSupport

/// Keeps xscreensaver's locked screen lit while an alarm rings, the way its manual says a
/// screen is kept from blanking: `xscreensaver-command -deactivate` issued periodically, here
/// each second.
///
/// xscreensaver takes its password dialog down after its timeout (30 s by default) and the
/// screen goes black again, whatever `-deactivate` said while the dialog was up, and it says
/// nothing of it to `-watch` (the screen stays "locked"): the agent's 10 s wakes left it dark
/// for up to 10 s of a ring (LockedScreenTests saw 3 s dark in every run with a 27 s timeout).
/// Only where xscreensaver runs on the display: `-time` is asked once as the ring starts, without
/// waiting, and the repeats start if it answers. Costs one short process a second while an alarm
/// rings, nothing otherwise.
final class XScreenSaverKeeper {
    private let program: String
    private let log: AgentLog
    private var repeating: TimeoutHandle?
    private var holding = false
    /// Counts the holds, so an answer to an earlier ring's question is not taken for this one's.
    private var generation = 0

    /// A keeper running `program` (xscreensaver-command).
    init(program: String, log: AgentLog) {
        self.program = program
        self.log = log
    }

    /// Keeps the screen lit, from now until `stop`, if xscreensaver runs.
    func start() {
        guard !holding else { return }
        holding = true
        generation += 1
        let asked = generation
        runs { [weak self] running in
            guard let self, running, holding, generation == asked else { return }
            log.info("xscreensaver runs on this display: woken each second while the alarm rings.")
            repeatDeactivate()
        }
    }

    /// Lets it blank again.
    func stop() {
        holding = false
        repeating?.cancel()
        repeating = nil
    }

    private func repeatDeactivate() {
        guard holding else { return }
        try? DetachedProcess.start([program, "-deactivate"], discardingOutput: true)
        repeating = MainLoop.after(seconds: 1) { [weak self] in self?.repeatDeactivate() }
    }

    /// Whether xscreensaver answers `-time` (it runs on this display), told without waiting.
    private func runs(_ answer: @escaping (Bool) -> Void) {
        let owned: [UnsafeMutablePointer<CChar>?] = [strdup(program), strdup("-time")]
        defer { owned.forEach { free($0) } }
        let argv: [UnsafePointer<CChar>?] = owned.map { $0.map { UnsafePointer($0) } } + [nil]
        let flags = GSubprocessFlags(rawValue: G_SUBPROCESS_FLAGS_STDOUT_SILENCE.rawValue | G_SUBPROCESS_FLAGS_STDERR_SILENCE.rawValue)
        let started: OpaquePointer?
        do throws(GLibError) {
            started = try GLibError.check { error in argv.withUnsafeBufferPointer { g_subprocess_newv($0.baseAddress, flags, error) } }
        } catch {
            answer(false)
            return
        }
        guard let process = started else { return answer(false) }
        final class Box { let answer: (Bool) -> Void; init(_ answer: @escaping (Bool) -> Void) { self.answer = answer } }
        g_subprocess_wait_check_async(process, nil, { source, result, userData in
            let box = Unmanaged<Box>.fromOpaque(userData!).takeRetainedValue()
            let succeeded = g_subprocess_wait_check_finish(OpaquePointer(source), result, nil) != 0
            g_object_unref(source)
            box.answer(succeeded)
        }, Unmanaged.passRetained(Box(answer)).toOpaque())
    }
}
