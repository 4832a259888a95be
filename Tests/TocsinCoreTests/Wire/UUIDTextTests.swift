import Foundation
import Testing
@testable import TocsinCore

/// `UUID(hexText:)` and `hexText` stand in for Foundation's `UUID(uuidString:)` and
/// `uuidString.lowercased()` on the wire; they must give the same answers.
@Suite struct UUIDTextTests {
    @Test func idsReadAndWriteAsFoundationDoes() throws {
        for _ in 0..<2_000 {
            let id = UUID()
            #expect(id.hexText == id.uuidString.lowercased())
            #expect(UUID(hexText: id.uuidString) == id)
            #expect(UUID(hexText: id.hexText) == id)
        }
    }

    @Test(arguments: [
        "", "3f2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5", "3f2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5a0", "3f2b8c1e0d4a-4c1e-9a57-8f1e2d3c4b5a0",
        "3f2b8c1e-0d4a-4c1e-9a57_8f1e2d3c4b5a", "3g2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5a", " 3f2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5a",
        "3f2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5é", "{3f2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5a}", "3f2b8c1e-0d4a-4c1e-9a5-78f1e2d3c4b5a",
    ])
    func malformedIdsAreRefusedAsFoundationRefusesThem(text: String) {
        #expect(UUID(hexText: text) == nil)
        #expect(UUID(uuidString: text) == nil)
    }

    @Test func eitherCaseReads() {
        #expect(UUID(hexText: "3F2B8C1E-0D4A-4C1E-9A57-8F1E2D3C4B5A") == UUID(uuidString: "3f2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5a"))
        #expect(UUID(hexText: "3f2B8c1E-0d4A-4c1E-9a57-8F1e2D3c4B5a") == UUID(uuidString: "3F2B8C1E-0D4A-4C1E-9A57-8F1E2D3C4B5A"))
    }
}
