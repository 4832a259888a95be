import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import Testing

/// A message of hundreds of kilobytes from another program is noticed (so that the memory it
/// took is handed back); small ones are not, and a burst of large ones is told once until the
/// main context has had it.
@Suite(.serialized) struct LargeMessageWatchTests {
    @Test func aLargeSignalIsNoticedOnceASmallOneNot() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let peer = try StandInPeer(on: bus.address, name: "org.example.Loud") { _ in .never }
        defer { peer.stop() }
        try withOwnMainContext { context in
            let connection = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
            var noticed = 0
            let watch = LargeMessageWatch(on: connection, threshold: 256 * 1024) { noticed += 1 }
            // Only signals someone subscribed to reach the connection.
            let subscription = BusSignalSubscription(on: connection, sender: nil, interface: "org.example.Loud", member: nil, path: nil,
                                                     bodyType: "(s)", received: { _, _, _ in }, wrongBody: { _, _ in })
            runMainContext(context, for: 0.3)
            peer.emit("Small", of: "org.example.Loud", at: "/org/example/Loud", body: Variant.tuple([g_variant_new_string("hello")]))
            runMainContext(context, for: 0.5)
            #expect(noticed == 0, "a 5-byte signal was taken for a large one")
            for _ in 0..<3 {
                peer.emit("Large", of: "org.example.Loud", at: "/org/example/Loud",
                          body: Variant.tuple([g_variant_new_string(String(repeating: "x", count: 300_000))]))
            }
            runMainContext(context, for: 2) { noticed > 0 }
            runMainContext(context, for: 0.3)
            #expect((1...3).contains(noticed), "three large signals were noticed \(noticed) times")
            withExtendedLifetime((watch, subscription)) {}
        }
    }
}
