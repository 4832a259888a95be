import Foundation

/// Many alarms far in the future, as `tocsin alarm 7:00 --in-days N` would make them.
enum ManyAlarms {
    /// Schedule requests for `count` one-shot alarms at 07:00 local time, 2 to 701 days ahead.
    static func farFutureRequests(count: Int, titlePrefix: String) -> [[String: Any]] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd"
        let today = calendar.startOfDay(for: Date())
        return (0..<count).map { index in
            let day = calendar.date(byAdding: .day, value: 2 + index % 700, to: today) ?? today
            return ["kind": "alarm", "time": "07:00", "date": formatter.string(from: day), "title": "\(titlePrefix)-\(index)"]
        }
    }

    /// Rewrites the agent's state file (the agent must be stopped) so it holds `count` alarms: every
    /// entry the agent itself saved is kept and cloned with a fresh id and title until there are
    /// `count`. Only `id` and `title` change, so each clone is an alarm the agent wrote, whatever
    /// the file format is; the agent's own loading then validates them.
    ///
    /// Why not schedule 10,000 over D-Bus: it would take about 12 s of the run and tell nothing the
    /// 1,000-alarm figure and the per-call cost at 10,000 do not (a Schedule appends one line to
    /// the journal, whatever the number of alarms).
    static func expandStateFile(_ file: URL, to count: Int) throws {
        guard var document = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any],
              let saved = document["alarms"] as? [[String: Any]], !saved.isEmpty else {
            throw BenchError("\(file.path) holds no alarms to clone (expected {\"alarms\": [...]})")
        }
        var alarms = saved
        var cloneIndex = 0
        while alarms.count < count {
            var clone = saved[cloneIndex % saved.count]
            clone["id"] = UUID().uuidString
            clone["title"] = "bench-many-\(cloneIndex)"
            alarms.append(clone)
            cloneIndex += 1
        }
        document["alarms"] = Array(alarms.prefix(count))
        try JSONSerialization.data(withJSONObject: document).write(to: file, options: .atomic)
    }
}
