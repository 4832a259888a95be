import FoundationEssentials

/// Where each alarm's entry sits in a `DeadlineIndex` heap: a hash table from alarm id to heap
/// position that stores only the positions.
///
/// A `[UUID: Int32]` spends 20 bytes on every bucket (the 16-byte id and the position) and keeps
/// a quarter of its buckets empty: 320 kB for each of the book's two indexes at 10,000 alarms.
/// The id is already in the heap entry, so a slot here holds the position alone (4 bytes) and a
/// lookup compares the id of the entry it points at. Open addressing with linear probing, at most
/// three quarters full; a removal shifts the entries after it back rather than leaving a
/// tombstone, so a lookup never walks past removed ones.
///
/// The table reads ids through the heap, so it must agree with the heap whenever it is asked:
/// callers look slots up before they move entries, then store the new positions.
struct HeapPositionTable: Sendable {
    /// Heap positions; `empty` where no alarm hashes.
    private var slots: [Int32] = []
    /// How many slots hold a position.
    private(set) var count = 0

    private static let empty: Int32 = -1
    private static let smallestCapacity = 16

    /// The slot holding `id`'s position in `heap`, if `id` has one.
    func slot(of id: UUID, in heap: [DeadlineIndex.Entry]) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = id.hashValue & mask
        while slots[slot] != Self.empty {
            if heap[Int(slots[slot])].id == id { return slot }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The heap position stored in `slot`.
    func position(inSlot slot: Int) -> Int { Int(slots[slot]) }

    /// Stores `position` in `slot` (an entry moved in the heap).
    mutating func setPosition(_ position: Int, inSlot slot: Int) {
        slots[slot] = Int32(position)
    }

    /// Records `position` for `id`, which must not be in the table yet.
    mutating func insert(_ position: Int, for id: UUID, in heap: [DeadlineIndex.Entry]) {
        if (count + 1) * 4 > slots.count * 3 {
            rehash(capacity: Swift.max(Self.smallestCapacity, slots.count * 2), in: heap)
        }
        place(Int32(position), hash: id.hashValue)
        count += 1
    }

    /// Empties `slot`, shifting back the entries whose probe ran through it.
    mutating func remove(slot removed: Int, in heap: [DeadlineIndex.Entry]) {
        let mask = slots.count - 1
        var hole = removed
        var next = (hole + 1) & mask
        while slots[next] != Self.empty {
            let home = heap[Int(slots[next])].id.hashValue & mask
            // The entry at `next` may move into the hole unless its home slot lies after the
            // hole, in the stretch from the hole (exclusive) to `next` (inclusive), wrapping.
            let homeIsBetween = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !homeIsBetween {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = Self.empty
        count -= 1
    }

    /// Makes room for `count` positions without growing again.
    mutating func reserveCapacity(_ count: Int, in heap: [DeadlineIndex.Entry]) {
        var capacity = Swift.max(Self.smallestCapacity, slots.count)
        while count * 4 > capacity * 3 { capacity *= 2 }
        if capacity > slots.count { rehash(capacity: capacity, in: heap) }
    }

    private mutating func rehash(capacity: Int, in heap: [DeadlineIndex.Entry]) {
        let old = slots
        slots = Array(repeating: Self.empty, count: capacity)
        for position in old where position != Self.empty {
            place(position, hash: heap[Int(position)].id.hashValue)
        }
    }

    /// Puts `position` in the first free slot from its home slot on.
    private mutating func place(_ position: Int32, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != Self.empty { slot = (slot + 1) & mask }
        slots[slot] = position
    }
}
