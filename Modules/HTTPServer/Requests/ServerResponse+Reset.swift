extension ServerResponse {
    /// Not an answer: the server resets the connection at once (a TCP RST, `SO_LINGER` 0)
    /// without sending anything, as a crashed or unplugged peer would.
    ///
    /// For fault injection: a client sees its request fail with the connection reset, not knowing
    /// whether it was processed. Requests pipelined behind it on the connection, and answers not
    /// yet written to it, are lost too.
    public static var resetConnection: ServerResponse {
        var response = ServerResponse(status: 500)
        response.resetsConnection = true
        return response
    }
}
