import Testing
@testable import TocsinCore

@Suite struct GSConnectServiceTests {
    @Test("Devices are read from GetManagedObjects: only objects with the device interface, missing properties as false")
    func devices() {
        let base = GSConnectService.objectPath + "/Device/"
        let objects: [String: [String: [String: WireValue]]] = [
            base + "b_2": [GSConnectService.deviceInterface: ["Id": .string("b-2"), "Name": .string("Pixel"), "Connected": .bool(true), "Paired": .bool(true)]],
            base + "a_1": [GSConnectService.deviceInterface: ["Paired": .bool(true)], "org.gtk.Actions": [:]],
            GSConnectService.objectPath: ["org.freedesktop.DBus.ObjectManager": [:]],
        ]
        #expect(GSConnectService.devices(inManagedObjects: objects) == [
            .init(path: base + "a_1", id: "a_1", name: "a_1", isConnected: false, isPaired: true),
            .init(path: base + "b_2", id: "b-2", name: "Pixel", isConnected: true, isPaired: true),
        ])
    }

    @Test("Tocsin's run commands are added and removed beside the user's; an entry it could not write back refuses the change")
    func runCommands() throws {
        let ours = KDEConnectRunCommands.tocsinCommands(executable: "/usr/bin/tocsin")
        let mine: [String: WireValue] = ["1f0c": .stringMap(["name": "Lock", "command": "loginctl lock-session"])]
        let added = try GSConnectService.updating(mine, with: ours, removing: false)
        #expect(added == mine.merging([
            "tocsin-stop": .stringMap(["name": "Stop alarm", "command": "/usr/bin/tocsin stop"]),
            "tocsin-snooze": .stringMap(["name": "Snooze alarm", "command": "/usr/bin/tocsin snooze"]),
        ]) { $1 })
        #expect(try GSConnectService.updating(added, with: ours, removing: true) == mine)
        #expect(throws: StoreError.self) { try GSConnectService.updating(["odd": .string("x")], with: ours, removing: false) }
        #expect(GSConnectService.runCommandSettingsPath(of: "b-2") == "/org/gnome/shell/extensions/gsconnect/device/b-2/plugin/runcommand/")
    }
}
