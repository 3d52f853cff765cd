/// A first-in, first-out queue over one array: elements are appended at the end and taken from a
/// head index, and the taken part is dropped once it is most of the array, so taking is O(1)
/// amortised and the storage is reused rather than shifted on every take.
public struct FIFOQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    /// Creates an empty queue.
    public init() {}

    /// The elements still queued.
    public var count: Int { storage.count - head }

    /// Whether no element is queued.
    public var isEmpty: Bool { head == storage.count }

    /// The oldest element, or `nil` when empty.
    public var first: Element? { head < storage.count ? storage[head] : nil }

    /// Queues an element after the others.
    public mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Takes the oldest element, or `nil` when empty.
    public mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Takes the oldest element that satisfies `predicate`, wherever it is in the queue.
    public mutating func removeFirst(where predicate: (Element) -> Bool) -> Element? {
        guard let index = storage[head...].firstIndex(where: predicate) else { return nil }
        return storage.remove(at: index)
    }

    /// Takes every element, oldest first, and leaves the queue empty.
    public mutating func removeAll() -> ArraySlice<Element> {
        let elements = storage[head...]
        storage = []
        head = 0
        return elements
    }
}

extension FIFOQueue: Sendable where Element: Sendable {}
