import CGLib

/// One D-Bus method call to another program that does not wait, and whose answer is checked
/// before anyone reads it: the call states the reply type it expects and GDBus compares the
/// answer with it, so a reply of another shape (no value where one was due, a string for a
/// number, extra values) is a `BusCallFailure`, never a child taken from a tuple that lacks it.
///
/// It is how the agent asks peers that may be slow, busy, buggy or gone (a media player, the
/// notification server, a locker, KDE Connect) without holding up the main loop.
public enum BusCall {
    private final class ReplyBox {
        let expected: String
        let completion: (Result<OpaquePointer, BusCallFailure>) -> Void
        init(_ expected: String, _ completion: @escaping (Result<OpaquePointer, BusCallFailure>) -> Void) {
            self.expected = expected
            self.completion = completion
        }
    }

    /// Calls `interface.method` of `destination` at `path` with `arguments` (a floating tuple,
    /// or `nil`), with `flags` and a timeout of `timeoutMilliseconds`, expecting a reply of
    /// `replyType` (a tuple type such as `"(v)"`, or `"()"` for none). `completion` runs on the
    /// calling thread's thread-default main context with the reply, which is of `replyType` and
    /// valid during the completion only, or with what went wrong. A call that cannot be made (a
    /// name or path taken from another program that D-Bus does not allow, which GDBus would
    /// drop without ever calling back) fails before `start` returns.
    public static func start(_ connection: OpaquePointer, destination: String, path: String, interface: String, method: String,
                             arguments: OpaquePointer?, replyType: String, flags: GDBusCallFlags, timeoutMilliseconds: Int32,
                             completion: @escaping (Result<OpaquePointer, BusCallFailure>) -> Void) {
        guard g_dbus_is_name(destination) != 0, g_variant_is_object_path(path) != 0,
              g_dbus_is_interface_name(interface) != 0, g_dbus_is_member_name(method) != 0 else {
            if let arguments { g_variant_unref(g_variant_ref_sink(arguments)) }
            return completion(.failure(.wrongValue(message: "no call can go to \(BusCallFailure.bounded(destination)) at \(BusCallFailure.bounded(path))")))
        }
        g_dbus_connection_call(
            connection, destination, path, interface, method, arguments, Variant.type(replyType), flags, timeoutMilliseconds, nil,
            { source, result, userData in
                let box = Unmanaged<ReplyBox>.fromOpaque(userData!).takeRetainedValue()
                let reply: OpaquePointer?
                do throws(GLibError) {
                    reply = try GLibError.check { g_dbus_connection_call_finish(OpaquePointer(source), result, $0) }
                } catch {
                    return box.completion(.failure(BusCallFailure(error, expected: box.expected)))
                }
                // GDBus gives a reply of the stated type or an error; never nothing, but a
                // missing reply is read as the wrong one rather than trusted.
                guard let reply else { return box.completion(.failure(.wrongType(expected: box.expected, message: "no reply value"))) }
                defer { g_variant_unref(reply) }
                box.completion(.success(reply))
            },
            Unmanaged.passRetained(ReplyBox(replyType, completion)).toOpaque())
    }
}

extension BusCall {
    /// The same call, waited for: for the command line and TocsinKit's synchronous members,
    /// which may wait (never the agent, which must not). Returns the reply, of `replyType`, which
    /// the caller must `g_variant_unref`, or what went wrong; waits `timeoutMilliseconds` at most.
    public static func waitingForReply(_ connection: OpaquePointer, destination: String, path: String, interface: String, method: String,
                                       arguments: OpaquePointer?, replyType: String, flags: GDBusCallFlags,
                                       timeoutMilliseconds: Int32) -> Result<OpaquePointer, BusCallFailure> {
        guard g_dbus_is_name(destination) != 0, g_variant_is_object_path(path) != 0,
              g_dbus_is_interface_name(interface) != 0, g_dbus_is_member_name(method) != 0 else {
            if let arguments { g_variant_unref(g_variant_ref_sink(arguments)) }
            return .failure(.wrongValue(message: "no call can go to \(BusCallFailure.bounded(destination)) at \(BusCallFailure.bounded(path))"))
        }
        do throws(GLibError) {
            let reply = try GLibError.check {
                g_dbus_connection_call_sync(connection, destination, path, interface, method, arguments, Variant.type(replyType), flags,
                                            timeoutMilliseconds, nil, $0)
            }
            guard let reply else { return .failure(.wrongType(expected: replyType, message: "no reply value")) }
            return .success(reply)
        } catch {
            return .failure(BusCallFailure(error, expected: replyType))
        }
    }
}

/// How a call to another program on the bus did not get the answer it asked for: each way a
/// neighbour can fail, named, so that none traps and the log can say which.
public enum BusCallFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer within the call's timeout: the neighbour is frozen, busy, or never answers.
    case timedOut
    /// Nobody owns the name, or its owner left the bus before it answered.
    case absent(message: String)
    /// It answered with a D-Bus error.
    case errorReply(name: String, message: String)
    /// It answered with a reply that is not of the type the call stated (GDBus checked it).
    case wrongType(expected: String, message: String)
    /// The reply had the stated type, but a value in it is not one its protocol allows (a
    /// variant holding another type, a status the protocol does not name).
    case wrongValue(message: String)
    /// The agent's own connection is closed or could not be made.
    case noConnection(message: String)

    /// How many characters of a neighbour's text (an error's name or message) a failure keeps:
    /// enough to tell what went wrong, not a 5 kB message in every line of the log.
    public static let textLimit = 200

    /// The failure GDBus reported as `error` for a call that expected `expected`.
    public init(_ error: GLibError, expected: String) {
        let message = Self.bounded(error.message)
        if error.isTimeout {
            self = .timedOut
        } else if let name = error.remoteName {
            switch name {
            case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner", "org.freedesktop.DBus.Error.NoReply":
                self = .absent(message: message)
            default:
                self = .errorReply(name: Self.bounded(name), message: message)
            }
        } else if error.isInvalidArgument {
            self = .wrongType(expected: expected, message: message)
        } else if error.isClosed {
            self = .noConnection(message: message)
        } else {
            self = .errorReply(name: "", message: message)
        }
    }

    /// A short name of the kind of failure, the same for every call that failed this way: what
    /// a log that says each kind once per neighbour counts by.
    public var kind: String {
        switch self {
        case .timedOut: "no answer in time"
        case .absent: "not on the bus"
        case .errorReply: "an error"
        case .wrongType: "a reply of another type"
        case .wrongValue: "a value its protocol does not allow"
        case .noConnection: "no connection"
        }
    }

    public var description: String {
        switch self {
        case .timedOut: "no answer in time"
        case .absent(let message): "not on the bus (\(message))"
        case .errorReply(let name, let message): name.isEmpty ? message : "\(name): \(message)"
        case .wrongType(let expected, let message): "a reply of another type than \(expected) (\(message))"
        case .wrongValue(let message): message
        case .noConnection(let message): "no connection (\(message))"
        }
    }

    /// `text` cut to `textLimit` characters.
    public static func bounded(_ text: String) -> String {
        text.count <= textLimit ? text : String(text.prefix(textLimit)) + "…"
    }
}
