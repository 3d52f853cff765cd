/// Formatting rules of the Prometheus text format 0.0.4.
enum PrometheusText {
    /// `{a="x",b="y"}`, with `\`, `"` and newlines escaped in values; empty for no labels.
    static func labels(_ names: [String], _ values: [String]) -> String {
        guard !names.isEmpty else { return "" }
        let pairs = zip(names, values).map { name, value in
            var escaped = ""
            for character in value {
                switch character {
                case "\\": escaped += "\\\\"
                case "\"": escaped += "\\\""
                case "\n": escaped += "\\n"
                default: escaped.append(character)
                }
            }
            return "\(name)=\"\(escaped)\""
        }
        return "{" + pairs.joined(separator: ",") + "}"
    }

    /// A sample value: integers without a fraction, others in Go's float style.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
