import Foundation
public import ServiceCore

/// The payment upstream, with types: each method validates its inputs, sends one
/// ``PaymentService`` case and decodes the answer.
///
/// ```swift
/// let payments = try PaymentClient(domain: .init(environment: .production), transport: transport)
/// let charge = try await payments.createCharge(
///     payer: "alice", payee: "bob", amount: Money(amountMinor: 1250, currency: .eur),
///     memo: "lunch", idempotencyKey: key   // the app's key, or PaymentClient.makeIdempotencyKey()
/// )
/// ```
///
/// Reuse the same idempotency key when repeating a charge or refund after an unclear failure
/// (a timeout): the upstream then answers with the first result instead of moving money twice.
///
/// Every method throws ``ServiceError``: code `invalidRequest` for bad input (nothing is sent),
/// `unacceptableStatus` with a ``PaymentErrorEnvelope`` for a non-2xx answer, and the client's
/// other codes for transport and decoding failures.
public struct PaymentClient: ModuleClient {
    /// The module's identity, whose known base URLs the domain initializer uses.
    public typealias Module = PaymentModuleIdentity

    /// The generic client underneath, for raw access and ``ServiceClient/makeRequest(_:)``.
    public let serviceClient: ServiceClient<PaymentService>

    /// Wraps a client made at the composition root.
    public init(_ serviceClient: ServiceClient<PaymentService>) {
        self.serviceClient = serviceClient
    }

    /// A fresh random idempotency key (a lowercase UUID), for callers that have none of their own.
    public static func makeIdempotencyKey() -> String {
        UUID().uuidString.lowercased()
    }

    /// A user's wallet.
    public func wallet(user: String) async throws -> Wallet {
        try await serviceClient.send(.wallet(user: user), as: Wallet.self)
    }

    /// Moves `amount` from `payer`'s wallet to `payee`'s.
    /// - Parameters:
    ///   - payer: The paying user's id (the acting user).
    ///   - payee: The paid user's id; not the payer.
    ///   - amount: 1 to 2^53 - 1 minor units of a known currency.
    ///   - memo: An optional note of 1-140 characters.
    ///   - idempotencyKey: 1-255 visible ASCII characters, the same on every repeat of this charge.
    public func createCharge(
        payer: String,
        payee: String,
        amount: Money,
        memo: String? = nil,
        idempotencyKey: String
    ) async throws -> Charge {
        try await serviceClient.send(
            .createCharge(payer: payer, payee: payee, amount: amount, memo: memo, idempotencyKey: idempotencyKey),
            as: Charge.self
        )
    }

    /// One charge.
    public func charge(id: String) async throws -> Charge {
        try await serviceClient.send(.charge(id: id), as: Charge.self)
    }

    /// Gives back `amountMinor` of a charge, in the charge's currency.
    /// - Parameters:
    ///   - charge: The charge's id.
    ///   - amountMinor: 1 to 2^53 - 1 minor units, at most what is left to refund.
    ///   - idempotencyKey: 1-255 visible ASCII characters, the same on every repeat of this refund.
    public func refund(charge: String, amountMinor: Int64, idempotencyKey: String) async throws -> Refund {
        try await serviceClient.send(
            .refund(charge: charge, amountMinor: amountMinor, idempotencyKey: idempotencyKey), as: Refund.self)
    }
}
