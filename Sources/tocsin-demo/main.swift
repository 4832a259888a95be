import Foundation

// tocsin-demo: a cooking timer that counts down, rings and is stopped with its notification's
// Stop button, narrated step by step. On a desktop session it uses the real desktop; elsewhere
// (or with --headless) it brings up its own headless session.

let usage = """
    Usage: tocsin-demo [--headless] [--screenshot FILE.png] [--needs]

      --headless          use a built-in headless session even when a desktop is available
      --screenshot FILE   (headless) save a screenshot of the live countdown notification
      --needs             print the purposes of packaging/dependencies this run needs beyond
                          build and run (scripts/demo installs them), and exit
    """

var forceHeadless = false
var screenshot: URL?
var printNeeds = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--headless": forceHeadless = true
    case "--screenshot":
        guard let path = arguments.popFirst() else { print(usage); exit(2) }
        screenshot = URL(fileURLWithPath: path)
    case "--needs": printNeeds = true
    case "--help", "-h": print(usage); exit(0)
    default: print(usage); exit(2)
    }
}

let onDesktop = !forceHeadless && DesktopDemo.desktopIsAvailable()
if printNeeds {
    // The headless session's programs only when it will run: a desktop has its own servers, and
    // PulseAudio installed beside a PipeWire desktop's pipewire-pulse would replace it.
    print(onDesktop ? "" : (screenshot == nil ? "headless" : "headless screenshot"))
    exit(0)
}

do {
    if onDesktop {
        try DesktopDemo().run()
    } else {
        try HeadlessDemo(screenshotURL: screenshot).run()
    }
} catch {
    FileHandle.standardError.write(Data("tocsin-demo: \(error)\n".utf8))
    exit(1)
}
