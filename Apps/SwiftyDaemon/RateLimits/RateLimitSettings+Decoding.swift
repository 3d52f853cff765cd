/// The `rateLimits` object of the configuration file:
///
/// ```json
/// "rateLimits": {
///   "payments": {"perUser": {"quota": 5, "windowSeconds": 1}, "perAddress": {"quota": 20, "windowSeconds": 1}},
///   "reads": {"perAddress": {"quota": 200, "windowSeconds": 1}},
///   "storeCapacity": 100000
/// }
/// ```
///
/// A member left out keeps its default; `null` turns a limit off; unknown members are refused.
extension RateLimitSettings: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case reads, writes, payments, storeCapacity }

    init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        for (key, routeClass) in [(CodingKeys.reads, RouteClass.reads), (.writes, .writes), (.payments, .payments)]
        where container.contains(key) {
            let given = try container.decode(ClassLimits.self, forKey: key)
            var limits = self[routeClass]
            if let perUser = given.perUser {
                limits.perUser = perUser.map { $0.policy(name: "\(routeClass.rawValue)-user") }
            }
            if let perAddress = given.perAddress {
                limits.perAddress = perAddress.map { $0.policy(name: "\(routeClass.rawValue)-address") }
            }
            self[routeClass] = limits
        }
        storeCapacity = try container.decodeIfPresent(Int.self, forKey: .storeCapacity) ?? storeCapacity
    }

    /// One class's members: absent (`nil`), `null` (`.some(nil)`) or a limit.
    private struct ClassLimits: Decodable {
        var perUser: Limit??
        var perAddress: Limit??

        private enum CodingKeys: String, CodingKey, CaseIterable { case perUser, perAddress }

        init(from decoder: any Decoder) throws {
            try StrictKeys.check(decoder, allowed: CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            perUser = try Self.member(.perUser, in: container)
            perAddress = try Self.member(.perAddress, in: container)
        }

        private static func member(_ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) throws
            -> Limit??
        {
            guard container.contains(key) else { return nil }
            if try container.decodeNil(forKey: key) { return .some(nil) }
            return .some(try container.decode(Limit.self, forKey: key))
        }
    }

    /// `{"quota": 5, "windowSeconds": 1}`.
    private struct Limit: Decodable {
        var quota: Int
        var windowSeconds: Int

        private enum CodingKeys: String, CodingKey, CaseIterable { case quota, windowSeconds }

        init(from decoder: any Decoder) throws {
            try StrictKeys.check(decoder, allowed: CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            quota = try container.decode(Int.self, forKey: .quota)
            windowSeconds = try container.decode(Int.self, forKey: .windowSeconds)
        }

        func policy(name: String) -> RateLimitPolicy {
            RateLimitPolicy(name: name, quota: quota, window: .seconds(windowSeconds))
        }
    }
}

/// Written in the shape it is read in, every class and limit explicit (`null` for none).
extension RateLimitSettings: Encodable {
    private enum EncodingKeys: String, CodingKey { case reads, writes, payments, storeCapacity }
    private enum LimitKeys: String, CodingKey { case perUser, perAddress, quota, windowSeconds }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EncodingKeys.self)
        for (key, routeClass) in [(EncodingKeys.reads, RouteClass.reads), (.writes, .writes), (.payments, .payments)] {
            var limits = container.nestedContainer(keyedBy: LimitKeys.self, forKey: key)
            for (limitKey, policy) in [
                (LimitKeys.perUser, self[routeClass].perUser), (.perAddress, self[routeClass].perAddress),
            ] {
                guard let policy else {
                    try limits.encodeNil(forKey: limitKey)
                    continue
                }
                var limit = limits.nestedContainer(keyedBy: LimitKeys.self, forKey: limitKey)
                try limit.encode(policy.quota, forKey: .quota)
                try limit.encode(policy.window.components.seconds, forKey: .windowSeconds)
            }
        }
        try container.encode(storeCapacity, forKey: .storeCapacity)
    }
}
