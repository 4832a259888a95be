import Foundation
import Testing
@testable import HeadlessSession

/// Parsing of `busctl monitor --json=short` lines, with lines in the exact shape busctl 252 prints.
@Suite("Bus monitor parsing")
struct NotificationTrafficTests {
    private let notifyCall = #"{"type":"method_call","endian":"l","flags":0,"version":1,"cookie":10,"timestamp-realtime":1795978168900463,"sender":":1.4","destination":":1.1","path":"/org/freedesktop/Notifications","interface":"org.freedesktop.Notifications","member":"Notify","payload":{"type":"susssasa{sv}i","data":["TestApp",0,"dialog-warning","Title","Body",["pause","Pause","cancel","Cancel"],{"urgency":{"type":"y","data":2},"value":{"type":"i","data":40},"resident":{"type":"b","data":true},"category":{"type":"s","data":"x-tocsin.alarm"},"image-data":{"type":"(iiibiiay)","data":[1,1,4,true,8,4,[0,0,0,255]]}},-1]}}"#
    private let notifyReply = #"{"type":"method_return","endian":"l","flags":1,"version":1,"cookie":6,"reply_cookie":10,"timestamp-realtime":1795978168901483,"sender":":1.1","destination":":1.4","payload":{"type":"u","data":[7]}}"#

    private func traffic(_ lines: [String]) -> NotificationTraffic {
        var traffic = NotificationTraffic()
        for line in lines { traffic.consume(line: Substring(line)) }
        return traffic
    }

    @Test("a Notify call is paired with the reply that carries its id")
    func notifyPairedWithReply() throws {
        let parsed = traffic([notifyCall, notifyReply])
        let notification = try #require(parsed.notifications.first)
        #expect(parsed.notifications.count == 1)
        #expect(notification.id == 7)
        #expect(notification.appName == "TestApp")
        #expect(notification.appIcon == "dialog-warning")
        #expect(notification.summary == "Title")
        #expect(notification.actions.map(\.key) == ["pause", "cancel"])
        #expect(notification.actions.map(\.label) == ["Pause", "Cancel"])
        #expect(notification.urgency == 2)
        #expect(notification.value == 40)
        #expect(notification.hints["resident"] == "true")
        #expect(notification.hints["category"] == "x-tocsin.alarm")
        #expect(notification.hints["image-data"] == "[1,1,4,true,8,4,[0,0,0,255]]")
        #expect(notification.expireTimeout == -1)
        #expect(notification.sender == ":1.4")
        #expect(notification.receivedAt == Date(timeIntervalSince1970: 1_795_978_168.900463))
    }

    @Test("a call without its reply is not reported yet; a reply to another caller's cookie is ignored")
    func pendingAndForeignReplies() {
        #expect(traffic([notifyCall]).notifications.isEmpty)
        let foreign = notifyReply.replacingOccurrences(of: #""destination":":1.4""#, with: #""destination":":1.9""#)
        #expect(traffic([notifyCall, foreign]).notifications.isEmpty)
    }

    @Test("a Notify sent without expecting a reply is recorded at once, under the id it replaces (0 when it replaces none)")
    func notifyWithoutReply() throws {
        let update = notifyCall.replacingOccurrences(of: #""flags":0"#, with: #""flags":1"#)
            .replacingOccurrences(of: #""data":["TestApp",0,"#, with: #""data":["TestApp",7,"#)
        let parsed = traffic([notifyCall, notifyReply, update])
        #expect(parsed.notifications.map(\.id) == [7, 7])
        #expect(parsed.notifications.last?.replacesID == 7)
        let unanswerable = notifyCall.replacingOccurrences(of: #""flags":0"#, with: #""flags":1"#)
        #expect(traffic([unanswerable]).notifications.map(\.id) == [0])
        // A reply that should not exist does not record the call twice.
        #expect(traffic([unanswerable, notifyReply]).notifications.count == 1)
    }

    @Test("an error reply is recorded as a rejected call")
    func errorReply() {
        let error = #"{"type":"error","cookie":7,"reply_cookie":10,"sender":":1.1","destination":":1.4","error_name":"org.freedesktop.DBus.Error.InvalidArgs","payload":{"type":"s","data":["bad"]}}"#
        let parsed = traffic([notifyCall, error])
        #expect(parsed.notifications.isEmpty)
        #expect(parsed.rejectedCalls == [#""Title": org.freedesktop.DBus.Error.InvalidArgs"#])
    }

    @Test("closings and invoked actions are collected; unrelated and malformed lines are skipped")
    func closingsAndActions() {
        let close = #"{"type":"method_call","cookie":11,"timestamp-realtime":1795978176444028,"sender":":1.4","destination":":1.1","path":"/org/freedesktop/Notifications","interface":"org.freedesktop.Notifications","member":"CloseNotification","payload":{"type":"u","data":[2]}}"#
        let closed = #"{"type":"signal","cookie":12,"timestamp-realtime":1795978176445521,"sender":":1.1","destination":":1.4","path":"/org/freedesktop/Notifications","interface":"org.freedesktop.Notifications","member":"NotificationClosed","payload":{"type":"uu","data":[2,3]}}"#
        let invoked = #"{"type":"signal","cookie":13,"timestamp-realtime":1795978176445600,"sender":":1.1","destination":":1.4","path":"/org/freedesktop/Notifications","interface":"org.freedesktop.Notifications","member":"ActionInvoked","payload":{"type":"us","data":[2,"pause"]}}"#
        let unrelated = #"{"type":"signal","sender":"org.freedesktop.DBus","path":"/org/freedesktop/DBus","interface":"org.freedesktop.DBus","member":"NameOwnerChanged","payload":{"type":"sss","data":[":1.4",":1.4",""]}}"#
        let parsed = traffic([unrelated, close, "{not json org.freedesktop.Notifications", closed, invoked])
        #expect(parsed.closures.map(\.id) == [2, 2])
        #expect(parsed.closures.map(\.source) == [.closeCall, .closedSignal(reason: 3)])
        #expect(parsed.invokedActions.map(\.actionKey) == ["pause"])
        #expect(parsed.invokedActions.first?.notificationID == 2)
    }
}
