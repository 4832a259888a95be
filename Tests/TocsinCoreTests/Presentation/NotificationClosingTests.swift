import Testing
@testable import TocsinCore

// NotificationClosing.swift: which "dismissed by the user" closings are the user's.
@Suite("Reading a notification's dismissal")
struct NotificationClosingTests {
    static let xfceWindow = NotificationServerProfile(
        for: NotificationServerIdentity(name: "Xfce Notify Daemon", vendor: "Xfce", version: "0.7.3", capabilities: ["actions"])
    ).pressesLostToUpdates

    @Test("A closing soon after a press is the server's, whatever the server")
    func afterAPress() {
        for window in [Self.xfceWindow, nil] {
            #expect(NotificationClosing.reading(sincePress: .milliseconds(5), sinceUpdate: .milliseconds(40), sinceLostPress: nil,
                                                lostPressWindow: window) == .afterPress)
            #expect(NotificationClosing.reading(sincePress: .seconds(3), sinceUpdate: .seconds(1), sinceLostPress: nil,
                                                lostPressWindow: window) == .dismissedByUser)
        }
    }

    @Test("On xfce4-notifyd, a closing within a quarter second of an update is a lost press; later ones are the user's")
    func lostToAnUpdate() throws {
        let window = try #require(Self.xfceWindow)
        #expect(window == .milliseconds(250))
        // The lost presses measured closed 20–77 ms after the update's answer.
        for since in [20, 77, 249] {
            #expect(NotificationClosing.reading(sincePress: nil, sinceUpdate: .milliseconds(since), sinceLostPress: nil,
                                                lostPressWindow: window) == .pressLostToUpdate)
        }
        #expect(NotificationClosing.reading(sincePress: nil, sinceUpdate: .milliseconds(250), sinceLostPress: nil,
                                            lostPressWindow: window) == .dismissedByUser)
        #expect(NotificationClosing.reading(sincePress: nil, sinceUpdate: nil, sinceLostPress: nil,
                                            lostPressWindow: window) == .dismissedByUser, "never updated")
        #expect(NotificationClosing.reading(sincePress: nil, sinceUpdate: .milliseconds(30), sinceLostPress: nil,
                                            lostPressWindow: nil) == .dismissedByUser, "a server that loses no press")
    }

    @Test("A second dismissal soon after one read as a lost press is the user's")
    func dismissedAgain() {
        let window = Self.xfceWindow
        #expect(NotificationClosing.reading(sincePress: nil, sinceUpdate: .milliseconds(30), sinceLostPress: .seconds(4),
                                            lostPressWindow: window) == .dismissedByUser)
        #expect(NotificationClosing.reading(sincePress: nil, sinceUpdate: .milliseconds(30), sinceLostPress: .seconds(11),
                                            lostPressWindow: window) == .pressLostToUpdate)
    }

    @Test("Only xfce4-notifyd is known to lose presses to updates")
    func onlyXfce() {
        let families = NotificationServerFamily.allCases.filter {
            NotificationServerProfileTests.profile($0).pressesLostToUpdates != nil
        }
        #expect(families == [.xfce])
    }
}
