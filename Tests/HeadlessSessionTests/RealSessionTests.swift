import Foundation
import Testing
@testable import HeadlessSession

/// Every test that starts real sessions lives in a suite nested in this one, so they run one after
/// another: on a 2-core machine, several Xvfb/dunst/pulseaudio sets starting at once would make
/// the timing-sensitive sound checks flaky. Pure unit suites run in parallel with it.
@Suite(.serialized)
struct RealSessionTests {}

/// Programs the tests drive inside a session.
enum Tool {
    static func path(_ name: String) throws -> URL { try HeadlessSession.executable(name) }
    static let bell = URL(fileURLWithPath: "/usr/share/sounds/freedesktop/stereo/bell.oga")
}

/// Whether `pid` still refers to a live (non-zombie) process.
func processIsAlive(_ pid: Int32) -> Bool {
    ProcessIdentity.current(pid: pid) != nil
}

/// Live processes whose environment mentions `directory`. Every child of a session, including
/// grandchildren the session never saw (pulseaudio under its wrapper shell), has HOME there.
func processesUsing(_ directory: URL) -> [Int32] {
    processesMentioning(directory.path)
}

/// Live processes whose environment contains `text`.
func processesMentioning(_ text: String) -> [Int32] {
    let needle = Data(text.utf8)
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
        guard processIsAlive(pid), let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else {
            return false
        }
        return environ.range(of: needle) != nil
    }
}
