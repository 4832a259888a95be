import Foundation

extension HeadlessSession {
    /// Saves a picture of the whole X screen (ImageMagick `import -window root`); the format
    /// follows the file extension, e.g. `.png`.
    public func screenshot(to url: URL) throws {
        try ensureRunning()
        try launcher.runChecked("import", ["-display", display, "-window", "root", url.path],
                                environment: environment, timeout: .seconds(20))
    }
}
