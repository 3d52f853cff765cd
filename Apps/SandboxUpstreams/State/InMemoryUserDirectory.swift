import Foundation
import Synchronization

/// The default ``UserDirectory``: everything in memory behind one lock.
final class InMemoryUserDirectory: UserDirectory {
    private struct State {
        var displayNames: [String: String] = [:]
        /// Actor to (target to follow sequence).
        var following: [String: [String: Int64]] = [:]
        var nextSequence: Int64 = 1
        var sessions: [String: SessionRecord] = [:]
    }

    private let state = Mutex(State())

    /// Creates an empty directory.
    init() {}

    /// Adds a user (or renames one).
    func addUser(id: String, displayName: String) {
        state.withLock { $0.displayNames[id] = displayName }
    }

    /// Makes a token stand for a user until `expiresAt`.
    func addSession(token: String, userID: String, expiresAt: Date) {
        state.withLock { $0.sessions[token] = SessionRecord(userID: userID, expiresAt: expiresAt) }
    }

    func user(_ id: String) -> UserRecord? {
        state.withLock { state in
            guard let name = state.displayNames[id] else { return nil }
            let followers = state.following.values.reduce(0) { $0 + ($1[id] == nil ? 0 : 1) }
            return UserRecord(
                id: id, displayName: name, followerCount: followers, followingCount: state.following[id]?.count ?? 0)
        }
    }

    func follow(actor: String, target: String) -> FollowResult {
        state.withLock { state in
            guard state.displayNames[actor] != nil else { return .unknownActor }
            guard state.displayNames[target] != nil else { return .unknownTarget }
            guard actor != target else { return .followingSelf }
            if state.following[actor]?[target] == nil {
                state.following[actor, default: [:]][target] = state.nextSequence
                state.nextSequence += 1
            }
            return .done
        }
    }

    func unfollow(actor: String, target: String) -> FollowResult {
        state.withLock { state in
            guard state.displayNames[actor] != nil else { return .unknownActor }
            guard state.displayNames[target] != nil else { return .unknownTarget }
            state.following[actor]?[target] = nil
            return .done
        }
    }

    func followers(of id: String, before: Int64?, limit: Int) -> (entries: [FollowerEntry], hasMore: Bool)? {
        state.withLock { state in
            guard state.displayNames[id] != nil else { return nil }
            var entries: [FollowerEntry] = []
            for (actor, targets) in state.following {
                guard let sequence = targets[id], before.map({ sequence < $0 }) ?? true else { continue }
                entries.append(
                    FollowerEntry(id: actor, displayName: state.displayNames[actor] ?? actor, sequence: sequence))
            }
            entries.sort { $0.sequence > $1.sequence }
            return (Array(entries.prefix(limit)), entries.count > limit)
        }
    }

    func followedUsers(of id: String) -> Set<String>? {
        state.withLock { state in
            guard state.displayNames[id] != nil else { return nil }
            return Set(state.following[id].map { Array($0.keys) } ?? [])
        }
    }

    func session(forToken token: String, at now: Date) -> SessionRecord? {
        state.withLock { state in
            guard let session = state.sessions[token], session.expiresAt > now else { return nil }
            return session
        }
    }
}
