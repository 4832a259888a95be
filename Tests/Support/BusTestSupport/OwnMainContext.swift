import CGLib
import Foundation

/// Runs `body` with a GLib main context of its own, made the calling thread's default while
/// `body` runs, so that what `body` sets up (GDBus subscriptions, fd sources) dispatches there —
/// not on the process's default context, which tests running beside it share.
public func withOwnMainContext<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
    let context = g_main_context_new()!
    g_main_context_push_thread_default(context)
    defer {
        g_main_context_pop_thread_default(context)
        g_main_context_unref(context)
    }
    return try body(context)
}

/// Dispatches everything pending on `context`, again every 5 ms, until `condition` holds or
/// `seconds` pass; returns the last value of `condition`.
@discardableResult
public func runMainContext(_ context: OpaquePointer, for seconds: Double, until condition: () -> Bool = { false }) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() && Date() < deadline {
        while g_main_context_iteration(context, 0) != 0 {}
        Thread.sleep(forTimeInterval: 0.005)
    }
    return condition()
}
