import Foundation
import TocsinCore

// Fuzzes the Schedule request as the agent sees it once GDBus has unpacked it: an a{sv} dictionary
// of WireValues built from structured fuzz input (known and unknown keys, every wire type, edge
// numbers, huge/markup/control-character strings), then everything the agent does with it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScheduleRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let now = RequestPipeline.now(from: &input)
    let dictionary = RequestPipeline.dictionary(from: &input, now: now)
    RequestPipeline.run(dictionary, now: now, script: &input)
    return 0
}
