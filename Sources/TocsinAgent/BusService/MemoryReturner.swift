import CGLib
import CMalloc
import Glibc
import GLibSupport

/// Hands memory freed after a burst of work back to the system.
///
/// glibc's allocator keeps freed heap pages for later: after loading 10,000 alarms the agent held
/// 46 MB, 37 MB once trimmed. A `malloc_trim` shortly after such a burst (loading the book, a
/// large `List`) returns those pages, so an agent that sits idle for days holds what its alarms
/// need. Trimming costs a few milliseconds, so it runs once per burst, a moment after the last
/// large piece of work, never per call.
public final class MemoryReturner {
    /// Makes GLib allocate its small blocks (every GVariant, every GSource) with malloc, by
    /// starting the agent again with `G_SLICE=always-malloc` if it is not set. Call first thing
    /// in `main`; it returns only when nothing needs doing (or the restart failed).
    ///
    /// GLib before 2.76 keeps freed slices in per-thread magazines and never gives them back:
    /// answering one `List` of 10,000 alarms left 62 MB of slices behind for good (Debian 12 ships
    /// 2.74). With malloc the same memory goes back to the heap, where `malloc_trim` returns it.
    /// GLib reads `G_SLICE` in a library constructor, before `main`, so setting it now is too
    /// late for this process; `g_slice_set_config` refuses for the same reason. One `exec` at
    /// start-up (a few milliseconds) is the only way left. Newer GLib allocates slices with
    /// malloc anyway, and a `G_SLICE` the user set is left alone.
    public static func routeGLibSlicesThroughMalloc() {
        guard glib_major_version == 2, glib_minor_version < 76, getenv("G_SLICE") == nil else { return }
        setenv("G_SLICE", "always-malloc", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        // Only reached if exec failed: run on with the magazines rather than not at all.
        unsetenv("G_SLICE")
    }

    /// Makes every thread allocate from the main heap, the one `malloc_trim` gives back whole.
    /// Call first thing in `main`, before any thread starts.
    ///
    /// Otherwise glibc gives each further thread that allocates an arena of its own.
    /// `malloc_trim` returns the free pages inside such an arena but not the free space at its
    /// end, and after a large reply glibc raises its trim threshold, so that space stays: in 9
    /// of 25 bench runs, 8 MB of alarm data from the `List` replies of 10,000 alarms stayed
    /// resident in a thread's arena 2 s after the trim (33 MB instead of 25); in none of 17
    /// runs since. The agent's few threads rarely allocate at the same time, so sharing one arena
    /// costs no waiting worth measuring.
    public static func allocateFromOneArena() {
        mallopt(M_ARENA_MAX, 1)
    }

    private var pending: TimeoutHandle?
    /// How long after the last large piece of work to trim: long enough that a client listing
    /// repeatedly (a `watch` reconnecting, a script) does not trim between calls.
    private static let delay = 1.0

    /// Trims once the agent has been free of large work for `delay` seconds.
    func returnFreedMemorySoon() {
        pending?.cancel()
        pending = MainLoop.after(seconds: Self.delay) { [unowned self] in
            pending = nil
            malloc_trim(0)
        }
    }
}
