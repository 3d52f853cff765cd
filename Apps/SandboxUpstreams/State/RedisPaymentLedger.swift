import Foundation
import HTTPTypes
import RedisClient

/// A ``PaymentLedger`` in Redis, shared by every sandbox set that uses the same Redis and key
/// prefix: wallets, charges, refunds and the answers kept per idempotency key.
///
/// - The first request with a key takes the key's lock (`SET NX PX`, ``lockLifetime``) and
///   draws the new entry's id from a counter (`INCR`), so two sandbox sets never make the same
///   id. A concurrent request with the same key polls for the first answer for at most
///   ``waitLimit``, then gets ``IdempotentOutcome/keyInUse``.
/// - The checks, the moving of money, the new charge or refund and the kept answer are one Lua
///   script (``RedisLedgerScripts/operation``), run only while the lock is the caller's and no
///   answer is kept: no interleaving overdraws a wallet or charges a key twice, and money never
///   moves without its answer kept. A failed check keeps its answer with a second call under the
///   same lock; nothing moved, so losing that call only lets a retry check again.
/// - The seeded wallets are created when absent (never reset), at start and again whenever the
///   seeded marker is gone (a Redis that restarted empty).
/// - A call that fails throws ``LedgerStoreError`` (answered 503) and is counted in
///   ``SandboxMetrics``.
final class RedisPaymentLedger: PaymentLedger {
    /// How long a key's lock lives when its holder never finishes (a crash, Redis gone).
    static let lockLifetime: Duration = .seconds(5)
    /// How long a concurrent request with the same key waits for the first answer.
    static let waitLimit: Duration = .seconds(2)
    /// How often a waiting request looks for the first answer.
    static let pollInterval: Duration = .milliseconds(10)
    /// How long an answer is kept for its key, as ``InMemoryPaymentLedger/retention``.
    static let retention: Duration = .seconds(Int64(InMemoryPaymentLedger.retention))

    private let client: RedisClient
    private let prefix: String
    private let metrics: SandboxMetrics
    /// The store as problems name it: `Redis at host:port`.
    let store: String

    /// Creates a ledger; call ``seed()`` before serving.
    /// - Parameters:
    ///   - client: The Redis client (owned by the caller).
    ///   - keyPrefix: The start of every key, so several sandboxes can use one Redis apart.
    ///   - metrics: Where failed calls are counted.
    init(client: RedisClient, keyPrefix: String, metrics: SandboxMetrics) {
        self.client = client
        self.prefix = keyPrefix
        self.metrics = metrics
        store = "Redis at \(client.configuration.endpoint)"
    }

    // MARK: Keys

    private var markerKey: RedisArgument { RedisArgument(prefix + "ledger:seeded") }
    private func walletKey(_ user: String) -> RedisArgument { RedisArgument(prefix + "wallet:" + user) }
    private func chargeKey(_ id: String) -> RedisArgument { RedisArgument(prefix + "charge:" + id) }
    private func refundKey(_ id: String) -> RedisArgument { RedisArgument(prefix + "refund:" + id) }
    private func sequenceKey(_ kind: String) -> RedisArgument { RedisArgument(prefix + "ledger:next-" + kind) }

    // MARK: Reading

    /// Creates the seeded wallets that are absent (``SandboxSeed``), leaving existing ones as
    /// they are, and marks the books seeded.
    func seed() async throws(LedgerStoreError) {
        let wallets = SandboxSeed.wallets
        _ = try await call("seeding the wallets") {
            try await client.evalScript(
                RedisLedgerScripts.seed, keys: [markerKey] + wallets.map { walletKey($0.user) },
                arguments: wallets.flatMap { [RedisArgument(String($0.balanceMinor)), RedisArgument($0.currency)] })
        }
    }

    func wallet(_ user: String) async throws(LedgerStoreError) -> WalletRecord? {
        let fields = try await read(["HMGET", walletKey(user), "balance", "currency"])
        guard let balance = fields.first?.integerValue, let currency = fields.last?.stringValue else { return nil }
        return WalletRecord(userID: user, balanceMinor: balance, currency: currency)
    }

