import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore

/// The payment upstream's routes (`docs/upstreams.md` section 4), with idempotent charges and
/// refunds.
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
            guard let wallet = ledger.read({ $0.wallets[user] }) else {
                throw Problem(.walletNotFound, "the user \"\(user)\" has no wallet")
            }
            return Answer.json(200, PaymentWire.Wallet(wallet))
        }
        table.add("GET", "/v1/charges/:id") { _, parameters throws(Problem) in
            let id = try parameters.identifier("id")
            guard let charge = ledger.read({ $0.charges[id] }) else {
                throw Problem(.chargeNotFound, "no charge has the id \"\(id)\"")
            }
            return Answer.json(200, PaymentWire.Charge(charge))
        }
        table.add("POST", "/v1/charges") { request, _ throws(Problem) in
            // Records are kept per payer too, so one payer's key never meets another's.
            let payer = (try? RequestBody.json(request, as: RequestWire.Charge.self))?.payerId ?? ""
            return try idempotent(request, ledger: ledger, scope: scope + "|" + payer, now: clock()) {
                book, now throws(Problem) in
                let charge = try readCharge(request)
                let record = try book.charge(
                    payer: charge.payer, payee: charge.payee, amountMinor: charge.amountMinor,
                    currency: charge.currency, memo: charge.memo, at: now)
                return Answer.created(
                    PaymentWire.Charge(record), location: "/v1/charges/\(PercentEncoding.pathSegment(record.id))")
            }
        }
        table.add("POST", "/v1/charges/:id/refunds") { request, parameters throws(Problem) in
            // A refund is the charge's payer's operation: kept under that payer's records.
            let payer =
                (try? parameters.identifier("id")).flatMap { id in ledger.read { $0.charges[id]?.payerID } } ?? ""
            return try idempotent(request, ledger: ledger, scope: scope + "|" + payer, now: clock()) {
                book, now throws(Problem) in
                let id = try parameters.identifier("id")
                let body = try RequestBody.json(request, as: RequestWire.Refund.self)
                let amount = try InputRules.amountMinor(body.amountMinor, named: "amountMinor")
                let refund = try book.refund(charge: id, amountMinor: amount, at: now)
                return Answer.json(201, PaymentWire.Refund(refund))
            }
        }
        return table.router
    }

    /// A charge request as read from its body.
    struct ChargeRequest {
        var payer: String
        var payee: String
        var amountMinor: Int64
        var currency: String
        var memo: String?
    }

    /// Reads and checks `{"payerId", "payeeId", "amount": {"amountMinor", "currency"}, "memo"?}`.
    static func readCharge(_ request: ServerRequest) throws(Problem) -> ChargeRequest {
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
        return ChargeRequest(payer: payer, payee: payee, amountMinor: amountMinor, currency: currency, memo: memo)
    }

    /// Runs a money-moving operation once per `Idempotency-Key`: a missing key is 400; a repeat
    /// with the same method, path and JSON body replays the first answer with
    /// `Idempotent-Replayed: true`; a repeat with anything else is 422.
    private static func idempotent(
        _ request: ServerRequest,
        ledger: any PaymentLedger,
        scope: String,
        now: Date,
        _ operation: (inout LedgerBook, Date) throws(Problem) -> ServerResponse
    ) throws(Problem) -> ServerResponse {
        let key = try InputRules.idempotencyKey(request.headers.values(for: "Idempotency-Key"))
        // The body's problem, if it has one, is the operation's answer, stored with the key like
        // any other; the fingerprint compares JSON by value.
        var fingerprint = Array("\(request.method)\n\(request.path)\n".utf8)
        fingerprint += RequestBody.canonicalJSON(request) ?? request.body
        let outcome = ledger.perform(scope: scope, key: key, fingerprint: fingerprint, now: now) { book in
            // The book's operations check everything before they change anything, so a thrown
            // problem leaves the book as it was.
            let response: ServerResponse
            do throws(Problem) {
                response = try operation(&book, now)
            } catch {
                response = error.response
            }
            return StoredAnswer(response)
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
                "the first request with this Idempotency-Key is still being processed; retry later")
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
