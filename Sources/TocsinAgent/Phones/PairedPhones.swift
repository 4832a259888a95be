import TocsinCore
import TocsinEdge

/// Rings the user's paired phones through every desk service that reaches them (`PhoneLink`:
/// KDE Connect's daemon, GSConnect): each is asked for its paired phones within reach, and once
/// all have answered, every phone found is asked to ring (its find-my-phone) and sent a ping
/// with the alarm's title (`PhoneReach` decides).
///
/// Nothing here waits: the ring at the desk has started before the phones are asked, and a
/// missing service, no device or one gone out of reach changes nothing there. Each kind of
/// failure is logged once, until a ring reaches a phone.
final class PairedPhones: PhoneRinging {
    private let links: [PhoneLink]
    private let log: AgentLog
    private let connection: () -> OpaquePointer?
    /// The failures already logged, by kind, so a flaky phone does not fill the log.
    private var loggedProblems: Set<String> = []
    var onRung: (Alarm) -> Void = { _ in }

    /// Phones reached through `links` on the agent's bus `connection`.
    init(links: [PhoneLink] = [KDEConnectLink(), GSConnectLink()], log: AgentLog, connection: @escaping () -> OpaquePointer?) {
        self.links = links
        self.log = log
        self.connection = connection
    }

    func ring(for alarm: Alarm) {
        guard let connection = connection() else { return }
        var answers: [PhoneReach.Service: PhoneReach.Answer] = [:]
        for link in links {
            link.findPhones(on: connection) { [weak self] answer in
                answers[link.service] = answer
                guard let self, answers.count == links.count else { return }
                ring(PhoneReach.outcome(answers), for: alarm, on: connection)
            }
        }
    }

    private func ring(_ outcome: PhoneReach.Outcome, for alarm: Alarm, on connection: OpaquePointer) {
        let phones: [PhoneReach.Phone]
        switch outcome {
        case .none(let gap, let reason):
            return problem("\(gap)", "No phone was rung for “\(alarm.title)”: \(reason).")
        case .ring(let found): phones = found
        }
        // One `onRung` for the alarm, however many phones answer.
        var told = false
        for phone in phones {
            guard let link = links.first(where: { $0.service == phone.service }) else { continue }
            link.ring(phone, on: connection) { [weak self] failure in
                guard let self else { return }
                if let failure {
                    return problem("ring \(phone.id)", "The phone \(phone.id) was not rung for “\(alarm.title)”: \(failure).")
                }
                loggedProblems.removeAll()
                log.info("Rang the phone \(phone.id) (\(phone.service.rawValue)) for “\(alarm.title)”.")
                guard !told else { return }
                told = true
                onRung(alarm)
            }
            link.ping(phone, message: "⏰ \(alarm.title)", on: connection) { [weak self] failure in
                if let failure { self?.problem("ping \(phone.id)", "The phone \(phone.id) was sent no message for “\(alarm.title)”: \(failure).") }
            }
        }
    }

    private func problem(_ kind: String, _ message: String) {
        guard loggedProblems.insert(kind).inserted else { return }
        log.warning(message)
    }
}
