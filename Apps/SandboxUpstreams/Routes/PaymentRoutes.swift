import Foundation
import HTTPServer
import HTTPTypes
import RequestSigning
import ServiceCore

/// The payment upstream's routes (`docs/upstreams-payment.md`, section 4), with idempotent
/// charges and refunds.
enum PaymentRoutes {
    /// The router over the shared state.
    /// - Parameters:
    ///   - state: The shared state.
    ///   - scope: The idempotency scope: the signing tag the payment upstream accepts.
    ///   - clock: The current time.
    static func router(state: SandboxState, scope: String, clock: @escaping @Sendable () -> Date) -> Router {
        let ledger = state.ledger
        var table = RouteTable()
        table.add("GET", "/v1/wallets/:user") { _, parameters throws(Problem) in
            let user = try parameters.identifier("user")
            guard let wallet = try await stored({ () async throws(LedgerStoreError) in try await ledger.wallet(user) })
            else {
                throw Problem(.walletNotFound, "the user \"\(user)\" has no wallet")
            }
            return Answer.json(200, PaymentWire.Wallet(wallet))
        }
        table.add("GET", "/v1/charges/:id") { _, parameters throws(Problem) in
            let id = try parameters.identifier("id")
            guard let charge = try await stored({ () async throws(LedgerStoreError) in try await ledger.charge(id) })
            else {
                throw Problem(.chargeNotFound, "no charge has the id \"\(id)\"")
            }
            return Answer.json(200, PaymentWire.Charge(charge))
        }
        table.add("POST", "/v1/charges") { request, _ throws(Problem) in
            // Records are kept per payer too, so one payer's key never meets another's.
            let payer = (try? RequestBody.json(request, as: RequestWire.Charge.self))?.payerId ?? ""
            // The body's problem, if it has one, is the request's answer, kept with its key.
            let order = Result { () throws(Problem) in LedgerOrder.charge(try readCharge(request)) }
            return try await idempotent(
                request, ledger: ledger, scope: scope + "|" + payer, order: order, now: clock())
        }
        table.add("POST", "/v1/charges/:id/refunds") { request, parameters throws(Problem) in
            // A refund is the charge's payer's operation: kept under that payer's records.
            var payer = ""
            if let id = try? parameters.identifier("id") {
                payer =
                    try await stored({ () async throws(LedgerStoreError) in try await ledger.charge(id) })?.payerID
                    ?? ""
            }
            let order = Result { () throws(Problem) in
                let id = try parameters.identifier("id")
                let body = try RequestBody.json(request, as: RequestWire.Refund.self)
                let amount = try InputRules.amountMinor(body.amountMinor, named: "amountMinor")
                return LedgerOrder.refund(RefundOrder(chargeID: id, amountMinor: amount))
            }
            return try await idempotent(
                request, ledger: ledger, scope: scope + "|" + payer, order: order, now: clock())
        }
        return table.router
    }

    /// Runs a read of the ledger; a store that cannot be reached becomes its 503 problem.
    private static func stored<T>(
        _ read: () async throws(LedgerStoreError) -> T
    ) async throws(Problem) -> T {
        do throws(LedgerStoreError) {
            return try await read()
        } catch {
            throw error.problem
        }
    }

    /// Reads and checks `{"payerId", "payeeId", "amount": {"amountMinor", "currency"}, "memo"?}`.
    static func readCharge(_ request: ServerRequest) throws(Problem) -> ChargeOrder {
        let body = try RequestBody.json(request, as: RequestWire.Charge.self)
        let payer = body.payerId
        let payee = body.payeeId
        try InputRules.identifier(payer, named: "payerId")
        try InputRules.identifier(payee, named: "payeeId")
        guard payer != payee else { throw Problem(.invalidRequest, "payeeId must differ from payerId") }
        let amountMinor = try InputRules.amountMinor(body.amount.amountMinor, named: "amount.amountMinor")
        let currency = body.amount.currency
        guard SupportedCurrencies.contains(currency) else {
            throw Problem(
                .invalidRequest, "amount.currency must be a supported ISO 4217 code in upper case, such as EUR")
        }
        let memo = body.memo
        if let memo { try InputRules.memo(memo) }
        return ChargeOrder(payer: payer, payee: payee, amountMinor: amountMinor, currency: currency, memo: memo)
    }

    /// Runs a money-moving order once per `Idempotency-Key`: a missing key is 400; a repeat
    /// with the same method, path and JSON body replays the first answer with
    /// `Idempotent-Replayed: true`; a repeat with anything else is 422; a repeat while the
    /// first is still running is 409; a store that cannot be reached is 503.
    private static func idempotent(
        _ request: ServerRequest,
        ledger: any PaymentLedger,
        scope: String,
        order: Result<LedgerOrder, Problem>,
        now: Date
    ) async throws(Problem) -> ServerResponse {
        let key = try InputRules.idempotencyKey(request.headers.values(for: "Idempotency-Key"))
        // The fingerprint compares JSON by value; its digest is what the ledger keeps.
        var text = Array("\(request.method)\n\(request.path)\n".utf8)
        text += RequestBody.canonicalJSON(request) ?? request.body
        let fingerprint: [UInt8]
        do {
            fingerprint = try DigestAlgorithm.sha256.hash(text)
        } catch {
            throw Problem(.internalError, "the request's fingerprint could not be computed: \(error.message)")
        }
        let outcome: IdempotentOutcome
        do throws(LedgerStoreError) {
            outcome = try await ledger.perform(
                IdempotentRequest(scope: scope, key: key, fingerprint: fingerprint, order: order), now: now
            ) { result in
                switch result {
                case .success(let entry): StoredAnswer(response(for: entry))
                case .failure(let problem): StoredAnswer(problem.response)
                }
            }
        } catch {
            throw error.problem
        }
        switch outcome {
        case .performed(let answer):
            return answer.response
        case .replayed(let answer):
            var response = answer.response
            response.headers.add(name: "Idempotent-Replayed", value: "true")
            return response
        case .keyReused:
            throw Problem(
                .idempotencyKeyReused,
                "this Idempotency-Key was used for another request; use a new key for a new operation")
        case .keyInUse:
            throw Problem(
                .idempotencyKeyInUse,
                "the first request with this Idempotency-Key is still being processed; retry later",
                headers: [("Retry-After", "1")])
        }
    }

    /// The 201 answer for a new charge (with `Location`) or refund.
    static func response(for entry: LedgerEntry) -> ServerResponse {
        switch entry {
        case .charge(let record):
            Answer.created(
                PaymentWire.Charge(record), location: "/v1/charges/\(PercentEncoding.pathSegment(record.id))")
        case .refund(let record):
            Answer.json(201, PaymentWire.Refund(record))
        }
    }
}

extension StoredAnswer {
    /// Keeps a response's status, body and the fields worth repeating.
    init(_ response: ServerResponse) {
        status = response.status
        headers = HTTPHeaders(
            response.headers.fields.filter {
                $0.name.equalsIgnoringASCIICase("Content-Type") || $0.name.equalsIgnoringASCIICase("Location")
            })
        body = response.body
    }

    /// The kept answer as a response.
    var response: ServerResponse {
        ServerResponse(status: status, headers: headers, body: body)
    }
}
