/// A value made on the main loop's thread, carried through another thread (the sound-copy queue,
/// the notification worker) and used back on the main loop only, by way of `MainLoop.post`:
/// what `@unchecked Sendable` promises here.
struct MainThreadOnly<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