    func charge(_ id: String) async throws(LedgerStoreError) -> ChargeRecord? {
        let fields = try await read([
            "HMGET", chargeKey(id), "payer", "payee", "amount", "currency", "refunded", "memo", "createdAt",
        ])
        guard fields.count == 7, let payer = fields[0].stringValue, let payee = fields[1].stringValue,
            let amount = fields[2].integerValue, let currency = fields[3].stringValue,
            let refunded = fields[4].integerValue, let created = fields[6].integerValue
        else { return nil }
        return ChargeRecord(
            id: id, payerID: payer, payeeID: payee, amountMinor: amount, currency: currency, refundedMinor: refunded,
            memo: fields[5].stringValue, createdAt: Date(timeIntervalSince1970: TimeInterval(created)))
    }

    /// The reply of an `HMGET`, with the seeded marker read in the same round trip: when the
    /// marker is gone (Redis restarted empty), the wallets are seeded again and the read repeated.
    private func read(_ command: [RedisArgument]) async throws(LedgerStoreError) -> [RedisValue] {
        for _ in 0..<2 {
            let replies = try await call("reading the books") {
                try await client.pipeline([["EXISTS", markerKey], command])
            }
            guard replies.count == 2, let marker = replies[0].integerValue, let fields = replies[1].arrayValue else {
                throw failure("an unexpected reply to a read")
            }
            if marker == 1 { return fields }
            try await seed()
        }
        throw failure("the seeded marker did not stay")
    }

    // MARK: Idempotent operations

    func perform(
        _ request: IdempotentRequest,
        now: Date,
        render: (Result<LedgerEntry, Problem>) -> StoredAnswer
    ) async throws(LedgerStoreError) -> IdempotentOutcome {
        let name = request.scope + "\u{0}" + request.key
        let record = RedisArgument(prefix + "idempotency:" + name)
        let lock = RedisArgument(prefix + "idempotency-lock:" + name)
        let token = RedisArgument(
            String(UInt64.random(in: .min ... .max), radix: 16) + String(UInt64.random(in: .min ... .max), radix: 16))
        var counter: [RedisArgument] = []
        if case .success(let order) = request.order {
            switch order {
            case .charge: counter = [sequenceKey("charge")]
            case .refund: counter = [sequenceKey("refund")]
            }
        }
        let deadline = ContinuousClock.now + Self.waitLimit
        while true {
            let begin = try await script(
                "taking the idempotency key", RedisLedgerScripts.begin,
                keys: [record, lock] + counter, arguments: [token, RedisArgument(Int(Self.lockLifetime.milliseconds))])
            switch begin[0] {
            case "recorded":
                guard begin.count == 5, let status = Int(begin[2]) else { throw failure("a malformed kept answer") }
                let answer = StoredAnswer(
                    status: status, headers: Self.headers(begin[3]), body: Data(begin[4].utf8Bytes))
                return begin[1].utf8Bytes == request.fingerprint ? .replayed(answer) : .keyReused
            case "locked":
                guard begin.count == 2, let sequence = Int(begin[1]) else { throw failure("a malformed lock reply") }
                if let outcome = try await run(
                    request, sequence: sequence, now: now, record: record, lock: lock, token: token, render: render)
                {
                    return outcome
                }
            case "busy":
                break
            default:
                throw failure("an unexpected reply to taking the idempotency key")
            }
            guard ContinuousClock.now < deadline else { return .keyInUse }
            try? await Task.sleep(for: Self.pollInterval)
        }
    }

