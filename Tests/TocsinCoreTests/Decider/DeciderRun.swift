import Foundation
@testable import TocsinCore
import TocsinTestSupport

/// An `AgentState` driven through `AlarmDecider.decide` alone, as the agent drives it, with the
/// time given in seconds after `t0`: what the decider's tests use.
struct DeciderRun {
    var state: AgentState
    var book: AlarmBook { state.book }

    /// A state holding `requests`, scheduled at `t0` with ids `fixedID(1)`, `fixedID(2)`…,
    /// writing times in UTC for the "C" locale; started (`.started`) at `t0`.
    init(_ requests: AlarmRequest..., zone: TimeZoneRules = .utc) throws {
        var book = AlarmBook(timeZone: zone)
        for (index, request) in requests.enumerated() {
            _ = try book.schedule(request, id: fixedID(index + 1), now: t0)
        }
        state = AgentState(book: book, localeIdentifier: "C")
        _ = feed(.started(in: zone), at: 0)
    }

    /// The ids of the alarms scheduled by `init`, in order.
    func id(_ number: Int) -> UUID { fixedID(number) }

    /// The effects of `input` at `seconds` after `t0`.
    mutating func feed(_ input: AgentInput, at seconds: TimeInterval) -> [AgentEffect] {
        AlarmDecider.decide(&state, input, now: at(seconds))
    }

    /// Asks for `change` at `seconds` and, when the decider asks for the change to be saved,
    /// reports it saved: the effects of both, as the agent carries them out.
    mutating func ask(_ change: AlarmChange, by origin: ChangeOrigin = .press, at seconds: TimeInterval) -> [AgentEffect] {
        let asked = feed(.asked(change, by: origin), at: seconds)
        guard asked.contains(where: Self.isCommit) else { return asked }
        return asked + feed(.changeSaved, at: seconds)
    }

    /// `intent` on alarm `id` at `seconds`, as `origin` asks for it.
    mutating func perform(_ intent: AlarmIntent, on id: UUID, by origin: ChangeOrigin = .press, at seconds: TimeInterval) -> [AgentEffect] {
        ask(.perform(intent, on: id), by: origin, at: seconds)
    }

    static func isCommit(_ effect: AgentEffect) -> Bool { if case .commit = effect { true } else { false } }
}
