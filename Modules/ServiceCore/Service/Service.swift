public import Foundation
public import HTTPTypes

/// Describes one upstream API as a type, usually an enum with a case per endpoint.
///
/// Implement it in a feature module; send its cases with a ``ServiceClient``. Only ``path``
/// and ``method`` are required; everything else has a default in an extension:
///
/// ```swift
/// public enum UserService: Service {
///     case profile(id: String)
///     case follow(target: String, actor: String)
///
///     public var path: RequestPath {
///         switch self {
///         case .profile(let id): "/v1/users/\(id)"
///         case .follow(let target, let actor): "/v1/users/\(actor)/following/\(target)"
///         }
///     }
///
///     public var method: HTTPMethod {
///         switch self {
///         case .profile: .get
///         case .follow: .put
///         }
///     }
/// }
/// ```
///
/// The base URL (the module's domain) comes from the client, which takes it from the module's
/// configuration per environment; a case may override it with ``baseURL``.
public protocol Service: Sendable {
    /// The error body the upstream sends with non-2xx answers, decoded into
    /// ``ServiceError/envelope``. ``NoErrorEnvelope`` when the upstream has none.
    associatedtype ErrorEnvelope: Decodable & Sendable = NoErrorEnvelope

    /// The module's name in logs, metrics and errors; the type's name unless overridden.
    static var moduleName: String { get }

    /// A base URL for this case only, or `nil` (the default) for the client's.
    var baseURL: URL? { get }

    /// The path relative to the base URL; interpolated values are percent-encoded.
    var path: RequestPath { get }

    /// The HTTP method.
    var method: HTTPMethod { get }

    /// The query and body; ``RequestTask/plain`` by default.
    var task: RequestTask { get }

    /// Header fields for this case; none by default.
    var headers: HTTPHeaders { get }

    /// Timeout, retry class and accepted statuses; ``RequestPolicy/default(for:)`` by default.
    var policy: RequestPolicy { get }

    /// The case's name for logs and metrics, without associated values (which may hold
    /// secrets); derived from the case by default.
    var operationName: String { get }

    /// Checks the case's inputs before anything is built or sent; does nothing by default.
    ///
    /// ``ServiceClient`` calls it first, so invalid input never reaches the network. Throw a
    /// ``ServiceError`` with code ``ServiceError/Code-swift.struct/invalidRequest`` whose message
    /// names the field and the rule (not the value: it may be a secret).
    func validate() throws
}

extension Service {
    /// The type's name.
    public static var moduleName: String { String(describing: Self.self) }

    /// `nil`: the client's base URL.
    public var baseURL: URL? { nil }

    /// ``RequestTask/plain``.
    public var task: RequestTask { .plain }

    /// No fields.
    public var headers: HTTPHeaders { [:] }

    /// ``RequestPolicy/default(for:)`` for the case's method.
    public var policy: RequestPolicy { .default(for: method) }

    /// Accepts every input.
    public func validate() throws {}

    /// The case name: `profile` for `.profile(id: "x")`.
    public var operationName: String {
        if let label = Mirror(reflecting: self).children.first?.label { return label }
        let text = String(describing: self)
        return text.firstIndex(of: "(").map { String(text[..<$0]) } ?? text
    }
}

/// The error envelope of an upstream that sends none: decoding always succeeds and keeps
/// nothing.
public struct NoErrorEnvelope: Decodable, Sendable, Equatable {
    /// Creates the empty envelope.
    public init() {}

    /// Ignores the body.
    public init(from decoder: any Decoder) throws {}
}
