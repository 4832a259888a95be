import Foundation

/// Prints one line at once — unbuffered, so whoever watches the output (a terminal, a test) sees
/// each event as it happens.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A duration as people say it: "2 s", "9 min".
func spoken(_ seconds: TimeInterval) -> String {
    seconds < 60 ? "\(Int(seconds)) s" : "\(Int(seconds / 60)) min"
}
