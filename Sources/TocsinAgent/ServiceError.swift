import TocsinCore

/// The agent's former name for `TocsinError`, kept only while `RunningAgent.swift` and
/// `RunningAgent+Methods.swift` are rewritten elsewhere: the next commit renames their uses
/// and removes it.
typealias ServiceError = TocsinError
