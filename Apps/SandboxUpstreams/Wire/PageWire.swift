/// A page of items as every list answers it: `{"items": [...], "nextCursor": "..." | null}`.
struct PageWire<Item: Encodable>: Encodable {
    var items: [Item]
    var nextCursor: String?

    private enum CodingKeys: String, CodingKey {
        case items, nextCursor
    }

    /// Writes `nextCursor` as `null` on the last page, as the contract shows it.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        if let nextCursor {
            try container.encode(nextCursor, forKey: .nextCursor)
        } else {
            try container.encodeNil(forKey: .nextCursor)
        }
    }
}
