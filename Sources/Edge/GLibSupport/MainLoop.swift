import CGLib
import Glibc

/// The GLib main loop everything in Tocsin runs on: D-Bus, notifications and the agent's timers.
///
/// Closures given to `post` and `after` run on the loop's thread; that is how work started on
/// another thread (libcanberra's callbacks) gets back to the agent's state.
public final class MainLoop {
    private let loop: OpaquePointer

    /// A loop on the default main context.
    public init() {
        loop = g_main_loop_new(nil, 0)
    }

    deinit {
        g_main_loop_unref(loop)
    }

    /// Runs until `quit()`.
    public func run() {
        g_main_loop_run(loop)
    }

    /// Makes `run()` return.
    public func quit() {
        g_main_loop_quit(loop)
    }

    /// Quits the loop on SIGTERM, SIGINT and SIGHUP, calling `handler` first with the signal's name.
    public func quitOnTerminationSignals(_ handler: @escaping (String) -> Void) {
        for (signal, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")] {
            let box = CallbackBox { [unowned self] in
                handler(name)
                quit()
            }
            g_unix_signal_add_full(G_PRIORITY_HIGH, signal, { userData in
                CallbackBox.from(userData).body()
                return SourceResult.keep
            }, box.retainedPointer, CallbackBox.release)
        }
    }

    /// Runs `body` on the loop's thread as soon as possible. Safe to call from any thread, and
    /// never runs `body` before returning: `g_main_context_invoke` would run it at once on the
    /// calling thread whenever it can acquire the context, which deadlocks a library calling back
    /// with its own lock held (libcanberra does).
    public static func post(_ body: @escaping () -> Void) {
        g_idle_add_full(G_PRIORITY_HIGH, { userData in
            CallbackBox.from(userData).body()
            return SourceResult.remove
        }, CallbackBox(body).retainedPointer, CallbackBox.release)
    }

    /// Runs `body` once after `seconds` (on the monotonic clock) on `context` (default: the
    /// global default context, the agent's loop) and returns a handle to cancel it.
    @discardableResult
    public static func after(seconds: Double, on context: OpaquePointer? = nil, _ body: @escaping () -> Void) -> TimeoutHandle {
        let milliseconds = guint(max(0, min(seconds * 1000, Double(Int32.max))).rounded(.up))
        let source = g_timeout_source_new(milliseconds)
        defer { g_source_unref(source) }
        g_source_set_callback(source, { userData in
            CallbackBox.from(userData).body()
            return SourceResult.remove
        }, CallbackBox(body).retainedPointer, CallbackBox.release)
        return TimeoutHandle(sourceID: g_source_attach(source, context), context: context)
    }
}

/// The main context that was the thread-default one where this was made (the agent's loop, or
/// a test's own context), for work done on another thread to come back to.
public final class ReturnContext: @unchecked Sendable {
    // @unchecked: the context is only referenced here, and attaching a source to a GLib main
    // context is safe from any thread.
    private let context: OpaquePointer

    /// The calling thread's thread-default main context.
    public init() {
        context = g_main_context_ref_thread_default()
    }

    deinit {
        g_main_context_unref(context)
    }

    /// Runs `body` on the context as soon as it can; safe to call from any thread, and never
    /// runs `body` before returning (see `MainLoop.post`).
    public func post(_ body: @escaping @Sendable () -> Void) {
        let source = g_idle_source_new()
        defer { g_source_unref(source) }
        g_source_set_priority(source, G_PRIORITY_HIGH)
        g_source_set_callback(source, { userData in
            CallbackBox.from(userData).body()
            return SourceResult.remove
        }, CallbackBox(body).retainedPointer, CallbackBox.release)
        g_source_attach(source, context)
    }
}

/// A pending `MainLoop.after` call.
public struct TimeoutHandle {
    fileprivate let sourceID: guint
    fileprivate let context: OpaquePointer?

    /// Stops the call from happening, if it has not happened yet.
    public func cancel() {
        // g_source_remove warns about an id that already ran; look it up first.
        if let source = g_main_context_find_source_by_id(context, sourceID) {
            g_source_destroy(source)
        }
    }
}

/// Carries a Swift closure through a C `gpointer`; GLib calls `release` when the source goes away.
public final class CallbackBox {
    /// The closure.
    public let body: () -> Void

    /// Boxes `body`.
    public init(_ body: @escaping () -> Void) {
        self.body = body
    }

    /// A +1 pointer for C; balanced by `release`.
    public var retainedPointer: gpointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    /// The box behind a pointer made by `retainedPointer`.
    public static func from(_ pointer: gpointer?) -> CallbackBox {
        Unmanaged<CallbackBox>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// A `GDestroyNotify` that balances `retainedPointer`.
    public static let release: GDestroyNotify = { pointer in
        Unmanaged<CallbackBox>.fromOpaque(pointer!).release()
    }
}

/// What a GLib source callback returns. `G_SOURCE_CONTINUE` expands to `TRUE`, a macro Swift
/// does not import.
public enum SourceResult {
    /// Keep the source: call again.
    public static let keep: gboolean = 1
    /// Remove the source.
    public static let remove: gboolean = 0
}
