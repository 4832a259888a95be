import FoundationEssentials
import TocsinCore

/// Keeps the user's answers in `$XDG_STATE_HOME/tocsin/authorizations.json`.
public struct AuthorizationStore: Sendable {
    /// The file.
    public let fileURL: URL

    /// A store in `directory`.
    public init(directory: URL) {
        fileURL = directory.appendingPathComponent("authorizations.json")
    }

    /// The saved answers; none when there is no file. A file that cannot be read counts as no
    /// answers (every app is asked again), and the reason is returned so it can be logged.
    public func load() -> (AppAuthorizations, problem: String?) {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return (AppAuthorizations(), nil) }
        do {
            let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: fileURL))
            return (AppAuthorizations(file.applications, confinements: file.confinements ?? [:]), nil)
        } catch {
            return (AppAuthorizations(), "\(fileURL.path) could not be read (\(describeFileError(error))); every application will be asked again")
        }
    }

    /// Saves `authorizations` atomically.
    public func save(_ authorizations: AppAuthorizations) throws(StoreError) {
        try JSONFile.save(File(format: 1, applications: authorizations.answers,
                               confinements: authorizations.confinements.isEmpty ? nil : authorizations.confinements),
                          to: fileURL, what: "the authorizations")
    }

    /// Format 1; `confinements` came later and is optional, so older agents still read the file.
    private struct File: Codable {
        var format: Int
        var applications: [String: AuthorizationState]
        var confinements: [String: AppConfinement]?
    }
}
