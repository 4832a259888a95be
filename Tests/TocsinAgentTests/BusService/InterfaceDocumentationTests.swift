import CGLib
import Foundation
import GLibSupport
import Testing
import TocsinCore

/// The agent registers the interface built from `AlarmsInterface`; `dbus/io.github.tocsin.Alarms1.xml`
/// is what clients read. These tests hold the two to the same methods, arguments, signals and
/// properties, and the documentation to every error name and key.
@Suite struct InterfaceDocumentationTests {
    static let documentedXML: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("dbus/io.github.tocsin.Alarms1.xml"), encoding: .utf8)) ?? ""
    }()

    /// The members of interface `name` as text lines such as `method Schedule in request a{sv}`, from GIO's
    /// own parse of the XML, so formatting and comments do not matter.
    static func members(ofXML xml: String, interface name: String = AlarmsInterface.name) throws -> [String] {
        let node = try GLibError.check { g_dbus_node_info_new_for_xml(xml, $0) }
        let nodeInfo = try #require(node)
        defer { g_dbus_node_info_unref(nodeInfo) }
        let interface = try #require(g_dbus_node_info_lookup_interface(nodeInfo, name))
        var lines: [String] = []
        func arguments(_ list: UnsafeMutablePointer<UnsafeMutablePointer<GDBusArgInfo>?>?, _ direction: String) {
            var index = 0
            while let argument = list?[index] {
                lines[lines.count - 1] += " \(direction) \(String(cString: argument.pointee.name)) \(String(cString: argument.pointee.signature))"
                index += 1
            }
        }
        var index = 0
        while let method = interface.pointee.methods?[index] {
            lines.append("method \(String(cString: method.pointee.name))")
            arguments(method.pointee.in_args, "in")
            arguments(method.pointee.out_args, "out")
            index += 1
        }
        index = 0
        while let signal = interface.pointee.signals?[index] {
            lines.append("signal \(String(cString: signal.pointee.name))")
            arguments(signal.pointee.args, "arg")
            index += 1
        }
        index = 0
        while let property = interface.pointee.properties?[index] {
            lines.append("property \(String(cString: property.pointee.name)) \(String(cString: property.pointee.signature)) \(property.pointee.flags.rawValue)")
            index += 1
        }
        return lines.sorted()
    }

    @Test func documentedInterfaceMatchesTheImplementedOne() throws {
        #expect(!Self.documentedXML.isEmpty, "dbus/io.github.tocsin.Alarms1.xml could not be read")
        let documented = try Self.members(ofXML: Self.documentedXML)
        let implemented = try Self.members(ofXML: AlarmsInterface.introspectionXML)
        #expect(documented == implemented)
        #expect(implemented.count == AlarmsMethod.allCases.count + AlarmsSignal.allCases.count + 1)
    }

    @Test(arguments: AlarmsErrorName.allCases)
    func everyErrorNameIsDocumented(_ error: AlarmsErrorName) {
        #expect(Self.documentedXML.contains(error.dbusName))
    }

    @Test(arguments: AlarmWireFormat.RequestKey.allCases.map(\.rawValue) + AlarmWireFormat.AlarmKey.allCases.map(\.rawValue)
        + AlarmWireFormat.StatusKey.allCases.map(\.rawValue) + AlarmWireFormat.ApplicationKey.allCases.map(\.rawValue))
    func everyDictionaryKeyIsDocumented(_ key: String) {
        #expect(Self.documentedXML.contains("\n        \(key) ") || Self.documentedXML.contains("\n    \(key) "),
                "key \(key) has no line of its own in the XML's comments")
    }

    @Test(arguments: AlarmEvent.Kind.allCases)
    func everyEventNameIsDocumented(_ kind: AlarmEvent.Kind) {
        #expect(Self.documentedXML.contains("\"\(kind.rawValue)\""))
    }
}
