import CGLib

/// Starting a program and leaving it to run: GLib reaps it (`g_spawn_async` without
/// `G_SPAWN_DO_NOT_REAP_CHILD` goes through an intermediate child), and it keeps none of the
/// caller's descriptors beyond the standard three.
public enum DetachedProcess {
    /// Starts `arguments` (the program looked up in PATH unless given as a path); with
    /// `discardingOutput`, its output and errors go to /dev/null, else where the caller's go.
    public static func start(_ arguments: [String], discardingOutput: Bool = false) throws(GLibError) {
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let flags = G_SPAWN_SEARCH_PATH.rawValue | (discardingOutput ? G_SPAWN_STDOUT_TO_DEV_NULL.rawValue | G_SPAWN_STDERR_TO_DEV_NULL.rawValue : 0)
        _ = try GLibError.check { error in
            argv.withUnsafeMutableBufferPointer { buffer in
                g_spawn_async(nil, buffer.baseAddress, nil, GSpawnFlags(rawValue: flags), nil, nil, nil, error)
            }
        }
    }
}
