public import HTTPTypes
public import JSON

// The HTTP and JSON types a module author names, under their own names, so that a feature
// module imports ServiceCore alone.

/// An HTTP request method; see ``HTTPTypes/HTTPMethod``.
public typealias HTTPMethod = HTTPTypes.HTTPMethod

/// HTTP header fields in order; see ``HTTPTypes/HTTPHeaders``.
public typealias HTTPHeaders = HTTPTypes.HTTPHeaders

/// The request a transport sends; see ``HTTPTypes/HTTPRequest``.
public typealias HTTPRequest = HTTPTypes.HTTPRequest

/// The response a transport returns; see ``HTTPTypes/HTTPResponse``.
public typealias HTTPResponse = HTTPTypes.HTTPResponse

/// An encoder of JSON request bodies; see ``JSON/JSONBodyEncoder``.
public typealias JSONBodyEncoder = JSON.JSONBodyEncoder

/// The JSON body encoder with sorted keys; see ``JSON/SortedKeysJSONEncoder``.
public typealias SortedKeysJSONEncoder = JSON.SortedKeysJSONEncoder

/// The streaming JSON body encoder; see ``JSON/StreamingJSONEncoder``.
public typealias StreamingJSONEncoder = JSON.StreamingJSONEncoder

/// The JSON decoder of answers; see ``JSON/StreamingJSONDecoder``.
public typealias StreamingJSONDecoder = JSON.StreamingJSONDecoder

/// An RFC 9457 problem document, the usual ``Service/ErrorEnvelope``; see ``HTTPTypes/ProblemDetails``.
public typealias ProblemDetails = HTTPTypes.ProblemDetails
