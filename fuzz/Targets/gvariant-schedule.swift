import CGLib
import Foundation
import GLibSupport
import TocsinCore

// Fuzzes the Schedule request from GVariant text (what `gdbus call … Schedule "{'duration': <180>}"`
// sends): g_variant_parse as a{sv}, then the agent's own conversion (GLibSupport's
// Variant.dictionary, with nested variants, every integer type, a{ss}, arrays and tuples), then
// everything the agent does with the request. Also checks that what the agent sends back
// (Variant.make of the alarm dictionary) reads back the same, and that notification text escaped
// for a markup-reading server (g_markup_escape_text, as NotificationPresenter does) shows exactly
// the text, never markup.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGVariantSchedule(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The first line picks the clock and the script; the rest is the GVariant text.
    let split = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? -1
    var script = FuzzInput(bytes: split >= 0 ? Array(bytes[..<split]) : [])
    let text = Array(bytes[(split + 1)...]) + [0]
    var error: UnsafeMutablePointer<GError>?
    let parsed = text.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { characters in
            g_variant_parse(Variant.type("a{sv}"), characters, nil, nil, &error)
        }
    }
    if let error { g_error_free(error) }
    guard let parsed else { return 0 }
    defer { g_variant_unref(parsed) }

    let dictionary = Variant.dictionary(parsed)
    // The client's direction: what TocsinKit would send for this dictionary reads back the same.
    if !dictionary.values.contains(where: containsUnsupported) {
        let made = g_variant_ref_sink(Variant.make(dictionary: dictionary))!
        defer { g_variant_unref(made) }
        let back = Variant.dictionary(made)
        guard sameWire(.dictionary(back), .dictionary(dictionary)) else {
            fatalError("Variant.make/dictionary round trip changed \(dictionary) into \(back)")
        }
    }
    let now = RequestPipeline.now(from: &script)
    RequestPipeline.run(dictionary, now: now, script: &script)

    if let request = try? AlarmWireFormat.decodeRequest(dictionary) {
        var agent = RequestPipeline.AgentRun(state: AgentState(book: AlarmBook(timeZone: .utc), localeIdentifier: "en_US"))
        let id = UUID()
        _ = agent.feed(.asked(.schedule(request, id: id, owner: nil, confinement: .unconfined, ownerLimit: nil), by: .press), now: now)
        if let alarm = agent.state.book[id] {
            // Get/List/signals: the alarm dictionary as a GVariant, read back by the client.
            let wire = AlarmWireFormat.encode(alarm)
            let made = g_variant_ref_sink(Variant.make(dictionary: wire))!
            defer { g_variant_unref(made) }
            guard sameWire(.dictionary(Variant.dictionary(made)), .dictionary(wire)) else {
                fatalError("the alarm dictionary does not survive GVariant: \(wire)")
            }
            let writer = agent.state.contentWriter
            // Let it count down and ring, to see every notification it makes.
            var contents = [writer.liveActivity(for: alarm, at: now), writer.missedNotice(for: alarm, dueAt: now)]
            for _ in 0..<3 {
                guard let deadline = agent.state.book.nextDeadline else { break }
                for case .show(_, let content, _) in agent.feed(.timePassed, now: deadline) { contents.append(content) }
                if let ringing = agent.state.book[id], case .alerting = ringing.state { contents.append(writer.unacknowledgedNotice(for: ringing)) }
            }
            for content in contents {
                guard let content else { continue }
                checkShownLiterally(content.body)
                checkShownLiterally(content.summary)
                checkShownLiterally(alarm.title)
            }
        }
    }
    return 0
}

private func containsUnsupported(_ value: WireValue) -> Bool {
    switch value {
    case .unsupported: true
    case .dictionary(let nested): nested.values.contains(where: containsUnsupported)
    default: false
    }
}

/// Equality of wire values, where NaN equals NaN (GVariant keeps the bits).
private func sameWire(_ a: WireValue, _ b: WireValue) -> Bool {
    switch (a, b) {
    case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
    case (.dictionary(let x), .dictionary(let y)):
        x.count == y.count && x.allSatisfy { key, value in y[key].map { sameWire(value, $0) } ?? false }
    default: a == b
    }
}

/// `text` escaped as NotificationPresenter escapes bodies for servers that read markup must parse
/// as markup to exactly `text`: no element, no entity left over, nothing dropped.
private func checkShownLiterally(_ text: String) {
    guard let escaped = g_markup_escape_text(text, -1) else { fatalError("g_markup_escape_text failed") }
    defer { g_free(escaped) }
    let document = "<markup>" + String(cString: escaped) + "</markup>"
    final class Collected { var text = ""; var elements = 0 }
    let collected = Collected()
    var parser = GMarkupParser()
    parser.start_element = { _, _, _, _, userData, _ in
        Unmanaged<Collected>.fromOpaque(userData!).takeUnretainedValue().elements += 1
    }
    parser.text = { _, characters, length, userData, _ in
        let piece = String(decoding: UnsafeRawBufferPointer(start: characters, count: Int(length)), as: UTF8.self)
        Unmanaged<Collected>.fromOpaque(userData!).takeUnretainedValue().text += piece
    }
    let context = g_markup_parse_context_new(&parser, GMarkupParseFlags(rawValue: 0), Unmanaged.passUnretained(collected).toOpaque(), nil)
    defer { g_markup_parse_context_free(context) }
    var error: UnsafeMutablePointer<GError>?
    let ok = g_markup_parse_context_parse(context, document, -1, &error) != 0 && g_markup_parse_context_end_parse(context, &error) != 0
    if let error {
        let message = String(cString: error.pointee.message)
        g_error_free(error)
        fatalError("escaped text is not valid markup (\(message)): \(AlarmInputError.quotable(text))")
    }
    guard ok, collected.elements == 1, collected.text == text else {
        fatalError("escaped text shows as “\(collected.text)”, not “\(AlarmInputError.quotable(text))” (\(collected.elements) elements)")
    }
}