    /// Runs the order under the key's lock; `nil` when the lock was lost or the answer appeared
    /// meanwhile (the caller looks again).
    private func run(
        _ request: IdempotentRequest,
        sequence: Int,
        now: Date,
        record: RedisArgument,
        lock: RedisArgument,
        token: RedisArgument,
        render: (Result<LedgerEntry, Problem>) -> StoredAnswer
    ) async throws(LedgerStoreError) -> IdempotentOutcome? {
        let order: LedgerOrder
        switch request.order {
        case .failure(let problem):
            return try await keep(render(.failure(problem)), request, record: record, lock: lock, token: token)
        case .success(let value):
            order = value
        }
        // The answer of a success is rendered before the script runs, so that the script keeps
        // it in the same step as it moves the money.
        let entry: LedgerEntry
        var keys: [RedisArgument] = [record, lock, markerKey]
        var arguments: [RedisArgument] = []
        switch order {
        case .charge(let charge):
            let made = ChargeRecord(charge, id: "ch_\(sequence)", at: now)
            entry = .charge(made)
            keys += [walletKey(charge.payer), walletKey(charge.payee), chargeKey(made.id)]
            arguments = [
                RedisArgument(charge.payer), RedisArgument(charge.payee), charge.memo == nil ? "0" : "1",
                RedisArgument(charge.memo ?? ""), RedisArgument(Int(made.createdAt.timeIntervalSince1970)),
            ]
        case .refund(let refund):
            // A charge's parties and currency never change, so reading them first is safe; the
            // script checks that the charge exists.
            let charge = try await self.charge(refund.chargeID)
            let made = RefundRecord(refund, id: "re_\(sequence)", currency: charge?.currency ?? "", at: now)
            entry = .refund(made)
            keys += [
                walletKey(charge?.payeeID ?? ""), walletKey(charge?.payerID ?? ""), refundKey(made.id),
                chargeKey(refund.chargeID),
            ]
            arguments = [RedisArgument(refund.chargeID), RedisArgument(Int(made.createdAt.timeIntervalSince1970))]
        }
        let answer = render(.success(entry))
        guard answer.status < 500 else {
            // An answer that cannot be kept moves no money.
            _ = try await operation("release", answer, request, keys: [record, lock, markerKey], token: token)
            return .performed(answer)
        }
        let (amount, currency): (Int64, String) =
            switch entry {
            case .charge(let made): (made.amountMinor, made.currency)
            case .refund(let made): (made.amountMinor, made.currency)
            }
        let common: [RedisArgument] = [
            RedisArgument(String(LedgerBook.maximumBalanceMinor)), RedisArgument(String(amount)),
            RedisArgument(currency),
        ]
        let kind = if case .charge = order { "charge" } else { "refund" }
        for _ in 0..<2 {
            let reply = try await operation(kind, answer, request, keys: keys, token: token, extra: common + arguments)
            switch RedisText(reply[0]) {
            case "ok":
                return .performed(answer)
            case "unseeded":
                try await seed()
            case "fail":
                let refusal = try ledgerFailure(reply, order: order)
                return try await keep(
                    render(.failure(refusal.problem)), request, record: record, lock: lock, token: token)
            case "recorded", "lost":
                return nil
            default:
                throw failure("an unexpected reply to the ledger operation")
            }
        }
        throw failure("the seeded marker did not stay")
    }

    /// Keeps an answer that moved no money under the key's lock; `nil` when the lock was lost.
    private func keep(
        _ answer: StoredAnswer,
        _ request: IdempotentRequest,
        record: RedisArgument,
        lock: RedisArgument,
        token: RedisArgument
    ) async throws(LedgerStoreError) -> IdempotentOutcome? {
        let kind = answer.status < 500 ? "answer" : "release"
        let reply = try await operation(kind, answer, request, keys: [record, lock, markerKey], token: token)
        switch RedisText(reply[0]) {
        case "ok": return .performed(answer)
        case "recorded", "lost": return nil
        default: throw failure("an unexpected reply to keeping an answer")
        }
    }

    private func operation(
        _ kind: String,
        _ answer: StoredAnswer,
        _ request: IdempotentRequest,
        keys: [RedisArgument],
        token: RedisArgument,
        extra: [RedisArgument] = []
    ) async throws(LedgerStoreError) -> [RedisValue] {
        let arguments: [RedisArgument] = [
            RedisArgument(kind), token, RedisArgument(Int(Self.retention.milliseconds)),
            RedisArgument(bytes: request.fingerprint), RedisArgument(answer.status),
            RedisArgument(Self.text(of: answer.headers)), RedisArgument(bytes: Array(answer.body)),
        ]
        return try await scriptValues(
            "the ledger operation", RedisLedgerScripts.operation, keys: keys, arguments: arguments + extra)
    }

