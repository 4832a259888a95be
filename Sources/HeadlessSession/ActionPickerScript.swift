import Foundation

/// The program dunst runs as its "dmenu" when asked for its context menu (`dunstctl context`).
///
/// dunst 1.9.0 writes one line per action of every *displayed* notification to its stdin, in the
/// form `#<label> (<summary>) [<id>,<key>]` (no newline after the last line), and invokes the
/// action whose line the program prints. This script prints the line `clickAction` asked for and
/// reports what it was offered, so a failed click can say exactly what was on screen.
///
/// Files in the picker directory: `request` (written by clickAction: line 1 the required prefix,
/// line 2 the required suffix), `offered` and `picked` (written by the script), and `done`
/// (created last, so the other two are complete once it exists).
struct ActionPickerScript {
    let directory: URL

    var scriptURL: URL { directory.appendingPathComponent("pick-action.sh") }
    var requestURL: URL { directory.appendingPathComponent("request") }
    var offeredURL: URL { directory.appendingPathComponent("offered") }
    var pickedURL: URL { directory.appendingPathComponent("picked") }
    var doneURL: URL { directory.appendingPathComponent("done") }

    /// Writes the script, executable.
    func install() throws {
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scriptURL.path)
    }

    /// Removes the files of a previous click, so a stale `done` is never mistaken for a new one.
    func reset() {
        for url in [requestURL, offeredURL, pickedURL, doneURL] {
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// Asks the script to pick the line that starts with `prefix` and ends with `suffix`.
    func request(prefix: String, suffix: String) throws {
        try "\(prefix)\n\(suffix)\n".write(to: requestURL, atomically: true, encoding: .utf8)
    }

    private var script: String {
        // The directory is single-quoted; session directories never contain quotes.
        """
        #!/bin/sh
        # dunst's context menu for HeadlessSession.clickAction (see ActionPickerScript.swift).
        dir='\(directory.path)'
        offered="$dir/offered.$$"
        cat > "$offered"
        # dunst does not end the last line with a newline; add one so `read` sees it.
        printf '\\n' >> "$offered"
        prefix=$(sed -n 1p "$dir/request" 2>/dev/null)
        suffix=$(sed -n 2p "$dir/request" 2>/dev/null)
        picked=""
        if [ -n "$prefix" ] && [ -n "$suffix" ]; then
            while IFS= read -r line; do
                # Quoted parts of a case pattern match literally: labels may contain * or [.
                case "$line" in
                    "$prefix"*"$suffix") picked="$line"; break ;;
                esac
            done < "$offered"
        fi
        grep -v '^$' "$offered" > "$dir/offered.tmp.$$"
        mv "$dir/offered.tmp.$$" "$dir/offered"
        rm -f "$offered"
        printf '%s' "$picked" > "$dir/picked.$$" && mv "$dir/picked.$$" "$dir/picked"
        [ -n "$picked" ] && printf '%s\\n' "$picked"
        : > "$dir/done"
        exit 0

        """
    }
}
