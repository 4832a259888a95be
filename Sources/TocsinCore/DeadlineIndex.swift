import FoundationEssentials

/// Alarms ordered by an instant, kept up to date as alarms change, so that "what happens next"
/// is answered without looking at every alarm.
///
/// A binary min-heap that records where each alarm's entry sits, so the entry of an alarm that
/// changed is moved or removed in O(log n). Ties go to the alarm created first, then to the
/// smaller id: the order the book uses everywhere.
struct DeadlineIndex: Sendable {
    /// One alarm's place in the order.
    struct Entry: Sendable, Equatable {
        let date: Date
        let createdAt: Date
        let id: UUID

        func precedes(_ other: Entry) -> Bool {
            if date != other.date { return date < other.date }
            if createdAt != other.createdAt { return createdAt < other.createdAt }
            return id < other.id
        }
    }

    private var heap: [Entry] = []
    /// Where each alarm's entry is in `heap`. 32-bit: a bucket is 20 bytes instead of 24, and the
    /// book holds at most tens of thousands of alarms.
    private var positions: [UUID: Int32] = [:]

    /// The earliest entry.
    var first: Entry? { heap.first }

    /// How many alarms have an entry.
    var count: Int { heap.count }

    /// Makes room for `count` entries at once (a book loading its alarms), so the heap is not
    /// left with up to twice the room it needs after growing one entry at a time.
    mutating func reserveCapacity(_ count: Int) {
        heap.reserveCapacity(count)
        positions.reserveCapacity(count)
    }

    /// Gives alarm `id` the instant `date`, or takes it out when `date` is `nil`.
    mutating func set(_ id: UUID, to date: Date?, createdAt: Date) {
        guard let date else {
            remove(id)
            return
        }
        let entry = Entry(date: date, createdAt: createdAt, id: id)
        if let position = positions[id].map(Int.init) {
            guard heap[position] != entry else { return }
            heap[position] = entry
            restore(at: position)
        } else {
            heap.append(entry)
            positions[id] = Int32(heap.count - 1)
            siftUp(heap.count - 1)
        }
    }

    /// Takes alarm `id` out, if it is in.
    mutating func remove(_ id: UUID) {
        guard let position = positions.removeValue(forKey: id).map(Int.init) else { return }
        let last = heap.removeLast()
        guard position < heap.count else { return }
        heap[position] = last
        positions[last.id] = Int32(position)
        restore(at: position)
    }

    /// Moves the entry at `position` up or down to where it belongs.
    private mutating func restore(at position: Int) {
        if position > 0 && heap[position].precedes(heap[(position - 1) / 2]) {
            siftUp(position)
        } else {
            siftDown(position)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let earlier = right < heap.count && heap[right].precedes(heap[left]) ? right : left
            guard heap[earlier].precedes(heap[parent]) else { return }
            swapAt(parent, earlier)
            parent = earlier
        }
    }

    private mutating func swapAt(_ first: Int, _ second: Int) {
        heap.swapAt(first, second)
        positions[heap[first].id] = Int32(first)
        positions[heap[second].id] = Int32(second)
    }
}
