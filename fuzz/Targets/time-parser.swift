import Foundation
import TocsinCore

// Fuzzes TimeOfDayParser (times of day, dates, repeat days: `tocsin alarm 7:15pm --date … --repeat …`
// and the "time", "date" and "weekdays" keys of Schedule), the sound spelling (`--sound`, "sound")
// and application ids (IdentifyApplication, `tocsin auth`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimeParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    do {
        let time = try TimeOfDayParser.parse(text)
        guard (0...23).contains(time.hour), (0...59).contains(time.minute) else { fatalError("\(text.debugDescription) → \(time)") }
        guard try TimeOfDayParser.parse(time.description) == time else { fatalError("\(time) does not read back") }
    } catch {
        RequestPipeline.checkMessage(error.message)
    }
    do {
        let date = try TimeOfDayParser.parseDate(text)
        guard try TimeOfDayParser.parseDate(date.description) == date else { fatalError("\(date) does not read back") }
        guard LocalDate(daysSince1970: date.daysSince1970) == date else { fatalError("\(date) days do not round-trip") }
        _ = date.spoken
        _ = date.weekday
        _ = ScheduleCalculator.instant(of: date, at: try TimeOfDay(hour: 7), in: RequestPipeline.zones[1])
    } catch {
        RequestPipeline.checkMessage(error.message)
    }
    do {
        let days = try TimeOfDayParser.parseRepeat(text)
        let spelled = days.sorted().map(\.rawValue).joined(separator: ",")
        if !days.isEmpty, try TimeOfDayParser.parseRepeat(spelled) != days { fatalError("\(spelled) does not read back") }
        _ = Weekday.describe(days)
    } catch {
        RequestPipeline.checkMessage(error.message)
    }
    do {
        let sound = try AlarmSound(parsing: text)
        guard try AlarmSound(parsing: sound.description) == sound else { fatalError("\(sound) does not read back") }
    } catch {
        RequestPipeline.checkMessage(error.message)
    }
    if let app = try? AppAuthorizations.validatedAppID(text), app != text { fatalError("app id changed") }
    _ = AlarmInputError.quotable(text)
    return 0
}
