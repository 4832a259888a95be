import CGLib
import GLibSupport
import Testing
import TocsinCore
@testable import TocsinAgent

/// Who hears which signal: an application its own alarms and authorization, the command line
/// everything, a connection that never called `Watch` nothing — and what happens while the agent
/// starts waits for the watchers.
@Suite struct SignalAudienceTests {
    /// An audience over made-up connections, recording every signal sent as "destination signal
    /// first-argument".
    final class Recording {
        var apps: [String: String] = [:]
        var sent: [String] = []
        lazy var audience = SignalAudience(
            identify: { [unowned self] sender in Caller(appID: apps[sender] ?? "unknown", confinement: .unconfined, files: nil) },
            send: { [unowned self] signal, arguments, destination in
                sent.append("\(destination) \(signal.rawValue) \(Variant.string(in: arguments, at: 0))")
            })

        func announce(_ signal: AlarmsSignal, _ title: String, concerning app: String) {
            audience.announce(signal, arguments: Variant.tuple([g_variant_new_string(title)]), concerning: app)
        }
    }

    @Test func eachWatcherHearsOnlyWhatItsApplicationMaySee() {
        let recording = Recording()
        recording.apps = [":1.1": "org.example.Cook", ":1.2": "org.example.Other", ":1.3": "tocsin", ":1.4": "org.example.Silent"]
        for watcher in [":1.1", ":1.2", ":1.3"] { recording.audience.add(watcher) }
        recording.audience.open()

        recording.announce(.changed, "Cook's", concerning: "org.example.Cook")
        recording.announce(.removed, "Other's", concerning: "org.example.Other")
        recording.announce(.changed, "User's", concerning: "tocsin")
        recording.announce(.authorizationChanged, "org.example.Cook", concerning: "org.example.Cook")

        #expect(recording.sent == [
            ":1.1 Changed Cook's", ":1.3 Changed Cook's",
            ":1.2 Removed Other's", ":1.3 Removed Other's",
            ":1.3 Changed User's",
            ":1.1 AuthorizationChanged org.example.Cook", ":1.3 AuthorizationChanged org.example.Cook",
        ])
        #expect(!recording.sent.contains { $0.hasPrefix(":1.4") }, "a connection that did not call Watch heard something")
    }

    @Test func aWatcherIsIdentifiedWhenASignalIsSentAndForgottenWhenItLeaves() {
        let recording = Recording()
        recording.audience.add(":1.7")
        recording.audience.add(":1.7")
        #expect(recording.audience.count == 1, "registering twice made two watchers")
        recording.audience.open()
        recording.announce(.changed, "Before identifying", concerning: "org.example.Late")
        recording.apps[":1.7"] = "org.example.Late"
        recording.announce(.changed, "After identifying", concerning: "org.example.Late")
        recording.audience.remove(":1.7")
        recording.announce(.changed, "After leaving", concerning: "org.example.Late")

        #expect(recording.sent == [":1.7 Changed After identifying"])
    }

    @Test func signalsOfTheStartWaitForWatchersAndKeepTheirOrder() {
        let recording = Recording()
        recording.apps = [":1.1": "tocsin", ":1.2": "tocsin"]
        recording.audience.add(":1.1")
        recording.announce(.removed, "Missed while away", concerning: "tocsin")
        recording.announce(.changed, "Rang while away", concerning: "tocsin")
        recording.audience.add(":1.2")
        #expect(recording.sent.isEmpty, "a signal went out before the audience opened")

        recording.audience.open()
        recording.announce(.changed, "After the start", concerning: "tocsin")

        #expect(recording.sent == [
            ":1.1 Removed Missed while away", ":1.2 Removed Missed while away",
            ":1.1 Changed Rang while away", ":1.2 Changed Rang while away",
            ":1.1 Changed After the start", ":1.2 Changed After the start",
        ])
    }
}
