import Foundation

/// The session's private X server (Xvfb), on whichever display number is free.
struct XServer {
    let process: SessionProcess
    /// The value for DISPLAY, e.g. ":3".
    let display: String

    /// Starts Xvfb and waits until `xdpyinfo` can talk to it.
    ///
    /// `-displayfd 1` makes Xvfb pick the first free display number itself (atomically, through its
    /// lock files) and print it, so parallel sessions never race for a number.
    /// `openToOtherUsers`: no access control (`-ac`), for a desktop that runs as another user.
    static func start(launcher: ChildLauncher, environment: [String: String], openToOtherUsers: Bool = false) throws -> XServer {
        let process = try launcher.launch(
            name: "Xvfb",
            executable: try ExecutableLocator.find("Xvfb", environment: environment),
            arguments: ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"] + (openToOtherUsers ? ["-ac"] : []),
            environment: environment)

        func failure(_ reason: String) -> HeadlessSessionError {
            .componentFailed(component: "Xvfb", reason: reason, stderrTail: process.standardErrorTail())
        }

        var displayNumber: Int?
        let announced = Polling.until(timeout: .seconds(10)) {
            if let text = try? String(contentsOf: process.standardOutputURL, encoding: .utf8),
               text.hasSuffix("\n") {
                displayNumber = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return displayNumber != nil || !process.isRunning
        }
        guard announced, let displayNumber else {
            throw failure(process.isRunning
                ? "did not announce a display number within 10 s"
                : "exited with status \(process.terminationStatus ?? -1) before announcing a display")
        }

        let display = ":\(displayNumber)"
        let xdpyinfo = try ExecutableLocator.find("xdpyinfo", environment: environment)
        var lastAttempt: CommandResult?
        let answering = try Polling.until(timeout: .seconds(10), interval: .milliseconds(20)) {
            guard process.isRunning else { return true }
            lastAttempt = try launcher.run(
                name: "xdpyinfo", executable: xdpyinfo, arguments: ["-display", display],
                environment: environment, timeout: .seconds(5))
            return lastAttempt?.succeeded == true
        }
        guard answering, process.isRunning else {
            throw failure(process.isRunning
                ? "xdpyinfo could not connect to \(display) within 10 s: \(lastAttempt?.stderr ?? "")"
                : "exited with status \(process.terminationStatus ?? -1) on display \(display)")
        }
        return XServer(process: process, display: display)
    }
}
