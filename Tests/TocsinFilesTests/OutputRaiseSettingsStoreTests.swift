import Foundation
import Testing
import TocsinCore
import TocsinFiles
import TocsinTestSupport

/// `output.json`: the agent's settings for raising the output, written by `tocsin config`.
@Suite("OutputRaiseSettingsStore")
struct OutputRaiseSettingsStoreTests {
    @Test("No file: the defaults (raise, to 70 %); saved and read back, as a person can read it")
    func defaultsAndRoundTrip() throws {
        try withTemporaryDirectory { directory in
            let store = OutputRaiseSettingsStore(directory: directory.appendingPathComponent("tocsin"))
            #expect(try store.load() == .standard)
            #expect(try store.load() == OutputRaiseSettings(raises: true, levelPercent: 70))
            try store.save(OutputRaiseSettings(raises: false, levelPercent: 40))
            #expect(try store.load() == OutputRaiseSettings(raises: false, levelPercent: 40))
            let text = try String(contentsOf: store.fileURL, encoding: .utf8)
            #expect(text.contains("\"raise-output\" : false") && text.contains("\"ring-level\" : 40"), "\(text)")
        }
    }

    @Test("A file written by hand with one key: the other keeps its default")
    func oneKey() throws {
        try withTemporaryDirectory { directory in
            let store = OutputRaiseSettingsStore(directory: directory)
            try Data(#"{"raise-output": false}"#.utf8).write(to: store.fileURL)
            #expect(try store.load() == OutputRaiseSettings(raises: false, levelPercent: 70))
            try Data(#"{"ring-level": 90}"#.utf8).write(to: store.fileURL)
            #expect(try store.load() == OutputRaiseSettings(raises: true, levelPercent: 90))
        }
    }

    @Test("A file that cannot be read, or holds a level outside 1–100, is an error naming it, not the defaults")
    func unreadable() throws {
        try withTemporaryDirectory { directory in
            let store = OutputRaiseSettingsStore(directory: directory)
            for text in [#"{"raise-output": fal"#, #"{"ring-level": "loud"}"#, "[]"] {
                try Data(text.utf8).write(to: store.fileURL)
                let error = #expect(throws: StoreError.self, "\(text)") { try store.load() }
                #expect(error?.message.hasPrefix("\(store.fileURL.path) could not be read (") == true, "\(String(describing: error))")
            }
            for level in [0, 101, -3] {
                try Data(#"{"ring-level": \#(level)}"#.utf8).write(to: store.fileURL)
                let error = #expect(throws: StoreError.self) { try store.load() }
                #expect(error?.message == "\(store.fileURL.path) could not be read (its ring-level, \(level), is not a percentage from 1 to 100)")
            }
        }
    }

    @Test("It lives beside phone.json and config.json, in $XDG_CONFIG_HOME/tocsin")
    func place() {
        #expect(OutputRaiseSettingsStore(directory: URL(fileURLWithPath: "/x/conf/tocsin")).fileURL.path == "/x/conf/tocsin/output.json")
        #expect(OutputRaiseSettingsStore().fileURL.deletingLastPathComponent() == PhoneSettingsStore().fileURL.deletingLastPathComponent())
    }
}
