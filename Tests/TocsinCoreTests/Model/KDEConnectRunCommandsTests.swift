import Foundation
import Testing
@testable import TocsinCore

// KDEConnectRunCommands.swift: reading and writing KDE Connect's run-command settings.
@Suite("KDE Connect run commands")
struct KDEConnectRunCommandsTests {
    let ours = KDEConnectRunCommands.tocsinCommands(executable: "/usr/bin/tocsin")

    @Test("Tocsin's two commands, with the program quoted when it must be")
    func tocsinCommands() {
        #expect(ours["tocsin-stop"] == .init(name: "Stop alarm", command: "/usr/bin/tocsin stop"))
        #expect(ours["tocsin-snooze"] == .init(name: "Snooze alarm", command: "/usr/bin/tocsin snooze"))
        #expect(KDEConnectRunCommands.tocsinCommands(executable: "/opt/my tools/it's/tocsin")["tocsin-stop"]?.command
                == "'/opt/my tools/it'\\''s/tocsin' stop")
    }

    @Test("Read as KDE Connect writes them (a quoted @ByteArray) and as a plain quoted string; none without the key")
    func reading() throws {
        let written = "[General]\ncommands=\"@ByteArray({\\\"a\\\":{\\\"command\\\":\\\"ls\\\",\\\"name\\\":\\\"List\\\"}})\"\n"
        #expect(try KDEConnectRunCommands.commands(inConfiguration: written) == ["a": .init(name: "List", command: "ls")])
        let plain = "[General]\ncommands=\"{\\\"b\\\":{\\\"name\\\":\\\"B\\\",\\\"command\\\":\\\"true\\\"}}\"\n"
        #expect(try KDEConnectRunCommands.commands(inConfiguration: plain) == ["b": .init(name: "B", command: "true")])
        #expect(try KDEConnectRunCommands.commands(inConfiguration: "") == [:])
        #expect(try KDEConnectRunCommands.commands(inConfiguration: "[Other]\ncommands=x\n") == [:], "only [General]'s")
        #expect(throws: StoreError.self) { try KDEConnectRunCommands.commands(inConfiguration: "[General]\ncommands=\"nonsense\"\n") }
    }

    @Test("Written back with every other line kept; read back the same")
    func writing() throws {
        let text = "[General]\nother=1\ncommands=\"@ByteArray({})\"\n\n[Later]\nx=y\n"
        let written = KDEConnectRunCommands.configuration(text, settingCommands: ours)
        #expect(written.contains("other=1") && written.contains("[Later]\nx=y"))
        #expect(written.components(separatedBy: "commands=").count == 2, "one commands line: \(written)")
        #expect(try KDEConnectRunCommands.commands(inConfiguration: written) == ours)
        let fresh = KDEConnectRunCommands.configuration("", settingCommands: ours)
        #expect(fresh.hasPrefix("[General]\ncommands=\"@ByteArray({"))
        #expect(try KDEConnectRunCommands.commands(inConfiguration: fresh) == ours)
    }
}
