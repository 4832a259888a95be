import CGLib
import Foundation
import Synchronization

/// A GLib main loop on a private main context, run on a thread of its own until `stop()`.
///
/// GDBus delivers signals to the thread-default main context of the thread that subscribed, so
/// whatever `setUp` subscribes to is received on this thread, never on the application's own
/// GLib main loop (a GTK app's) or on Swift concurrency's threads.
///
/// `@unchecked Sendable`: the pointers are set once in `init`; the loop's thread is the only one
/// that runs the context, and other threads only attach a source to it (`stop`), which GLib
/// allows from any thread.
final class BackgroundMainLoop: @unchecked Sendable {
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let loopThread = Atomic<UInt>(0)
    /// What `setUp` made; touched on the loop's thread only.
    private var resident: AnyObject?

    /// Starts the thread `name`: it makes the new context its thread-default, calls `setUp`,
    /// keeps what `setUp` returns alive while the loop runs, then releases it on the same thread.
    ///
    /// Returns once `setUp` has returned: subscriptions it made were sent to the bus before any
    /// call the caller makes next on the same connection, so no signal that call causes is missed.
    init(name: String, setUp: @escaping @Sendable () -> AnyObject?) {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        let thread = Thread { [self] in
            run(setUp)
        }
        thread.name = name
        thread.start()
        ready.wait()
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    private func run(_ setUp: () -> AnyObject?) {
        loopThread.store(UInt(pthread_self()), ordering: .releasing)
        g_main_context_push_thread_default(context)
        resident = setUp()
        ready.signal()
        g_main_loop_run(loop)
        resident = nil
        // Releasing the subscriptions hands GLib's last callbacks for them (which release their
        // data and the bus connection) to this context: run them before leaving it.
        while g_main_context_iteration(context, 0) != 0 {}
        g_main_context_pop_thread_default(context)
        finished.signal()
    }

    /// Runs `body` on the loop's thread with what `setUp` made, once the loop has run
    /// everything already queued on its context, and returns when `body` has returned. Signals
    /// GDBus read before this call are among what was queued: GDBus queues each on the
    /// subscriber's context as it reads it. `body` runs at idle priority, after every pending
    /// source of default priority; on the loop's own thread it runs at once.
    func perform(_ body: @escaping (AnyObject?) -> Void) {
        guard UInt(pthread_self()) != loopThread.load(ordering: .acquiring) else { return body(resident) }
        final class Job {
            let run: () -> Void
            let done = DispatchSemaphore(value: 0)
            init(_ run: @escaping () -> Void) { self.run = run }
        }
        let job = Job { [self] in body(resident) }
        let source = g_idle_source_new()!
        g_source_set_priority(source, G_PRIORITY_DEFAULT_IDLE)
        g_source_set_callback(source, { job in
            let job = Unmanaged<Job>.fromOpaque(job!).takeUnretainedValue()
            job.run()
            job.done.signal()
            return 0  // G_SOURCE_REMOVE
        }, Unmanaged.passRetained(job).toOpaque(), { job in
            Unmanaged<Job>.fromOpaque(job!).release()
        })
        g_source_attach(source, context)
        g_source_unref(source)
        job.done.wait()
    }

    /// Ends the loop and, unless called from the loop's own thread, waits until the thread has
    /// released everything `setUp` made. Call it once.
    func stop() {
        // Quitting through a source of the loop's context works even before the loop has
        // started running; a direct g_main_loop_quit then would be forgotten.
        let source = g_idle_source_new()!
        g_source_set_callback(source, { loop in
            g_main_loop_quit(OpaquePointer(loop))
            return 0  // G_SOURCE_REMOVE
        }, UnsafeMutableRawPointer(loop), nil)
        g_source_attach(source, context)
        g_source_unref(source)
        if UInt(pthread_self()) != loopThread.load(ordering: .acquiring) {
            finished.wait()
        }
    }
}
