import Foundation
import TocsinCore

// Fuzzes DurationParser, which reads every duration typed on the command line (`tocsin timer 3m`,
// --snooze, --ring-for, --late-limit, --pre-alert, --crescendo) and what DurationFormat shows back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDurationParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    do {
        let seconds = try DurationParser.parse(text)
        guard seconds.isFinite, seconds >= 0 else { fatalError("parse(\(text.debugDescription)) = \(seconds)") }
        _ = DurationFormat.spoken(seconds)
        _ = DurationFormat.clock(seconds: CountdownClock.displayedSeconds(remaining: min(seconds, 1e15)))
        // A whole number of seconds reads back as itself.
        if seconds == seconds.rounded(), seconds < 1e12 {
            let again = try DurationParser.parse("\(Int(seconds))s")
            guard again == seconds else { fatalError("\(Int(seconds))s parsed as \(again), not \(seconds)") }
        }
    } catch {
        RequestPipeline.checkMessage(error.message)
    }
    return 0
}
