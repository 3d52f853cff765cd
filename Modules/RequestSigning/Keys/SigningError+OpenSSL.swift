import COpenSSL

extension SigningError {
    /// An error for a failed OpenSSL call, with the reasons OpenSSL queued (the queue is emptied).
    static func openSSL(_ operation: String) -> SigningError {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            if reasons.count < 4 {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        let detail = reasons.isEmpty ? "no reason given" : reasons.joined(separator: "; ")
        return SigningError(.cryptoFailure, "\(operation) failed: \(detail)")
    }
}
