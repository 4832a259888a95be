// AlarmKit code reads LocalizedStringResource (Foundation's on Apple's platforms) and the App
// Intents types with `import AlarmKit` alone in many files: `import TocsinKit` gives them too.
// A file that imports AppIntents as well, as intent files do, compiles unchanged.
@_exported import AppIntents
