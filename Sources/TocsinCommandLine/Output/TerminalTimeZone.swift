import Foundation
import TocsinCore
import TocsinFiles

extension TimeZoneRules {
    /// The zone this terminal shows times in, as rules TocsinCore computes with: the zone file
    /// Foundation names for it (`TZ`, /etc/localtime), else a POSIX rule in `TZ`, else the offset
    /// Foundation reports for now.
    static let terminal: TimeZoneRules = {
        let foundationZone = TimeZone.current
        if let rules = TimeZoneRules(identifier: foundationZone.identifier) { return rules }
        if let variable = ProcessInfo.processInfo.environment["TZ"], let rules = TimeZoneRules(posixRule: variable) { return rules }
        return TimeZoneRules(secondsEast: foundationZone.secondsFromGMT())
    }()
}
