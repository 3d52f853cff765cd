public import Foundation

/// What a service case sends besides its path and headers: query parameters and a body.
public enum RequestTask: Sendable {
    /// No query and no body.
    case plain
    /// Query parameters only.
    case query(QueryParameters)
    /// A JSON body from any `Encodable` value, with the client's encoder unless one is given.
    case json(any Encodable & Sendable, encoder: (any JSONBodyEncoder)? = nil)
    /// An `application/x-www-form-urlencoded` body.
    case form(QueryParameters)
    /// A `multipart/form-data` body. The boundary is random unless given.
    case multipart([MultipartPart], boundary: String? = nil)
    /// Raw bytes with their content type.
    case data(Data, contentType: String)
    /// Query parameters together with a body task (``json(_:encoder:)``, ``form(_:)``,
    /// ``multipart(_:boundary:)`` or ``data(_:contentType:)``).
    indirect case queryAndBody(QueryParameters, body: RequestTask)
}
