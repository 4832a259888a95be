// On Apple's platforms a file that imports AlarmKit (or SwiftUI) sees Foundation (`Date`, `UUID`,
// `TimeInterval`, `Locale.Weekday`) and Observation (`@Observable`) without importing them, and
// AlarmKit code relies on it. `import TocsinKit` gives the same, so such a file compiles with its
// one import changed.
@_exported import Foundation
@_exported import Observation
// App Intents' types (`LiveActivityIntent`, `@Parameter`, `IntentResult`) and
// `LocalizedStringResource` (Foundation's on Apple's platforms, which Linux's Foundation lacks:
// Tocsin's AppIntents module declares it). A file that imports AppIntents as well, as intent
// files do, compiles unchanged.
@_exported import AppIntents
// ActivityKit's `AlertConfiguration` (an alarm's sound), which AlarmKit code names after
// `import ActivityKit`; that import compiles too.
@_exported import ActivityKit
