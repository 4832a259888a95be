import Foundation
import Testing
@testable import TocsinAgent

/// `dbus/io.github.tocsin.LockScreen1.xml` is what lock screens read; `LockScreenService` registers
/// its own copy. They must describe the same members.
@Suite struct LockScreenInterfaceTests {
    @Test func theDocumentedInterfaceIsTheRegisteredOne() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let documented = try String(contentsOf: root.appendingPathComponent("dbus/io.github.tocsin.LockScreen1.xml"), encoding: .utf8)
        let members = try InterfaceDocumentationTests.members(ofXML: documented, interface: LockScreenService.interfaceName)
        #expect(members == (try InterfaceDocumentationTests.members(ofXML: LockScreenService.introspectionXML, interface: LockScreenService.interfaceName)))
        #expect(members == ["method Press in id s in button s", "property Alarms aa{sv} 1", "signal WakeDisplay"])
        for key in ["id", "title", "state", "time", "ends-at", "buttons"] {
            #expect(documented.contains("\n        \(key) "), "key \(key) has no line of its own in the XML's comments")
        }
    }
}
