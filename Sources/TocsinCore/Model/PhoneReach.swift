import FoundationEssentials

/// Which phones an unanswered alarm can ring, from what the desk's phone services answered.
/// Two services speak KDE Connect's protocol on Linux desktops: KDE Connect's own daemon, and
/// GSConnect on GNOME; a desk normally runs one of them (both listen on the same port), so each
/// is asked, and the phones of every one that answers are rung. Pure, so the agent's log and
/// `tocsin doctor` say the same thing, and each case is tested.
public enum PhoneReach {
    /// A desk service that reaches phones.
    public enum Service: String, CaseIterable, Sendable {
        case kdeConnect = "KDE Connect"
        case gsConnect = "GSConnect"
    }

    /// A paired phone within reach, as a service knows it.
    public struct Phone: Equatable, Sendable {
        public var service: Service
        /// The service's id of the device (its D-Bus object is named after it).
        public var id: String
        /// The name the phone gives itself; its id when the service did not say.
        public var name: String
        /// The service's D-Bus object for the device.
        public var objectPath: String

        public init(service: Service, id: String, name: String, objectPath: String) {
            self.service = service
            self.id = id
            self.name = name
            self.objectPath = objectPath
        }
    }

    /// What one service answered: its paired phones within reach, or why it did not answer.
    public enum Answer: Equatable, Sendable {
        case phones([Phone])
        case noAnswer(String)
    }

    /// Why no phone can be rung. `.noService` when no service answered, `.noPhone` when one did
    /// but knows no paired phone within reach: each is logged once, and the doctor's fix differs.
    public enum Gap: Equatable, Sendable {
        case noService
        case noPhone
    }

    /// The phones to ring, or why there are none.
    public enum Outcome: Equatable, Sendable {
        case ring([Phone])
        case none(Gap, reason: String)
    }

    /// What follows from every service's answer. Phones come in the order of `Service.allCases`,
    /// then as each service listed them.
    public static func outcome(_ answers: [Service: Answer]) -> Outcome {
        var phones: [Phone] = [], answered: [Service] = [], silent: [(Service, String)] = []
        for service in Service.allCases {
            switch answers[service] {
            case .phones(let found)?:
                answered.append(service)
                phones += found
            case .noAnswer(let why)?:
                silent.append((service, why))
            case nil:
                continue
            }
        }
        if !phones.isEmpty { return .ring(phones) }
        if answered.isEmpty {
            switch silent.count {
            case 0: return .none(.noService, reason: "no phone service was asked")
            case 1: return .none(.noService, reason: "\(silent[0].0.rawValue) does not answer (\(silent[0].1))")
            default:
                let reasons = silent.map { "\($0.0.rawValue): \($0.1)" }.joined(separator: "; ")
                return .none(.noService, reason: "neither \(silent[0].0.rawValue) nor \(silent[1].0.rawValue) answers (\(reasons))")
            }
        }
        if answered.count == 1 { return .none(.noPhone, reason: "\(answered[0].rawValue) knows no paired phone within reach") }
        return .none(.noPhone, reason: "neither \(answered[0].rawValue) nor \(answered[1].rawValue) knows a paired phone within reach")
    }
}
