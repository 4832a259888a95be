import CCanberra
import Foundation
import Synchronization
import Testing
@testable import TocsinEdge

/// libcanberra's answers as values: a result code it does not define is a failure said as a
/// number (`ca_strerror` answers NULL for it), a property it refuses is its error, not a trap,
/// and a playback's end reported without the agent's box, or for another context, is dropped.
@Suite struct LibCanberraTests {
    @Test func everyResultCodeIsSaidWithoutReadingANullString() {
        #expect(CanberraResult.success.succeeded)
        #expect(CanberraResult.notFound.description == "File or data not found")
        for code: Int32 in [1, 42, -19, -20, -1000, Int32.min, Int32.max] {
            let result = CanberraResult(code: code)
            #expect(!result.succeeded && !result.isKnown)
            #expect(result.description == "libcanberra error \(code), which it does not define", "\(code): \(result)")
        }
        for code in Int32(_CA_ERROR_MAX) + 1...0 {
            #expect(CanberraResult(code: code).isKnown)
            #expect(!CanberraResult(code: code).description.isEmpty)
        }
        #expect(CanberraResult(code: Int32(CA_ERROR_DISCONNECTED)).meansConnectionBroken)
        #expect(!CanberraResult.notFound.meansConnectionBroken)
        #expect(!CanberraResult(code: -1000).meansConnectionBroken)
    }

    @Test func whatTheCallWithAPropertyListAnswersIsItsResultKnownOrNot() {
        var lists: [OpaquePointer] = []
        let refused = CanberraContext.withProperties(["media.role": "alarm", "media.filename": "/tmp/é.oga"]) { list in
            lists.append(list)
            return Int32(CA_ERROR_INVALID)
        }
        #expect(lists.count == 1)
        #expect(!refused.succeeded && refused.isKnown, "\(refused)")
        #expect(CanberraContext.withProperties([:]) { _ in 0 }.succeeded)
        let odd = CanberraContext.withProperties(["a": "b"]) { _ in 12345 }
        #expect(!odd.succeeded && !odd.isKnown && odd.description.contains("12345"))
    }

    @Test func aPlaybackEndIsDeliveredOnlyWithItsBoxAndContext() {
        let reports = Mutex<[(UInt32, CanberraResult)]>([])
        let ours = OpaquePointer(bitPattern: 0x1000)!
        let box = FinishedBox(context: ours) { id, result in reports.withLock { $0.append((id, result)) } }
        let userData = Unmanaged.passUnretained(box).toOpaque()
        CanberraContext.finished(ours, 1, 0, userData)
        CanberraContext.finished(ours, 2, -77, userData)                         // a code libcanberra does not define
        CanberraContext.finished(OpaquePointer(bitPattern: 0x2000), 3, 0, userData)  // another context's
        CanberraContext.finished(ours, 4, 0, nil)                                // no box
        CanberraContext.finished(nil, 5, 0, userData)
        let got = reports.withLock { $0 }
        #expect(got.map(\.0) == [1, 2])
        #expect(got.map(\.1) == [.success, CanberraResult(code: -77)])
        #expect(got[1].1.description.contains("-77"))
    }
}
