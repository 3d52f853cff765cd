import ServiceCore

extension DaemonConfiguration.ModuleSettings {
    /// The resilience fields, by their name in the file; each is also read from
    /// `SWIFTY_<NAME>_<FIELD>` (``environmentName(of:)``) and from `--module Name.field=value`.
    public static let resilienceFields = [
        "retryAttempts", "retryBaseDelayMilliseconds", "retryMaxDelayMilliseconds", "retryBudgetRatio",
        "retryBudgetFloorPerSecond", "breakerFailureRatio", "breakerWindowMilliseconds", "breakerMinimumCalls",
        "breakerOpenMilliseconds", "concurrencyLimit", "singleFlight",
    ]

    /// A field's environment suffix: `retryBaseDelayMilliseconds` is `RETRY_BASE_DELAY_MS`.
    public static func environmentName(of field: String) -> String {
        var name = field
        if name.hasSuffix("Milliseconds") { name = String(name.dropLast("Milliseconds".count)) + "Ms" }
        var snake = ""
        for character in name {
            if character.isUppercase, !snake.isEmpty { snake += "_" }
            snake += character.uppercased()
        }
        return snake
    }

    /// Sets a resilience field from its text.
    /// - Returns: `nil` when set, else what the text should have been (`a whole number`, `a
    ///   number`, `true or false`), or `a known field` for an unknown name.
    mutating func setResilienceField(_ field: String, from text: String) -> String? {
        func integer(_ set: (inout Self, Int) -> Void) -> String? {
            guard let value = Int(text) else { return "a whole number" }
            set(&self, value)
            return nil
        }
        func number(_ set: (inout Self, Double) -> Void) -> String? {
            guard let value = Double(text), value.isFinite else { return "a number" }
            set(&self, value)
            return nil
        }
        switch field {
        case "retryAttempts": return integer { $0.retryAttempts = $1 }
        case "retryBaseDelayMilliseconds": return integer { $0.retryBaseDelayMilliseconds = $1 }
        case "retryMaxDelayMilliseconds": return integer { $0.retryMaxDelayMilliseconds = $1 }
        case "retryBudgetRatio": return number { $0.retryBudgetRatio = $1 }
        case "retryBudgetFloorPerSecond": return number { $0.retryBudgetFloorPerSecond = $1 }
        case "breakerFailureRatio": return number { $0.breakerFailureRatio = $1 }
        case "breakerWindowMilliseconds": return integer { $0.breakerWindowMilliseconds = $1 }
        case "breakerMinimumCalls": return integer { $0.breakerMinimumCalls = $1 }
        case "breakerOpenMilliseconds": return integer { $0.breakerOpenMilliseconds = $1 }
        case "concurrencyLimit": return integer { $0.concurrencyLimit = $1 }
        case "singleFlight":
            switch text.lowercased() {
            case "true", "1", "on", "yes": singleFlight = true
            case "false", "0", "off", "no": singleFlight = false
            default: return "true or false"
            }
            return nil
        default: return "a known field"
        }
    }

    /// The module's ``ResilienceSettings``: the configured fields over the defaults.
    var resilience: ResilienceSettings {
        var settings = ResilienceSettings()
        if let retryAttempts { settings.retry.maxAttempts = retryAttempts }
        if let retryBaseDelayMilliseconds { settings.retry.baseDelay = .milliseconds(retryBaseDelayMilliseconds) }
        if let retryMaxDelayMilliseconds { settings.retry.maxDelay = .milliseconds(retryMaxDelayMilliseconds) }
        if let retryBudgetRatio { settings.retryBudgetRatio = retryBudgetRatio }
        if let retryBudgetFloorPerSecond { settings.retryBudgetFloorPerSecond = retryBudgetFloorPerSecond }
        if let breakerFailureRatio { settings.breaker.failureRatio = breakerFailureRatio }
        if let breakerWindowMilliseconds { settings.breaker.window = .milliseconds(breakerWindowMilliseconds) }
        if let breakerMinimumCalls { settings.breaker.minimumCalls = breakerMinimumCalls }
        if let breakerOpenMilliseconds { settings.breaker.openDuration = .milliseconds(breakerOpenMilliseconds) }
        if let concurrencyLimit { settings.concurrencyLimit = concurrencyLimit }
        if let singleFlight { settings.singleFlight = singleFlight }
        return settings
    }

    /// Every resilience field out of its range, each naming the field under `prefix`
    /// (`modules.PaymentModule`).
    func resilienceProblems(prefix: String) -> [String] {
        var problems: [String] = []
        func check<T: Comparable>(_ name: String, _ value: T?, _ range: ClosedRange<T>, _ text: String) {
            if let value, !range.contains(value) { problems.append("\(prefix).\(name) \(value) is not \(text)") }
        }
        check("retryAttempts", retryAttempts, 1...10, "1-10")
        check("retryBaseDelayMilliseconds", retryBaseDelayMilliseconds, 1...60_000, "1-60000")
        check("retryMaxDelayMilliseconds", retryMaxDelayMilliseconds, 1...600_000, "1-600000")
        check("retryBudgetRatio", retryBudgetRatio, 0...10, "0-10")
        check("retryBudgetFloorPerSecond", retryBudgetFloorPerSecond, 0...10_000, "0-10000")
        check("breakerFailureRatio", breakerFailureRatio, 0.01...1, "0.01-1")
        check("breakerWindowMilliseconds", breakerWindowMilliseconds, 100...3_600_000, "100-3600000")
        check("breakerMinimumCalls", breakerMinimumCalls, 1...1_000_000, "1-1000000")
        check("breakerOpenMilliseconds", breakerOpenMilliseconds, 1...3_600_000, "1-3600000")
        check("concurrencyLimit", concurrencyLimit, 1...100_000, "1-100000")
        let settings = resilience
        if problems.isEmpty, settings.retry.maxDelay < settings.retry.baseDelay {
            problems.append(
                "\(prefix).retryMaxDelayMilliseconds is below retryBaseDelayMilliseconds"
                    + " (\(settings.retry.maxDelay) < \(settings.retry.baseDelay))")
        }
        return problems
    }
}
