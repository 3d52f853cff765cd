import Synchronization

/// One series of a metric family: a fixed row of atomic cells, added to without a lock.
///
/// A counter uses its first cell for its total. A histogram uses one cell per bucket (the
/// observations that fell in it alone, cumulated when read) and the next for the sum of the
/// observations in nanoseconds, an integer so that it can be added to atomically.
final class MetricSeries: Sendable {
    /// The cells: room for a histogram of up to 14 bounds.
    private typealias Cells = InlineArray<16, Atomic<UInt64>>
    /// How many cells a series has.
    static var cellCount: Int { Cells.count }

    private let cells: Cells

    init() {
        cells = InlineArray { _ in Atomic(0) }
    }

    /// Adds `amount` to the cell at `index`.
    func add(_ amount: UInt64, at index: Int) {
        cells[index].wrappingAdd(amount, ordering: .relaxed)
    }

    /// The value of the cell at `index`.
    func value(at index: Int) -> UInt64 {
        cells[index].load(ordering: .relaxed)
    }
}
