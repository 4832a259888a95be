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
    /// Where each alarm's entry is in `heap`.
    private var positions = HeapPositionTable()

    /// The earliest entry.
    var first: Entry? { heap.first }

    /// How many alarms have an entry.
    var count: Int { heap.count }

    /// Makes room for `count` entries at once (a book loading its alarms), so the heap is not
    /// left with up to twice the room it needs after growing one entry at a time.
    mutating func reserveCapacity(_ count: Int) {
        heap.reserveCapacity(count)
        positions.reserveCapacity(count, in: heap)
    }

    /// The instant alarm `id` has, if it is in (the tests check every alarm's entry with it).
    func date(of id: UUID) -> Date? {
        positions.slot(of: id, in: heap).map { heap[positions.position(inSlot: $0)].date }
    }

    /// Gives alarm `id` the instant `date`, or takes it out when `date` is `nil`.
    mutating func set(_ id: UUID, to date: Date?, createdAt: Date) {
        guard let date else {
            remove(id)
            return
        }
        let entry = Entry(date: date, createdAt: createdAt, id: id)
        if let slot = positions.slot(of: id, in: heap) {
            let position = positions.position(inSlot: slot)
            guard heap[position] != entry else { return }
            heap[position] = entry
            restore(at: position)
        } else {
            heap.append(entry)
            positions.insert(heap.count - 1, for: id, in: heap)
            siftUp(heap.count - 1)
        }
    }

    /// Takes alarm `id` out, if it is in.
    mutating func remove(_ id: UUID) {
        guard let slot = positions.slot(of: id, in: heap) else { return }
        let position = positions.position(inSlot: slot)
        positions.remove(slot: slot, in: heap)
        let lastPosition = heap.count - 1
        guard position < lastPosition else {
            heap.removeLast()
            return
        }
        // The last entry fills the gap: find its slot while the heap still says where it is.
        let lastSlot = positions.slot(of: heap[lastPosition].id, in: heap)!
        heap[position] = heap.removeLast()
        positions.setPosition(position, inSlot: lastSlot)
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
        // Both slots are found before the swap, while the table and the heap agree.
        let firstSlot = positions.slot(of: heap[first].id, in: heap)!
        let secondSlot = positions.slot(of: heap[second].id, in: heap)!
        heap.swapAt(first, second)
        positions.setPosition(second, inSlot: firstSlot)
        positions.setPosition(first, inSlot: secondSlot)
    }
}
