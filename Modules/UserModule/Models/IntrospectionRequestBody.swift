/// The body of `POST /v1/sessions/introspect`: `{"token": "..."}`.
struct IntrospectionRequestBody: Encodable, Sendable, Equatable {
    /// The bearer token to look up.
    var token: String
}
