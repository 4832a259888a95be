import FoundationEssentials
import TocsinCore
import TocsinFiles

/// Tocsin's colour icon as installed, found once at start: GNOME Shell draws the icon it is
/// given by name in one colour only, and is sent the file as well (`NotificationPayload.imagePath`).
enum AppIconFile {
    /// The first of `NotificationPayload.iconFileCandidates` in the XDG data directories that can
    /// be read, as a `file://` URI; `nil` when Tocsin's icon is not installed (run from a build).
    static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        NotificationPayload.iconFileCandidates(in: XDGBaseDirectory.dataDirectories(environment: environment))
            .first { FileManager.default.isReadableFile(atPath: $0) }
            .map { URL(fileURLWithPath: $0).absoluteString }
    }
}
