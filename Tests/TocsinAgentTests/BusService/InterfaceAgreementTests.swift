import Foundation
import Testing
import TocsinCore

/// `AlarmsInterface`'s table (what the agent and TocsinKit encode and decode with), the
/// introspection XML in `dbus/` (what other clients read) and tocsind(1) describe the same
/// methods, arguments, signals and errors: any one that drifts fails here, naming the difference.
@Suite struct InterfaceAgreementTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theXMLSaysWhatTheTableSays() throws {
        let xml = try DocumentedInterface(xml: Self.read("dbus/io.github.tocsin.Alarms1.xml"))
        let differences = xml.differences(from: .table, "the XML", "the table")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test func theManPageSaysWhatTheTableSays() throws {
        let manPage = try DocumentedInterface(manPage: Self.read("man/tocsind.1"))
        let differences = manPage.differences(from: .table, "tocsind(1)", "the table")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    /// The comparison itself can fail: a document with one method's errors changed is caught.
    @Test func aDocumentThatDriftsIsCaught() throws {
        let text = try Self.read("man/tocsind.1")
        let drifted = text.replacingOccurrences(of: "Removes the alarm, in any state.\nErrors: NotFound, InvalidArgument, StorageFailed.",
                                                with: "Removes the alarm, in any state.\nErrors: NotFound, StorageFailed.")
        #expect(drifted != text, "the sentence this test changes is no longer in tocsind(1)")
        let differences = try DocumentedInterface(manPage: drifted).differences(from: .table, "tocsind(1)", "the table")
        #expect(differences.count == 1 && differences.first?.hasPrefix("Cancel:") == true, "\(differences)")
        #expect(throws: DocumentedInterface.Unreadable.self) {
            try DocumentedInterface(manPage: text.replacingOccurrences(of: "Errors: NotFound, InvalidArgument.", with: "Errors: NotFund, InvalidArgument."))
        }
    }
}
