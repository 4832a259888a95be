import Foundation
import TocsinCore

/// Finds the alarm a user means by an id or a unique id prefix ("3f2b" for 3f2b8c1e-…).
struct AlarmResolver {
    let client: any AgentClient

    /// The alarm `text` names, or an error saying none or several match.
    func alarm(named text: String) throws(CommandError) -> Alarm {
        let prefix = text.lowercased()
        if let id = UUID(uuidString: prefix) {
            do { return try client.alarm(id) } catch { throw CommandError(error) }
        }
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw .usage("“\(AlarmInputError.quotable(text.prefix(64)))” is not an alarm id; ids are shown by “tocsin list”.", command: nil)
        }
        let matches: [Alarm]
        do { matches = try client.alarms().filter { $0.id.uuidString.lowercased().hasPrefix(prefix) } } catch { throw CommandError(error) }
        switch matches.count {
        case 0:
            throw .refused("No alarm or timer has an id starting with “\(text)”; see “tocsin list”.")
        case 1:
            return matches[0]
        default:
            let names = matches.prefix(5).map { "\(AlarmText.shortID($0.id)) “\($0.title)”" }.joined(separator: ", ")
            throw .usage("“\(text)” matches \(matches.count) alarms (\(names)); give more of the id.", command: nil)
        }
    }
}
