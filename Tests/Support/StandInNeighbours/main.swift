import Foundation
import GLibSupport

// stand-in-neighbours --seed N --log FILE [--exchanges N] [--signals-per-second R] [--notifications]
//
// Every program the agent talks to on its session bus (DBUS_SESSION_BUS_ADDRESS) and its system
// bus (DBUS_SYSTEM_BUS_ADDRESS, if set), played by stand-ins that answer each call at random:
// correctly, or with a well-formed wrong answer (another type, no value, values too many, a
// variant of the wrong type, 100 kB strings, 10,000-element arrays, nested variants, odd
// dictionaries), an error with an odd name and a 5 kB message, late (0.1–3 s), never, or by
// closing their connection with the call pending and coming back; and that send malformed
// signals many times a second (`Neighbourhood`), and call the agent's own objects with odd
// arguments (`Caller`). NeighbourFuzzTests runs it beside the real agent.
//
// Each exchange is one line of FILE (`ExchangeLog`). Standard output says "ready" once every
// neighbour has connected, "count N" four times a second, and "done N" once N exchanges were
// made (--exchanges): the stand-ins then answer correctly and say nothing more, until SIGTERM.

let configuration = Configuration.parse(Array(CommandLine.arguments.dropFirst()))
Configuration.shared = configuration
let environment = ProcessInfo.processInfo.environment
guard let sessionAddress = environment["DBUS_SESSION_BUS_ADDRESS"] else {
    FileHandle.standardError.write(Data("stand-in-neighbours: no DBUS_SESSION_BUS_ADDRESS\n".utf8))
    exit(2)
}
StandIns.current = StandIns(configuration: configuration, sessionAddress: sessionAddress, systemAddress: environment["DBUS_SYSTEM_BUS_ADDRESS"])
StandIns.current.whenConnected()
let loop = MainLoop()
loop.quitOnTerminationSignals { _ in StandIns.current.sayKinds() }
loop.run()
