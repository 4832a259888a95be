import Foundation
import HeadlessSession

/// `at` (atd 3.2.5) measured in the same session: its own `atd -d`, jobs at the next minute
/// boundaries (`at` has minute granularity: `-t …hhmm.ss` drops the seconds) that write
/// `date +%s.%N` to a file, plus one job far in the future so `atd` has something pending while
/// its idle cost is counted.
///
/// The measuring jobs are queued first and run in the background while Tocsin is measured; they
/// only fork a shell and `date`, which the agent never sees.
final class AtPeer {
    /// The atd whose figures are reported: the session's own, or the machine's when one already
    /// runs (atd allows one per machine; the bench then only reads its /proc entries).
    let atdPID: Int32
    /// Who that atd is, for the table ("atd -d started in the session" or "the machine's atd").
    let atdOrigin: String
    private let session: HeadlessSession
    private let outputDirectory: URL
    /// The job numbers `at` gave, to remove what is left at the end.
    private var jobNumbers: [Int] = []
    /// Each measuring job's intended instant and its output file.
    private var jobs: [(due: Date, output: URL)] = []

    /// Starts `atd -d` and queues `count` measuring jobs (one per minute boundary, the first at
    /// least 10 s away) and one far job; throws with the reason when `at` cannot be used here.
    init(session: HeadlessSession, count: Int) throws {
        self.session = session
        outputDirectory = session.directory.appendingPathComponent("bench-at")
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        let atdExecutable: URL
        do { atdExecutable = try HeadlessSession.executable("atd") } catch {
            throw BenchError("atd is not installed (apt-get install at)")
        }
        let atd = try session.launch(atdExecutable, ["-d"])
        Thread.sleep(forTimeInterval: 0.3)
        if atd.isRunning {
            atdPID = atd.pid
            atdOrigin = "`atd -d` started in the session"
        } else {
            // atd allows one instance per machine: "Another atd already running with pid N". The jobs
            // then run through that one, which the bench measures but never touches.
            let message = atd.standardError().trimmingCharacters(in: .whitespacesAndNewlines)
            guard let match = message.firstMatch(of: /already running with pid (\d+)/), let pid = Int32(match.1),
                  ProcessActivity.residentKilobytes(of: pid) != nil else {
                throw BenchError("atd -d exited at once: \(message)")
            }
            atdPID = pid
            atdOrigin = "the machine's own atd (pid \(pid)), already running"
        }
        let now = Date().timeIntervalSince1970
        let firstMinute = ((now + 10) / 60).rounded(.up) * 60
        for index in 0..<count {
            let due = Date(timeIntervalSince1970: firstMinute + Double(index) * 60)
            let output = outputDirectory.appendingPathComponent("ran-\(index)")
            try queue("date +%s.%N > \(output.path)\n", at: due)
            jobs.append((due, output))
        }
        // The pending job for the idle measurement: tomorrow, removed at the end.
        try queue("true\n", at: Date(timeIntervalSince1970: firstMinute + 86_400))
    }

    /// The last measuring job's intended instant.
    var lastDue: Date? { jobs.last?.due }

    /// Waits (up to 5 s past the last job's minute) for the measuring jobs and returns their delays in ms.
    func collectDelays() -> [Double] {
        if let lastDue { Thread.sleep(until: lastDue.addingTimeInterval(5)) }
        return jobs.compactMap { job in
            guard let text = try? String(contentsOf: job.output, encoding: .utf8),
                  let ranAt = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
            return (ranAt - job.due.timeIntervalSince1970) * 1000
        }
    }

    /// atd's resident set size in kB.
    var residentKilobytes: Int? { ProcessActivity.residentKilobytes(of: atdPID) }

    /// Removes the jobs still queued (atd itself ends with the session).
    func removeJobs() {
        guard !jobNumbers.isEmpty, let atrm = try? HeadlessSession.executable("atrm") else { return }
        _ = try? session.run(atrm, jobNumbers.map(String.init))
    }

    /// Queues `script` with `at -f FILE -t YYYYMMDDhhmm`.
    private func queue(_ script: String, at due: Date) throws {
        let file = outputDirectory.appendingPathComponent("job-\(jobNumbers.count).sh")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyyMMddHHmm"
        let result = try session.run(try HeadlessSession.executable("at"), ["-f", file.path, "-t", formatter.string(from: due)])
        // at reports "job 12 at Sun Nov 29 20:07:00 2026" on standard error.
        guard result.succeeded, let match = result.stderr.firstMatch(of: /job (\d+) at/), let number = Int(match.1) else {
            throw BenchError("at refused the job: \(result)")
        }
        jobNumbers.append(number)
    }
}
