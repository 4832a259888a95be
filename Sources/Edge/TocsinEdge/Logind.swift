import GLibSupport

/// logind (`org.freedesktop.login1` on the system bus), as the agent follows it: its
/// `PrepareForSleep(b)` before the machine sleeps (`true`) and after it wakes (`false`).
public enum Logind {
    /// logind's name.
    public static let busName = "org.freedesktop.login1"

    /// A subscription on `connection` to `PrepareForSleep` from logind alone, calling `preparing`
    /// with its `b`; a signal with another body is said once through `faults` and ignored.
    public static func followSleep(on connection: OpaquePointer, faults: NeighbourFaults,
                                   _ preparing: @escaping (_ sleeping: Bool) -> Void) -> BusSignalSubscription {
        BusSignalSubscription(
            on: connection, sender: busName, interface: "org.freedesktop.login1.Manager", member: "PrepareForSleep",
            path: "/org/freedesktop/login1", bodyType: "(b)",
            received: { _, _, body in preparing(Variant.bool(in: body, at: 0)) },
            wrongBody: { _, type in faults.recordWrongSignal(from: "logind", signal: "PrepareForSleep", type: type, expected: "(b)") })
    }
}
