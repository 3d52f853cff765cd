/// The request bodies the upstreams read (sections 2-4: `docs/upstreams-user.md`,
/// `docs/upstreams-feed.md`, `docs/upstreams-payment.md`), decoded by the JSON engine; the rules
/// beyond types (identifiers, ranges, texts) are checked by the routes.
enum RequestWire {
    /// `POST /v1/sessions/introspect`.
    struct Introspection: Decodable {
        var token: String
    }

    /// `POST /v1/posts` as JSON.
    struct NewPost: Decodable {
        var authorId: String
        var text: String
    }

    /// `POST /v1/charges`.
    struct Charge: Decodable {
        var payerId: String
        var payeeId: String
        var amount: PaymentWire.Money
        var memo: String?
    }

    /// `POST /v1/charges/:id/refunds`.
    struct Refund: Decodable {
        var amountMinor: Int64
    }
}
