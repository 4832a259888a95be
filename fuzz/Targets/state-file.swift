import Foundation
import TocsinCore

// Fuzzes AlarmJSONReader, which reads the state file (alarms.json) and the journal at start-up.
// It is a fast path in front of JSONDecoder, so whatever it accepts must be exactly what
// JSONDecoder reads from the same bytes; and what it read must write and read back unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    if let change = AlarmJSONReader.change(bytes) {
        guard let decoded = try? StateFileDecoding.decoder.decode(JournalChange.self, from: Data(bytes)) else {
            fatalError("the reader accepted a line JSONDecoder refuses: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        guard decoded == change else { fatalError("the reader read \(change), JSONDecoder \(decoded)") }
        var writer = AlarmJSONWriter()
        do { try writer.write(change) } catch { fatalError("a change read back cannot be written: \(error.message)") }
        guard AlarmJSONReader.change(writer.bytes) == change else { fatalError("\(change) does not write and read back") }
    }
    if let snapshot = AlarmJSONReader.snapshot(bytes) {
        guard let decoded = try? StateFileDecoding.decoder.decode(StateFileDecoding.Shape.self, from: Data(bytes)) else {
            fatalError("the reader accepted a state file JSONDecoder refuses: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        guard decoded.format == snapshot.format, decoded.timeZone == snapshot.timeZone, decoded.alarms == snapshot.alarms else {
            fatalError("the reader and JSONDecoder read different state files")
        }
    }
    return 0
}

/// The state file as AlarmStore's JSONDecoder path reads it.
enum StateFileDecoding {
    struct Shape: Decodable {
        var format: Int
        var timeZone: String?
        var alarms: [Alarm]
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        return decoder
    }()
}
