/// A counter with labels.
///
/// Counting takes no lock: the series is looked up without one (``SeriesRegistry``) and its
/// total is an atomic.
public final class CounterFamily: Sendable {
    let name: String
    let help: String
    let labels: [String]
    private let registry: SeriesRegistry

    init(name: String, help: String, labels: [String]) {
        self.name = name
        self.help = help
        self.labels = labels
        registry = SeriesRegistry(arity: labels.count)
    }

    /// Adds `amount` (1 by default) to the series with these label values (in declaration order).
    public func increment(_ labelValues: LabelValues, by amount: UInt64 = 1) {
        registry.series(labelValues).add(amount, at: 0)
    }

    /// The current value of one series.
    public func value(_ labelValues: LabelValues) -> Double {
        Double(registry.existing(labelValues)?.value(at: 0) ?? 0)
    }

    func render(into text: inout String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) counter\n"
        for (labelValues, series) in registry.sorted {
            text += name + PrometheusText.labels(labels, labelValues) + " \(series.value(at: 0))\n"
        }
    }
}
