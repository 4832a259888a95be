import Foundation
import TocsinCommandLine

// tocsin: the command line for the Tocsin agent. Everything it does is in TocsinCommandLine,
// where the unit tests reach it; this only hands it the process's arguments and exits with its
// status.
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
