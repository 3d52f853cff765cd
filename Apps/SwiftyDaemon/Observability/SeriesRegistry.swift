import Synchronization

/// The series of one metric family, found by their label values without taking a lock.
///
/// A series is created the first time its label values are seen, under the family's lock, and
/// published in a fixed open-addressed index of slots that are set once; from then on a lookup
/// hashes the values and reads a few slots. Series are never removed, so a slot once set never
/// changes. A series that finds no free slot within ``maxProbes`` of its home (far more series
/// than the daemon's families have) is still found, through the lock.
final class SeriesRegistry: Sendable {
    private final class Entry: Sendable {
        let labels: LabelValues
        let series: MetricSeries

        init(labels: LabelValues, series: MetricSeries) {
            self.labels = labels
            self.series = series
        }
    }

    /// The index's slots (a power of two of them), each empty or an unretained reference:
    /// `entries` holds every entry for the registry's life, and none is ever removed.
    /// (`AtomicLazyReference` would retain, but its reads are not inlined and cost a metadata
    /// lookup each.)
    private typealias Slots = InlineArray<1024, Atomic<Unmanaged<Entry>?>>
    private static var slotCount: Int { Slots.count }
    /// How many slots a lookup reads at most.
    private static var maxProbes: Int { 16 }

    private let index: Slots
    private let entries = Mutex<[LabelValues: Entry]>([:])
    private let arity: Int

    /// Creates an empty registry for series with `arity` label values.
    init(arity: Int) {
        index = InlineArray { _ in Atomic(nil) }
        self.arity = arity
    }

    /// The series with these label values, created when first seen.
    func series(_ labels: LabelValues) -> MetricSeries {
        var found: MetricSeries?
        probe(labels) { _, entry in
            // An empty slot ends the search: a series takes the first free slot of its probes.
            guard let entry else { return true }
            if entry.labels == labels { found = entry.series }
            return found != nil
        }
        return found ?? created(labels)
    }

    /// Visits the slots `labels` may be in, in order, with their entries, until `visit` returns
    /// `true` or ``maxProbes`` slots were visited.
    private func probe(_ labels: LabelValues, _ visit: (_ slot: Int, _ entry: Entry?) -> Bool) {
        var slot = labels.hashValue & (Self.slotCount - 1)
        for _ in 0..<Self.maxProbes {
            if visit(slot, index[slot].load(ordering: .acquiring)?.takeUnretainedValue()) { return }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
    }

    /// The series with these label values if it exists.
    func existing(_ labels: LabelValues) -> MetricSeries? {
        entries.withLock { $0[labels]?.series }
    }

    /// Every series, ordered by its label values.
    var sorted: [(labels: [String], series: MetricSeries)] {
        entries.withLock { $0.map { (labels: $0.key.array, series: $0.value.series) } }
            .sorted { $0.labels.lexicographicallyPrecedes($1.labels) }
    }

    private func created(_ labels: LabelValues) -> MetricSeries {
        assert(labels.count == arity, "a series needs one value per label of its family")
        return entries.withLock { entries in
            if let entry = entries[labels] { return entry.series }
            let entry = Entry(labels: labels, series: MetricSeries())
            entries[labels] = entry
            // Published under the lock, so a series takes one slot at most, the first free one
            // of its probes, where lookups find it.
            probe(labels) { slot, taken in
                guard taken == nil else { return false }
                index[slot].store(Unmanaged.passUnretained(entry), ordering: .releasing)
                return true
            }
            return entry.series
        }
    }
}
