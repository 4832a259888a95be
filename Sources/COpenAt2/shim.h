// openat2(2), which resolves a path inside a directory as if it were the root (RESOLVE_IN_ROOT):
// how the agent opens a file the way a sandboxed caller sees it, through the caller's root
// directory. glibc 2.36 (Debian 12) has no wrapper for it, so this calls the system call.
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

// O_PATH is hidden behind _GNU_SOURCE, which Swift's Glibc module is built without.
#ifndef O_PATH
#define O_PATH 010000000
#endif

/// An O_PATH descriptor of the directory `path` leads to (following a /proc/PID/root link):
/// something to resolve paths from, not to read; -1 with errno set on failure.
static inline int tocsin_open_directory_path(const char *path) {
    return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/// openat2 with `flags` and `resolve`; -1 with errno set on failure (ENOSYS before Linux 5.6).
static inline int tocsin_openat2(int directory, const char *path, unsigned long long flags, unsigned long long resolve) {
    struct open_how how = { .flags = flags, .mode = 0, .resolve = resolve };
    return (int)syscall(SYS_openat2, directory, path, &how, sizeof how);
}
