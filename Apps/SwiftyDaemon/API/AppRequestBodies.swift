import Foundation
import HTTPServer
import HTTPTypes
import JSON
import ServiceCore

/// `POST /v1/posts`: `{"text": "...", "attachments": [{"fileName", "contentType", "data"}]}`,
/// `data` in base64. Unknown fields are refused.
struct CreatePostBody: Decodable, Sendable {
    struct Attachment: Decodable, Sendable {
        var fileName: String
        var contentType: String
        var data: Data

        private enum CodingKeys: String, CodingKey, CaseIterable { case fileName, contentType, data }

        init(from decoder: any Decoder) throws {
            try StrictKeys.check(decoder, allowed: CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            fileName = try container.decode(String.self, forKey: .fileName)
            contentType = try container.decode(String.self, forKey: .contentType)
            let text = try container.decode(String.self, forKey: .data)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: .data, in: container, debugDescription: "not base64")
            }
            self.data = data
        }
    }

    var text: String
    var attachments: [Attachment]

    private enum CodingKeys: String, CodingKey, CaseIterable { case text, attachments }

    init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        // Absent means none; `null` is refused like any other value of the wrong type.
        attachments =
            container.contains(.attachments) ? try container.decode([Attachment].self, forKey: .attachments) : []
    }
}

/// `POST /v1/payments`: `{"payee": "bob", "amountMinor": 1250, "currency": "EUR", "memo": "..."}`.
/// Unknown fields are refused: a misspelt `amount` must never become a zero charge.
struct CreatePaymentBody: Decodable, Sendable {
    var payee: String
    var amountMinor: Int64
    var currency: String
    var memo: String?

    private enum CodingKeys: String, CodingKey, CaseIterable { case payee, amountMinor, currency, memo }

    init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        payee = try container.decode(String.self, forKey: .payee)
        amountMinor = try container.decode(Int64.self, forKey: .amountMinor)
        currency = try container.decode(String.self, forKey: .currency)
        memo = container.contains(.memo) ? try container.decode(String.self, forKey: .memo) : nil
    }
}

/// Decodes app request bodies into a value or a 4xx problem.
enum AppBody {
    static func decode<T: Decodable>(_ type: T.Type, from request: ServerRequest) -> Result<T, AppProblemResponse> {
        guard !request.body.isEmpty else {
            return .failure(AppProblemResponse(problem: AppProblem(400, "The request needs a JSON body.")))
        }
        guard isJSON(request.headers["content-type"]) else {
            return .failure(AppProblemResponse(problem: AppProblem(415, "The body must be application/json.")))
        }
        do {
            return .success(try StreamingJSONDecoder().decode(type, from: request.body))
        } catch let error as DecodingError where !Self.isMalformedJSON(error) {
            let reason = KeyPathDecoding.explain(error)
            return .failure(AppProblemResponse(problem: AppProblem(400, "The JSON body is not valid: \(reason).")))
        } catch DecodingError.dataCorrupted(let context) {
            // The scanner's reason and offset (a duplicate member is named), never the body itself.
            let reason = context.debugDescription.replacingOccurrences(of: "not valid JSON: ", with: "")
            return .failure(AppProblemResponse(problem: AppProblem(400, "The body is not valid JSON: \(reason).")))
        } catch {
            return .failure(AppProblemResponse(problem: AppProblem(400, "The body is not valid JSON.")))
        }
    }

    /// Whether `contentType` is `application/json`, in any case, with or without parameters
    /// (`; charset=utf-8`); `application/jsonx` or `application/json-seq` is not.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        return mediaType.lowercased() == "application/json"
    }

    /// Whether the decoder failed on the JSON text itself rather than on a value in it.
    private static func isMalformedJSON(_ error: DecodingError) -> Bool {
        guard case .dataCorrupted(let context) = error else { return false }
        return context.codingPath.isEmpty && context.debugDescription.contains("JSON")
    }
}
