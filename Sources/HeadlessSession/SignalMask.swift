import Foundation

/// Children must start with no blocked signals.
///
/// A child inherits the signal mask of the thread that spawns it, and Foundation's `Process` does
/// not reset it. Dispatch and Swift-concurrency worker threads — where tests run — block nearly
/// every signal, so a child spawned from one ignores SIGTERM and SIGINT for its whole life
/// (measured: the session's servers only died from the SIGKILL fallback, 2 s later). The mask is
/// therefore cleared on the calling thread just for the spawn and restored right after.
enum SignalMask {
    static func withAllSignalsUnblocked<T>(_ body: () throws -> T) rethrows -> T {
        var unblocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&unblocked)
        pthread_sigmask(SIG_SETMASK, &unblocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }
}
