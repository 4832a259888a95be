import CGLib
import GLibSupport
import TocsinCore

/// One desk service that reaches phones (KDE Connect's daemon, GSConnect), as the agent's
/// `PairedPhones` asks it. Every call is asynchronous and never starts the service; completions
/// run on the main loop. A wrong answer is the service's failure, given as the reason.
public protocol PhoneLink: AnyObject {
    /// Which service this is.
    var service: PhoneReach.Service { get }
    /// The paired phones within reach, or why the service did not answer.
    func findPhones(on connection: OpaquePointer, completion: @escaping (PhoneReach.Answer) -> Void)
    /// Makes `phone` ring (its find-my-phone); `completion` gets nil once it was asked, else why not.
    func ring(_ phone: PhoneReach.Phone, on connection: OpaquePointer, completion: @escaping (String?) -> Void)
    /// Shows `message` on `phone` (a ping); `completion` as for `ring`.
    func ping(_ phone: PhoneReach.Phone, message: String, on connection: OpaquePointer, completion: @escaping (String?) -> Void)
}

/// The one way phone links call their service: asynchronous, never starting it (NO_AUTO_START),
/// 5 s at most, the reply checked against `replyType`; `completion` gets the reply (valid only
/// during the call) or what went wrong, in words.
enum PhoneLinkCall {
    static let timeoutMilliseconds: Int32 = 5000
    /// The most phones one service may list: people pair a few; a service listing thousands is
    /// not asked to ring each.
    static let phoneLimit = 16
    /// The most bytes of a phone's id or name that are kept.
    static let textLimit = 256

    static func start(_ connection: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ method: String,
                      _ arguments: OpaquePointer?, replyType: String, completion: @escaping (Result<OpaquePointer, BusCallFailure>) -> Void) {
        BusCall.start(connection, destination: destination, path: path, interface: interface, method: method, arguments: arguments,
                      replyType: replyType, flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: timeoutMilliseconds, completion: completion)
    }

    /// `nil` for a call that was answered as asked, else what went wrong.
    static func failure(of result: Result<OpaquePointer, BusCallFailure>) -> String? {
        if case .failure(let failure) = result { return failure.description }
        return nil
    }
}
