// swift-tools-version:6.2
import PackageDescription

// Layering (see docs/ARCHITECTURE.md):
//   TocsinCore      pure Swift: model, state machine, the decider, parsing, file formats. No C module, no I/O.
//   TocsinFiles     Tocsin's files (alarms' snapshot and journal, settings, answers) and the zone files.
//   CGLib           GLib/GIO: GDBus (the D-Bus service and client, notifications), GSettings, fd sources.
//   CCanberra       libcanberra.
//   CPulse          libpulse and its GLib main loop.
//   CNotify         libnotify: the agent's notifications.
//   CTimerFD        <sys/timerfd.h>, which Swift's Glibc module leaves out.
//   CMalloc         <malloc.h> (malloc_trim), likewise.
//   COpenAt2        openat2(2), which glibc does not wrap: files opened as a sandboxed caller sees them.
//   CSpawn          glibc's posix_spawn extensions (close inherited descriptors, change directory).
//   GLibSupport     Swift wrappers over GLib shared by the agent and the client (GVariant, errors, main loop,
//                   calls and signals whose types are checked). Sources/Edge, with TocsinEdge.
//   TocsinEdge      the agent's conversations with other programs, one typed adapter per peer protocol or
//                   C library (Sources/Edge/TocsinEdge); a wrong answer is a named failure, never a trap.
//   TocsinAgent     the agent's adapters (D-Bus service, notifications, ringer, hooks, timers) and their wiring.
//   tocsind         the agent executable: a few lines over TocsinAgent.
//   TocsinKit       the client library (talks to the agent over D-Bus), shaped like AlarmKit.
//   AppIntents, ActivityKit  the parts of Apple's App Intents and ActivityKit that AlarmKit code
//                   names (LiveActivityIntent, @Parameter, AlertConfiguration), re-exported by TocsinKit.
//   TocsinCommandLine  the command-line interface over TocsinKit: parsing, the commands, their output.
//   tocsin          the command-line executable: a few lines over TocsinCommandLine.
//   HeadlessSession a private desktop session (D-Bus, Xvfb + dunst, PulseAudio null sink) for tests and the demo.
//   tocsin-demo     the live demo: a short cooking timer, run on the real desktop or a headless session.
//   cooking-app     Examples/: a recipe of timed steps written with TocsinKit, as an iOS app would use AlarmKit.
//   chime-*         Tests/PortedApp: an iPhone alarm app's AlarmKit code with its imports changed, built three ways.
//   tocsin-bench    benchmarks against `at`, `sleep; notify-send` and KAlarm (bench/).
//   TocsinTestSupport  fixtures the unit tests share (Tests/Support).
let package = Package(
    name: "Tocsin",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tocsind", targets: ["tocsind"]),
        .executable(name: "tocsin", targets: ["tocsin"]),
        .executable(name: "tocsin-demo", targets: ["tocsin-demo"]),
        .executable(name: "tocsin-bench", targets: ["tocsin-bench"]),
        .library(name: "TocsinKit", targets: ["TocsinKit"]),
    ],
    targets: [
        .target(name: "TocsinCore"),
        // Tocsin's files: the alarms' state and journal, the settings, the answers, the system's zone files.
        .target(name: "TocsinFiles", dependencies: ["TocsinCore"]),
        .systemLibrary(
            name: "CGLib",
            pkgConfig: "gio-unix-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        .systemLibrary(
            name: "CCanberra",
            pkgConfig: "libcanberra",
            providers: [.apt(["libcanberra-dev"])]
        ),
        .systemLibrary(
            name: "CPulse",
            pkgConfig: "libpulse-mainloop-glib",
            providers: [.apt(["libpulse-dev"])]
        ),
        .systemLibrary(
            name: "CNotify",
            pkgConfig: "libnotify",
            providers: [.apt(["libnotify-dev"])]
        ),
        .systemLibrary(name: "CTimerFD"),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "COpenAt2"),
        .systemLibrary(name: "CSpawn"),
        .target(name: "GLibSupport", dependencies: ["CGLib", "TocsinCore"], path: "Sources/Edge/GLibSupport"),
        // The agent's conversations with other programs: one typed adapter per peer protocol or C library.
        .target(name: "TocsinEdge", dependencies: ["TocsinCore", "GLibSupport", "CGLib", "CPulse", "CCanberra"], path: "Sources/Edge/TocsinEdge"),
        .target(name: "TocsinAgent", dependencies: ["TocsinCore", "TocsinFiles", "TocsinEdge", "GLibSupport", "CGLib", "CNotify", "CTimerFD", "CMalloc", "COpenAt2"]),
        .executableTarget(name: "tocsind", dependencies: ["TocsinAgent", "TocsinCore"]),
        .target(name: "AppIntents"),
        .target(name: "ActivityKit"),
        .target(name: "TocsinKit", dependencies: ["AppIntents", "ActivityKit", "TocsinCore", "GLibSupport", "CGLib"]),
        .target(name: "TocsinCommandLine", dependencies: ["TocsinKit", "TocsinCore", "TocsinFiles", "GLibSupport", "CGLib"]),
        .executableTarget(name: "tocsin", dependencies: ["TocsinCommandLine"]),
        .target(name: "HeadlessSession", dependencies: ["CSpawn"]),
        .executableTarget(name: "tocsin-demo", dependencies: ["HeadlessSession"]),
        .executableTarget(name: "cooking-app", dependencies: ["TocsinKit"], path: "Examples/CookingApp"),
        // AlarmKit code as Apple writes it, in Swift 5 mode as an Xcode app target: it must build.
        .executableTarget(name: "alarmkit-style", dependencies: ["TocsinKit"], path: "Tests/AlarmKitStyle",
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        // The same in Swift 6 mode, as a Swift 6 app target writes it.
        .executableTarget(name: "alarmkit-style-6", dependencies: ["TocsinKit"], path: "Tests/AlarmKitStyleSwift6"),
        // Chime (Tests/PortedApp), an iPhone alarm and timer app's AlarmKit code with only its imports
        // changed, built the three ways such an app is: a Swift 5 app target; a Swift 6 one (strict
        // concurrency), which also finds members only through what a file imports; and a new Xcode 26
        // app target: Swift 5, MainActor by default, and the upcoming features Approachable
        // Concurrency turns on. Each target's directory links the same sources (Chime -> ../PortedApp).
        .executableTarget(name: "chime-swift5", dependencies: ["TocsinKit"], path: "Tests/PortedAppSwift5",
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(name: "chime-swift6", dependencies: ["TocsinKit"], path: "Tests/PortedAppSwift6",
                          swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("MemberImportVisibility")]),
        .executableTarget(name: "chime-xcode26", dependencies: ["TocsinKit"], path: "Tests/PortedAppXcode26",
                          swiftSettings: [
                              .swiftLanguageMode(.v5), .defaultIsolation(MainActor.self),
                              .enableUpcomingFeature("DisableOutwardActorInference"),
                              .enableUpcomingFeature("GlobalActorIsolatedTypesUsability"),
                              .enableUpcomingFeature("InferIsolatedConformances"),
                              .enableUpcomingFeature("InferSendableFromCaptures"),
                              .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                          ]),
        // An app built on GIO's GApplication (as GTK apps are) that uses TocsinKit.
        .executableTarget(name: "gapplication-style", dependencies: ["TocsinKit", "CGLib"], path: "Tests/GApplicationStyle"),
        .executableTarget(name: "tocsin-bench", dependencies: ["HeadlessSession"], path: "bench/Sources/tocsin-bench"),
        // What the unit tests share: fixed instants, ids and alarms.
        .target(name: "TocsinTestSupport", dependencies: ["TocsinCore", "TocsinFiles"], path: "Tests/Support/TocsinTestSupport"),
        .testTarget(name: "TocsinCoreTests", dependencies: ["TocsinCore", "TocsinFiles", "TocsinTestSupport", "HeadlessSession"]),
        .testTarget(name: "TocsinFilesTests", dependencies: ["TocsinFiles", "TocsinCore", "TocsinTestSupport", "HeadlessSession"]),
        .executableTarget(name: "fake-media-player", dependencies: ["GLibSupport", "CGLib"], path: "Tests/Support/FakeMediaPlayer"),
        .executableTarget(name: "fake-notification-server", dependencies: ["GLibSupport", "CGLib"], path: "Tests/Support/FakeNotificationServer"),
        // Every neighbour of the agent on its buses, answering at random and wrongly (NeighbourFuzzTests, fuzz/neighbours).
        .executableTarget(name: "stand-in-neighbours", dependencies: ["GLibSupport", "CGLib"], path: "Tests/Support/StandInNeighbours"),
        .target(name: "BusTestSupport", dependencies: ["GLibSupport", "CGLib", "TocsinCore", "HeadlessSession"], path: "Tests/Support/BusTestSupport"),
        .testTarget(name: "GLibSupportTests", dependencies: ["GLibSupport", "CGLib", "TocsinCore", "HeadlessSession", "BusTestSupport"]),
        .testTarget(name: "TocsinAgentTests", dependencies: ["TocsinAgent", "TocsinEdge", "TocsinFiles", "GLibSupport", "CGLib", "BusTestSupport", "HeadlessSession"]),
        .testTarget(name: "TocsinEdgeTests", dependencies: ["TocsinEdge", "GLibSupport", "CGLib", "CPulse", "CCanberra", "TocsinCore", "BusTestSupport"]),
        .testTarget(name: "HeadlessSessionTests", dependencies: ["HeadlessSession"]),
        .testTarget(name: "TocsinKitTests", dependencies: ["TocsinKit", "HeadlessSession", "TocsinCore", "BusTestSupport", "GLibSupport", "CGLib"]),
        .testTarget(name: "TocsinCommandLineTests", dependencies: ["TocsinCommandLine", "TocsinCore", "TocsinKit"]),
        .testTarget(name: "IntegrationTests", dependencies: ["HeadlessSession", "BusTestSupport", "GLibSupport", "CGLib", "TocsinCore", "TocsinFiles"]),
    ],
    swiftLanguageModes: [.v6]
)
