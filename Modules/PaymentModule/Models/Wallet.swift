/// A user's wallet, as `GET /v1/wallets/{user}` answers it.
public struct Wallet: Codable, Sendable, Equatable {
    /// The owner's user id.
    public var userId: String
    /// The money available, in the wallet's one currency.
    public var balance: Money

    /// Creates a wallet.
    public init(userId: String, balance: Money) {
        self.userId = userId
        self.balance = balance
    }
}