    /// The ``LedgerFailure`` a script's `{'fail', kind, ...}` reply stands for.
    private func ledgerFailure(_ reply: [RedisValue], order: LedgerOrder) throws(LedgerStoreError) -> LedgerFailure {
        let text = reply.map(RedisText.init)
        let kind = text.count > 1 ? text[1].string : ""
        let party = text.count > 2 ? LedgerParty(rawValue: text[2].string) : nil
        switch (kind, order, party) {
        case ("wallet", .charge(let charge), let party?):
            return .walletNotFound(party, party == .payer ? charge.payer : charge.payee)
        case ("currency", .charge(let charge), let party?) where text.count > 3:
            return .currencyMismatch(party, requested: charge.currency, wallet: text[3].string)
        case ("funds", _, let party?):
            return .insufficientFunds(party)
        case ("limit", _, let party?):
            return .balanceLimit(party)
        case ("nocharge", .refund(let refund), _):
            return .chargeNotFound(refund.chargeID)
        case ("exceeds", .refund(let refund), _):
            guard text.count > 2, let left = Int64(text[2].string) else { break }
            return .refundExceedsCharge(amount: refund.amountMinor, left: left)
        case ("chargewallet", .refund, _):
            return .chargeWalletMissing
        default:
            break
        }
        throw failure("an unknown failure from the ledger script")
    }

    // MARK: Calls

    private func script(
        _ what: String,
        _ script: RedisScript,
        keys: [RedisArgument],
        arguments: [RedisArgument]
    ) async throws(LedgerStoreError) -> [RedisText] {
        try await scriptValues(what, script, keys: keys, arguments: arguments).map(RedisText.init)
    }

    private func scriptValues(
        _ what: String,
        _ script: RedisScript,
        keys: [RedisArgument],
        arguments: [RedisArgument]
    ) async throws(LedgerStoreError) -> [RedisValue] {
        let reply = try await call(what) {
            try await client.evalScript(script, keys: keys, arguments: arguments)
        }
        guard let values = reply.arrayValue, !values.isEmpty else {
            throw failure("an unexpected reply to \(what)")
        }
        return values
    }

    /// Runs Redis calls; a failure is counted and becomes a ``LedgerStoreError`` naming the
    /// store and the failure's code (never a command's arguments).
    private func call<T>(_ what: String, _ body: () async throws -> T) async throws(LedgerStoreError) -> T {
        do {
            return try await body()
        } catch let error as RedisError {
            metrics.countLedgerRedisError()
            let detail = error.code == .server ? "\(error.serverErrorPrefix ?? "error") reply" : "\(error.code)"
            throw LedgerStoreError(store: store, reason: "\(what): \(detail)")
        } catch {
            metrics.countLedgerRedisError()
            throw LedgerStoreError(store: store, reason: "\(what): \(error)")
        }
    }

    private func failure(_ reason: String) -> LedgerStoreError {
        metrics.countLedgerRedisError()
        return LedgerStoreError(store: store, reason: reason)
    }

    // MARK: Kept header fields

    /// `Content-Type` and `Location` as `name LF value LF` pairs (field values hold no LF).
    static func text(of headers: HTTPHeaders) -> String {
        headers.fields.map { $0.name + "\n" + $0.value + "\n" }.joined()
    }

    /// The fields of ``text(of:)``.
    static func headers(_ text: RedisText) -> HTTPHeaders {
        let lines = String(decoding: text.utf8Bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        var headers = HTTPHeaders()
        var index = 0
        while index + 1 < lines.count {
            headers.add(name: String(lines[index]), value: String(lines[index + 1]))
            index += 2
        }
        return headers
    }
}
