import HTTPTypes

/// The path of a service case, relative to its base URL, built by string interpolation.
///
/// Literal text is taken as written (it must already be a valid URL path); every interpolated
/// value is percent-encoded as one path segment (RFC 3986), so an id containing `/`, `?`, `#`,
/// `%`, spaces or non-ASCII text cannot change the path:
///
/// ```swift
/// var path: RequestPath {
///     switch self {
///     case .profile(let id): "/v1/users/\(id)"      // id "a/b?c" -> /v1/users/a%2Fb%3Fc
///     }
/// }
/// ```
///
/// Use ``init(segments:)`` to build a path from separate segments.
public struct RequestPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The percent-encoded path, with a leading `/` unless empty.
    public let encoded: String

    /// Creates a path from a literal, taken as already encoded.
    public init(stringLiteral value: String) {
        self.encoded = value
    }

    /// Creates a path from an interpolation; interpolated values are encoded as segments.
    public init(stringInterpolation: StringInterpolation) {
        self.encoded = stringInterpolation.encoded
    }

    /// Creates a path from unencoded segments, each percent-encoded: `["v1", "a/b"]` is
    /// `/v1/a%2Fb`.
    public init(segments: [String]) {
        self.encoded = segments.isEmpty ? "" : "/" + segments.map(PercentEncoding.pathSegment).joined(separator: "/")
    }

    /// The percent-encoded path.
    public var description: String { encoded }

    /// Collects literal text as is and interpolated values percent-encoded.
    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var encoded = ""

        /// Reserves space.
        public init(literalCapacity: Int, interpolationCount: Int) {
            encoded.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        /// Appends literal text unchanged.
        public mutating func appendLiteral(_ literal: String) {
            encoded += literal
        }

        /// Appends a value as one percent-encoded path segment.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            PercentEncoding.appendPathSegment(value.description, to: &encoded)
        }

        /// Appends text as one percent-encoded path segment.
        public mutating func appendInterpolation(_ value: String) {
            PercentEncoding.appendPathSegment(value, to: &encoded)
        }

        /// Appends text that is already a valid encoded path fragment, without encoding it.
        public mutating func appendInterpolation(raw value: String) {
            encoded += value
        }
    }
}
