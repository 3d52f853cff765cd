public import ServiceCore

/// The user upstream's error body: an RFC 9457 problem document
/// (`application/problem+json`) whose `code` member is one of those listed in
/// `docs/upstreams.md`.
///
/// Read it from a failed call with `error.envelope(as: UserErrorEnvelope.self)`.
public typealias UserErrorEnvelope = ProblemDetails
