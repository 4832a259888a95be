import Foundation
import HeadlessSession

/// Makes many D-Bus calls to the agent from one client process (bench/Helpers/tocsin-dbus.py, GDBus
/// through Debian's python3-gi) and returns what each call took.
struct BulkDBusClient {
    /// What one run of the helper did.
    struct Outcome: Decodable {
        /// Ids returned by Schedule, in request order (failed calls have none).
        let ids: [String]
        /// Each call's round trip, in seconds.
        let callSeconds: [Double]
        /// From the first call to the last reply, in seconds.
        let totalSeconds: Double
        /// The agent's error messages, if any call failed.
        let errors: [String]
    }

    let session: HeadlessSession
    let helperScript: URL
    /// The application id the helper declares (IdentifyApplication); the bench grants it with
    /// `tocsin auth grant`, as a user would once answer the agent's question.
    static let appID = "io.github.tocsin.Bench"
    /// Debian's interpreter: python3-gi is installed for it, not for any other python3 on PATH.
    let python = URL(fileURLWithPath: "/usr/bin/python3")
    private let scratch: URL

    init(session: HeadlessSession, helperScript: URL) {
        self.session = session
        self.helperScript = helperScript
        scratch = session.directory.appendingPathComponent("bench-requests")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    /// Whether the helper can run here (python3 with PyGObject).
    func availabilityProblem() -> String? {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return "/usr/bin/python3 is missing" }
        guard let result = try? session.run(python, ["-c", "from gi.repository import Gio"], timeout: .seconds(20)),
              result.succeeded else { return "python3-gi is not installed (apt-get install python3-gi)" }
        return nil
    }

    /// Calls Schedule once per request, in order, on one connection.
    func schedule(_ requests: [[String: Any]], timeout: Duration = .seconds(600)) throws -> Outcome {
        let file = scratch.appendingPathComponent("requests-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: requests).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try invoke(["schedule", file.path], timeout: timeout)
    }

    /// Calls `method` (Stop, Cancel…) once for each id.
    @discardableResult
    func call(_ method: String, ids: [String], timeout: Duration = .seconds(120)) throws -> Outcome {
        guard !ids.isEmpty else { return Outcome(ids: [], callSeconds: [], totalSeconds: 0, errors: []) }
        return try invoke(["call", method] + ids, timeout: timeout)
    }

    /// Calls GetStatus `count` times.
    func status(count: Int, timeout: Duration = .seconds(60)) throws -> Outcome {
        try invoke(["status", String(count)], timeout: timeout)
    }

    private func invoke(_ arguments: [String], timeout: Duration) throws -> Outcome {
        let result = try session.run(python, [helperScript.path, "--app-id", Self.appID] + arguments, timeout: timeout)
        guard result.succeeded, let outcome = try? JSONDecoder().decode(Outcome.self, from: Data(result.stdout.utf8)) else {
            throw BenchError("the D-Bus helper failed (\(arguments.first ?? "")): \(result)")
        }
        return outcome
    }
}
