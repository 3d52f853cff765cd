/// The user on whose behalf the current app request calls upstreams.
///
/// The daemon binds it per app request (a task-local: request-scoped context);
/// ``SingleFlightMiddleware`` puts it in its key so identical reads are shared by one user's
/// requests and never across users.
public enum ActingUser {
    /// The acting user's identifier, or `nil` when the request has none (anonymous).
    @TaskLocal public static var id: String?
}
