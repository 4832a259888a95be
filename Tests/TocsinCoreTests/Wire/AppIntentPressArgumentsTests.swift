import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// AppIntentPressArguments.swift: the press the agent hands an application reads back as it was.
@Suite struct AppIntentPressArgumentsTests {
    @Test func aPressReadsBackAsItWasWritten() throws {
        let written = AppIntentButtons.pressArguments.encode((fixedID(9), .secondary, #"{"step":2}"#))
        #expect(written.map(\.signature) == ["s", "s", "s"])
        let read = try #require(try AppIntentButtons.pressArguments.decode(written))
        #expect(read.0 == fixedID(9) && read.1 == .secondary && read.2 == #"{"step":2}"#)
    }

    @Test func aPressThatIsNotOneIsRefused() throws {
        #expect(throws: AlarmInputError.self) {
            try AppIntentButtons.pressArguments.decode([.value(.string("3f2b")), .value(.string("stop")), .value(.string(""))])
        }
        #expect(throws: AlarmInputError.self) {
            try AppIntentButtons.pressArguments.decode([.value(.string(fixedID(9).hexText)), .value(.string("pause")), .value(.string(""))])
        }
        #expect(try AppIntentButtons.pressArguments.decode([.value(.string(fixedID(9).hexText))]) == nil)
    }
}
