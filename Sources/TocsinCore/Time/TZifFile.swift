import FoundationEssentials

/// One kind of local time a zone keeps: its offset from UTC, whether it is daylight-saving time,
/// and its abbreviation. A TZif file calls this a "local time type" (`ttinfo`).
struct LocalTimeType: Sendable, Hashable {
    /// Seconds east of UTC.
    let utcOffset: Int
    let isDaylightSaving: Bool
    /// "CEST", "EST", "+0530". Short enough to be stored inline in the `String`, without allocating.
    let abbreviation: String
}

/// The parts of a TZif file (RFC 8536, and version 4 from RFC 9636) that say what time it is:
/// transitions, local time types and the footer's POSIX rule.
///
/// Leap-second records are read past and dropped: only the usual "posix" zones (the ones in
/// /usr/share/zoneinfo, whose clocks count no leap seconds) are supported. A zone from the "right/"
/// tree parses, but its answers are off by the leap seconds counted so far.
package struct TZifFile {
    /// Transition instants in seconds since 1970, strictly ascending.
    let transitionTimes: [Int64]
    /// For each transition, the index in `localTimeTypes` of the local time that starts there.
    let transitionTypeIndexes: [UInt8]
    /// At least one; type 0 is the local time before the first transition (RFC 8536 §3.2).
    let localTimeTypes: [LocalTimeType]
    /// The footer's rule, for instants at or after the last transition; nil for a version 1 file
    /// or an empty footer.
    let footerRule: PosixTimeZoneRule?

    /// The fixed-size header before each data block: "TZif", a version byte, 15 unused bytes and
    /// six 32-bit big-endian counts.
    private struct Header {
        static let size = 44
        let version: UInt8
        let utLocalIndicatorCount: Int
        let standardWallIndicatorCount: Int
        let leapSecondCount: Int
        let transitionCount: Int
        let localTimeTypeCount: Int
        let abbreviationByteCount: Int

        /// The length of the data block this header describes, with `timeSize`-byte times (4 in
        /// the version 1 block, 8 in the version 2+ block).
        func dataBlockSize(timeSize: Int) -> Int {
            // Each count is at most 2^32 - 1, so none of this can overflow a 64-bit Int.
            transitionCount * timeSize          // transition times
                + transitionCount               // transition types
                + localTimeTypeCount * 6        // local time type records
                + abbreviationByteCount         // abbreviation characters
                + leapSecondCount * (timeSize + 4)   // leap-second records
                + standardWallIndicatorCount
                + utLocalIndicatorCount
        }
    }

    /// Reads `bytes` as a TZif file; throws a `TimeZoneRulesError` saying what is wrong with it.
    /// Never reads out of bounds: every count is checked against the file's length first.
    init(parsing bytes: [UInt8]) throws(TimeZoneRulesError) {
        let firstHeader = try Self.header(in: bytes, at: 0)
        let firstBlockStart = Header.size
        let firstBlockSize = firstHeader.dataBlockSize(timeSize: 4)
        try Self.requireBytes(firstBlockSize, in: bytes, from: firstBlockStart, describing: "the header")

        if firstHeader.version == 0 {
            // Version 1: 32-bit times and no footer; the last transition's type lasts forever.
            self = try Self.dataBlock(in: bytes, at: firstBlockStart, header: firstHeader, timeSize: 4, footerRule: nil)
            return
        }
        // Version 2+: the version 1 block is only there for old readers. Skip it and read the second
        // header and its 64-bit block, then the footer.
        let secondHeaderStart = firstBlockStart + firstBlockSize
        let secondHeader = try Self.header(in: bytes, at: secondHeaderStart)
        let secondBlockStart = secondHeaderStart + Header.size
        let secondBlockSize = secondHeader.dataBlockSize(timeSize: 8)
        try Self.requireBytes(secondBlockSize, in: bytes, from: secondBlockStart, describing: "the second (64-bit) header")
        let footerRule = try Self.footerRule(in: bytes, at: secondBlockStart + secondBlockSize)
        self = try Self.dataBlock(in: bytes, at: secondBlockStart, header: secondHeader, timeSize: 8, footerRule: footerRule)
    }

    private init(transitionTimes: [Int64], transitionTypeIndexes: [UInt8], localTimeTypes: [LocalTimeType], footerRule: PosixTimeZoneRule?) {
        self.transitionTimes = transitionTimes
        self.transitionTypeIndexes = transitionTypeIndexes
        self.localTimeTypes = localTimeTypes
        self.footerRule = footerRule
    }

    /// The footer's text, between the last two newlines of a version 2+ file; nil when `bytes` is
    /// not one or does not end with a newline. The text may be empty.
    package static func footerText(of bytes: [UInt8]) -> String? {
        guard bytes.count > Header.size, bytes.starts(with: magic), bytes[4] != 0,
              bytes.last == newline else { return nil }
        let closing = bytes.count - 1
        guard let opening = bytes[..<closing].lastIndex(of: newline), opening >= Header.size else { return nil }
        return String(decoding: bytes[(opening + 1)..<closing], as: UTF8.self)
    }

    // MARK: Reading the parts

    private static let magic: [UInt8] = Array("TZif".utf8)
    private static let newline = UInt8(ascii: "\n")

    private static func header(in bytes: [UInt8], at start: Int) throws(TimeZoneRulesError) -> Header {
        if start == 0 && bytes.isEmpty { throw TimeZoneRulesError("not a time zone file (it is empty)") }
        let available = bytes.count - start
        let prefixLength = min(available, magic.count)
        guard bytes[start..<(start + prefixLength)].elementsEqual(magic[..<prefixLength]) else {
            throw TimeZoneRulesError(start == 0
                ? "not a time zone file (it does not start with “TZif”)"
                : "invalid: the second header, at byte \(grouped(start)), does not start with “TZif”")
        }
        guard available >= Header.size else {
            throw TimeZoneRulesError(start == 0
                ? "truncated: the header needs \(Header.size) bytes, the file has \(grouped(available))"
                : "truncated: the second header needs \(Header.size) bytes, the file has \(grouped(available)) after the first data block")
        }
        let version = bytes[start + 4]
        // 0 is version 1; '2', '3' and '4' share one layout, and (as glibc does) a later digit is
        // read the same way.
        guard version == 0 || (UInt8(ascii: "2")...UInt8(ascii: "9")).contains(version) else {
            throw TimeZoneRulesError("invalid: unknown TZif version byte \(version)")
        }
        func count(_ index: Int) -> Int { Int(bigEndianUInt32(in: bytes, at: start + 20 + 4 * index)) }
        return Header(version: version,
                      utLocalIndicatorCount: count(0), standardWallIndicatorCount: count(1),
                      leapSecondCount: count(2), transitionCount: count(3),
                      localTimeTypeCount: count(4), abbreviationByteCount: count(5))
    }

    private static func requireBytes(_ needed: Int, in bytes: [UInt8], from start: Int, describing header: String) throws(TimeZoneRulesError) {
        let available = bytes.count - start
        guard needed <= available else {
            throw TimeZoneRulesError("truncated: \(header) promises \(grouped(needed)) bytes of transitions, types and abbreviations, the file has \(grouped(available)) after it")
        }
    }

    /// Reads and checks one data block whose size `requireBytes` has already checked.
    private static func dataBlock(in bytes: [UInt8], at start: Int, header: Header, timeSize: Int, footerRule: PosixTimeZoneRule?) throws(TimeZoneRulesError) -> TZifFile {
        let typeCount = header.localTimeTypeCount
        guard typeCount > 0 else { throw TimeZoneRulesError("invalid: the file defines no local time types") }
        for (name, count) in [("UT/local", header.utLocalIndicatorCount), ("standard/wall", header.standardWallIndicatorCount)]
        where count != 0 && count != typeCount {
            throw TimeZoneRulesError("invalid: \(grouped(count)) \(name) indicators for \(grouped(typeCount)) local time types (RFC 8536 wants none or one for each)")
        }

        var offset = start
        var transitionTimes: [Int64] = []
        transitionTimes.reserveCapacity(header.transitionCount)
        for index in 0..<header.transitionCount {
            let time = timeSize == 8 ? Int64(bitPattern: bigEndianUInt64(in: bytes, at: offset))
                                     : Int64(Int32(bitPattern: bigEndianUInt32(in: bytes, at: offset)))
            if let previous = transitionTimes.last, time <= previous {
                throw TimeZoneRulesError("invalid: transition \(grouped(index)) is not later than the one before it")
            }
            transitionTimes.append(time)
            offset += timeSize
        }

        let transitionTypeIndexes = Array(bytes[offset..<(offset + header.transitionCount)])
        if let bad = transitionTypeIndexes.firstIndex(where: { Int($0) >= typeCount }) {
            throw TimeZoneRulesError("invalid: transition \(grouped(bad)) refers to local time type \(transitionTypeIndexes[bad]), the file has \(grouped(typeCount))")
        }
        offset += header.transitionCount

        let recordsStart = offset
        let abbreviationsStart = recordsStart + typeCount * 6
        let abbreviationBytes = bytes[abbreviationsStart..<(abbreviationsStart + header.abbreviationByteCount)]
        var localTimeTypes: [LocalTimeType] = []
        localTimeTypes.reserveCapacity(typeCount)
        for index in 0..<typeCount {
            let record = recordsStart + index * 6
            let utcOffset = Int(Int32(bitPattern: bigEndianUInt32(in: bytes, at: record)))
            // RFC 8536: the offset SHOULD be within -25 h… +26 h (exclusive) and must not be -2^31.
            guard (-89_999...93_599).contains(utcOffset) else {
                throw TimeZoneRulesError("invalid: local time type \(index) is \(grouped(utcOffset)) seconds from UTC, outside the -89,999…93,599 RFC 8536 allows")
            }
            let daylightFlag = bytes[record + 4]
            guard daylightFlag <= 1 else {
                throw TimeZoneRulesError("invalid: local time type \(index) has daylight-saving flag \(daylightFlag) (it must be 0 or 1)")
            }
            let abbreviationIndex = Int(bytes[record + 5])
            guard abbreviationIndex < abbreviationBytes.count,
                  let end = abbreviationBytes[(abbreviationsStart + abbreviationIndex)...].firstIndex(of: 0) else {
                throw TimeZoneRulesError("invalid: local time type \(index)'s abbreviation, at character \(abbreviationIndex) of \(grouped(abbreviationBytes.count)), does not end with a NUL inside the abbreviation characters")
            }
            localTimeTypes.append(LocalTimeType(
                utcOffset: utcOffset, isDaylightSaving: daylightFlag == 1,
                abbreviation: String(decoding: abbreviationBytes[(abbreviationsStart + abbreviationIndex)..<end], as: UTF8.self)))
        }
        offset = abbreviationsStart + header.abbreviationByteCount

        // Leap-second records only matter to "right/" zones, which are not supported (see above).
        offset += header.leapSecondCount * (timeSize + 4)

        // The indicators only tell how zic's input wrote transition times; they do not change any
        // answer, but RFC 8536 requires each to be 0 or 1, so a file where they are not is damaged.
        let indicators = bytes[offset..<(offset + header.standardWallIndicatorCount + header.utLocalIndicatorCount)]
        if indicators.contains(where: { $0 > 1 }) {
            throw TimeZoneRulesError("invalid: a standard/wall or UT/local indicator is neither 0 nor 1")
        }

        return TZifFile(transitionTimes: transitionTimes, transitionTypeIndexes: transitionTypeIndexes,
                        localTimeTypes: localTimeTypes, footerRule: footerRule)
    }

    /// The footer of a version 2+ file: a newline, a POSIX TZ rule (maybe empty), a newline, and
    /// then the end of the file.
    private static func footerRule(in bytes: [UInt8], at start: Int) throws(TimeZoneRulesError) -> PosixTimeZoneRule? {
        guard start < bytes.count else {
            throw TimeZoneRulesError("truncated: the file ends where its footer (a TZ rule between two newlines) should start")
        }
        guard bytes[start] == newline else {
            throw TimeZoneRulesError("invalid: the footer, at byte \(grouped(start)), does not start with a newline")
        }
        guard let closing = bytes[(start + 1)...].firstIndex(of: newline) else {
            throw TimeZoneRulesError("truncated: the footer has no closing newline")
        }
        guard closing == bytes.count - 1 else {
            throw TimeZoneRulesError("invalid: \(grouped(bytes.count - 1 - closing)) bytes follow the footer")
        }
        let text = String(decoding: bytes[(start + 1)..<closing], as: UTF8.self)
        // RFC 8536: an empty footer says nothing about the time after the last transition.
        if text.isEmpty { return nil }
        guard let rule = PosixTimeZoneRule(text) else {
            throw TimeZoneRulesError("invalid: the footer “\(text.prefix(60))” is not a POSIX TZ rule")
        }
        return rule
    }

    private static func bigEndianUInt32(in bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func bigEndianUInt64(in bytes: [UInt8], at offset: Int) -> UInt64 {
        bytes[offset..<(offset + 8)].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// `1204` as "1,204", for error messages.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return number < 0 ? "-" + text : text
    }
}
