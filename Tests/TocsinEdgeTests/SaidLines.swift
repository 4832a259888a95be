/// What `NeighbourFaults` said, in order; the edge's adapters and their tests run on one thread.
final class SaidLines {
    private(set) var all: [String] = []

    /// Records `line`, to pass as `NeighbourFaults`'s `say`.
    func say(_ line: String) { all.append(line) }
}
