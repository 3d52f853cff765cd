import HTTPServer
import HTTPTypes
import JSON
import PaymentModule
import ServiceCore

/// The payment module's app routes: the wallet, new payments, one payment.
struct PaymentRoutes: AppRouteGroup {
    static let modules: [any ModuleIdentity.Type] = [PaymentModuleIdentity.self]

    let payments: PaymentClient

    init(clients: RouteGroupClients) throws {
        payments = try clients.make()
    }

    func addRoutes(to routes: inout AppRoutes) {
        routes.add("GET", "/v1/wallet") { call in
            AppAnswer.json(try await payments.wallet(user: call.user))
        }
        routes.add("POST", "/v1/payments", class: .payments) { call in
            guard let key = call.request.headers["idempotency-key"], ScopedIdempotencyKey.isValid(key) else {
                var problem = AppProblem(
                    400,
                    "POST /v1/payments needs an Idempotency-Key header of 1-255 visible ASCII characters; "
                        + "reuse it when retrying.")
                problem.details.code = "idempotency_key_missing"
                throw AppProblemResponse(problem: problem)
            }
            let body = try AppBody.decode(CreatePaymentBody.self, from: call.request).get()
            let client = payments.serviceClient
            let response: HTTPResponse
            do {
                response = try await client.send(
                    .createCharge(
                        payer: call.user,
                        payee: body.payee,
                        amount: Money(amountMinor: body.amountMinor, currency: CurrencyCode(body.currency)),
                        memo: body.memo,
                        // Bound to the caller: another user's identical key is another key upstream.
                        idempotencyKey: ScopedIdempotencyKey.upstream(user: call.user, clientKey: key)
                    )
                )
            } catch let error where UnknownOutcome.isUnknown(error) {
                throw UnknownOutcome.problem(for: error, idempotencyKey: key)
            }
            let charge: Charge
            do {
                charge = try client.configuration.jsonDecoder.decode(Charge.self, from: response.body)
            } catch {
                // The charge was made; only its answer could not be read.
                throw UnknownOutcome.problem(
                    for: ServiceError(
                        code: .decoding, module: PaymentModuleIdentity.name, operation: "createCharge",
                        message: "the charge does not decode: \(error)", underlying: error),
                    idempotencyKey: key)
            }
            var answer = AppAnswer.json(201, charge)
            // A repeat of a key the upstream already charged: say so, as the upstream did.
            if response.headers["Idempotent-Replayed"] == "true" {
                answer.headers.add(name: "Idempotent-Replayed", value: "true")
            }
            return answer
        }
        routes.add("GET", "/v1/payments/:id") { call in
            let notFound = AppProblemResponse(
                problem: AppProblem(404, "No payment with this id.", code: "payment_not_found"))
            let charge: Charge
            do {
                charge = try await payments.charge(id: call.parameters["id"] ?? "")
            } catch let error as ServiceError where error.response?.status == 404 || error.code == .invalidRequest {
                throw notFound
            }
            // Only the payer and the payee may see a payment; anyone else learns nothing,
            // not even that it exists.
            guard charge.payerId == call.user || charge.payeeId == call.user else { throw notFound }
            return AppAnswer.json(charge)
        }
    }
}
