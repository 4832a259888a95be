// On Apple's platforms `import AppIntents` brings Foundation with it, and intent files use `UUID`
// and `Date` with that import alone; Tocsin's AppIntents gives the same.
@_exported import Foundation
