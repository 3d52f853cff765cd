/// A histogram with labels.
///
/// Observing takes no lock: the series is looked up without one (``SeriesRegistry``) and its
/// buckets and sum are atomics.
public final class HistogramFamily: Sendable {
    let name: String
    let help: String
    let labels: [String]
    let bounds: [Double]
    private let registry: SeriesRegistry

    init(name: String, help: String, labels: [String], buckets: [Double]) {
        self.name = name
        self.help = help
        self.labels = labels
        self.bounds = buckets
        // One cell per bound, one for `+Inf`, one for the sum.
        precondition(buckets.count + 2 <= MetricSeries.cellCount, "a histogram has at most 14 bounds")
        registry = SeriesRegistry(arity: labels.count)
    }

    /// Records one observation, in seconds.
    public func observe(_ labelValues: LabelValues, _ seconds: Double) {
        let bucket = bounds.firstIndex { seconds <= $0 } ?? bounds.count
        let series = registry.series(labelValues)
        series.add(1, at: bucket)
        // Bounded so the conversion cannot trap; a negative or NaN duration adds nothing.
        let nanoseconds = seconds > 0 ? (seconds * 1e9).rounded() : 0
        series.add(nanoseconds < 1.8e19 ? UInt64(nanoseconds) : 0, at: sumCell)
    }

    /// The cell of a series that holds its sum, in nanoseconds: the one after the buckets.
    private var sumCell: Int { bounds.count + 1 }

    /// The observations in each bucket of a series (not cumulative), `+Inf` last.
    private func bucketCounts(_ series: MetricSeries) -> [UInt64] {
        (0...bounds.count).map { series.value(at: $0) }
    }

    /// How many observations one series has.
    public func count(_ labelValues: LabelValues) -> UInt64 {
        registry.existing(labelValues).map { bucketCounts($0).reduce(0, +) } ?? 0
    }

    func render(into text: inout String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        for (labelValues, series) in registry.sorted {
            let counts = bucketCounts(series)
            var cumulative: UInt64 = 0
            for (index, bound) in bounds.enumerated() {
                cumulative += counts[index]
                text +=
                    name + "_bucket"
                    + PrometheusText.labels(labels + ["le"], labelValues + [PrometheusText.number(bound)])
                    + " \(cumulative)\n"
            }
            cumulative += counts[bounds.count]
            text +=
                name + "_bucket" + PrometheusText.labels(labels + ["le"], labelValues + ["+Inf"]) + " \(cumulative)\n"
            let sum = Double(series.value(at: sumCell)) / 1e9
            text += name + "_sum" + PrometheusText.labels(labels, labelValues) + " " + PrometheusText.number(sum) + "\n"
            text += name + "_count" + PrometheusText.labels(labels, labelValues) + " \(cumulative)\n"
        }
    }
}
