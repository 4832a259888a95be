import Testing

/// Every TocsinKit test, one at a time: each talks to the real agent of its own headless session
/// through this process's session-bus connection, which can point at one session only.
@Suite(.serialized) struct TocsinKitTests {}
