import CGLib

/// Starting a program and leaving it to run, without waiting for anything: it is started with
/// `posix_spawn` (GLib's `g_spawn_async` takes that way when the caller reaps the child) and
/// reaped by a child watch on the default main context when it ends, and it keeps none of the
/// caller's descriptors beyond the standard three.
///
/// Left to GLib to reap (without `G_SPAWN_DO_NOT_REAP_CHILD`), the start forks an intermediate
/// child and waits for it: on a busy machine the neighbour fuzzer saw the agent's loop held
/// 149 ms in that fork and 321 ms in the wait, while an alarm was due.
public enum DetachedProcess {
    /// Starts `arguments` (the program looked up in PATH unless given as a path); with
    /// `discardingOutput`, its output and errors go to /dev/null, else where the caller's go.
    public static func start(_ arguments: [String], discardingOutput: Bool = false) throws(GLibError) {
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let flags = G_SPAWN_SEARCH_PATH.rawValue | G_SPAWN_DO_NOT_REAP_CHILD.rawValue
            | (discardingOutput ? G_SPAWN_STDOUT_TO_DEV_NULL.rawValue | G_SPAWN_STDERR_TO_DEV_NULL.rawValue : 0)
        var pid: GPid = 0
        _ = try GLibError.check { error in
            argv.withUnsafeMutableBufferPointer { buffer in
                g_spawn_async(nil, buffer.baseAddress, nil, GSpawnFlags(rawValue: flags), nil, nil, &pid, error)
            }
        }
        // Reaped when it ends, whatever it ends with: nobody waits for its answer.
        g_child_watch_add(pid, { pid, _, _ in g_spawn_close_pid(pid) }, nil)
    }
}
