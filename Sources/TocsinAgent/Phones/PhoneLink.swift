import TocsinCore

/// One desk service that reaches phones (KDE Connect's daemon, GSConnect), as `PairedPhones`
/// asks it. Every call is asynchronous and never starts the service; completions run on the
/// main loop.
protocol PhoneLink: AnyObject {
    var service: PhoneReach.Service { get }
    /// The paired phones within reach, or why the service did not answer.
    func findPhones(on connection: OpaquePointer, completion: @escaping (PhoneReach.Answer) -> Void)
    /// Makes `phone` ring (its find-my-phone); `completion` gets nil once it was asked, else why not.
    func ring(_ phone: PhoneReach.Phone, on connection: OpaquePointer, completion: @escaping (String?) -> Void)
    /// Shows `message` on `phone` (a ping); `completion` as for `ring`.
    func ping(_ phone: PhoneReach.Phone, message: String, on connection: OpaquePointer, completion: @escaping (String?) -> Void)
}
