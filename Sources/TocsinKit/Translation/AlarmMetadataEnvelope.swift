import Foundation

/// The JSON TocsinKit stores in an alarm's `metadata`: the application's metadata wrapped with
/// the id the application chose, `{"tocsinkit": 1, "id": "…", "metadata": …}`.
///
/// The agent chooses its own ids and its `Schedule` has no way to be given one, so the caller's
/// id travels with the alarm instead. Kept by the agent, it holds across app restarts and between
/// processes of the same app (a hook that starts the app again). `relative` records that the
/// app asked for a one-shot `.relative` schedule, which the agent stores pinned to its day, so it
/// reads back the way it was written.
enum AlarmMetadataEnvelope {
    /// The envelope's format version.
    static let version = 1

    /// What TocsinKit itself reads back: the id, the schedule's form, and the app's own intents.
    struct Header: Codable {
        var tocsinkit: Int
        var id: UUID
        var relative: Bool?
        /// The application's intents, performed in its process: `stop` and `secondary`.
        var intents: [String: IntentRecord]?
    }

    private struct Envelope<Metadata: Codable>: Codable {
        var tocsinkit: Int
        var id: UUID
        var relative: Bool?
        var intents: [String: IntentRecord]?
        var metadata: Metadata?
    }

    /// The JSON for `id`, `metadata` and the app's `intents`.
    static func encode<Metadata: AlarmMetadata>(id: UUID, metadata: Metadata?, relativeOnce: Bool,
                                                intents: [String: IntentRecord] = [:]) throws(AlarmManager.AlarmError) -> String {
        let envelope = Envelope(tocsinkit: version, id: id, relative: relativeOnce ? true : nil,
                                intents: intents.isEmpty ? nil : intents, metadata: metadata)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(envelope), as: UTF8.self)
        } catch {
            throw .tocsin(.invalidArgument("The alarm's metadata cannot be encoded as JSON: \(error)."))
        }
    }

    /// The id and schedule form in `json`, if TocsinKit wrote it.
    static func header(from json: String) -> Header? {
        guard let header = try? JSONDecoder().decode(Header.self, from: Data(json.utf8)), header.tocsinkit >= 1 else { return nil }
        return header
    }

    /// The application's metadata in `json`: inside the envelope, or the whole JSON for an alarm
    /// scheduled some other way (`gdbus`, an older app).
    static func metadata<Metadata: AlarmMetadata>(as type: Metadata.Type, from json: String) -> Metadata? {
        let data = Data(json.utf8)
        if header(from: json) != nil {
            return (try? JSONDecoder().decode(Envelope<Metadata>.self, from: data))?.metadata
        }
        return try? JSONDecoder().decode(Metadata.self, from: data)
    }
}
