/// The tool's help texts.
enum HelpText {
    static let overview = """
        OVERVIEW: Sign and verify HTTP requests with RFC 9421 HTTP Message Signatures
        (hmac-sha256) and RFC 9530 Content-Digest, as Swifty's modules and upstreams do.

        USAGE: swifty-sign <subcommand> [options] < request

        SUBCOMMANDS:
          sign      Read a raw HTTP/1.1 request, write it back signed.
          verify    Read a signed request; print 'valid' (exit 0) or the reason (exit 1).
          base      Print the signature base that would be signed or verified.
          digest    Read a body, print its Content-Digest value.

        Run 'swifty-sign <subcommand> --help' for a subcommand's options.
        Exit status: 0 success, 1 invalid signature, 64 usage error, 65 unreadable request,
        66 unusable key file.

        """

    static let sign = """
        OVERVIEW: Sign a raw HTTP/1.1 request (CRLF or LF line ends) read on standard input.
        Writes it to standard output with Content-Digest (when it has a body), Signature-Input
        and Signature added; a signature with the same label is replaced.

        USAGE: swifty-sign sign --key-file <file> --key-id <id> [options] < request

        OPTIONS:
          --key-file <file>      File holding the key as one line of base64 (at least 32 bytes).
          --key-id <id>          The keyid parameter.
          --tag <module>         The tag parameter: the module the key signs for.
          --label <label>        Signature label (default: sig1).
          --components <list>    Covered components, comma-separated (default:
                                 @method,@authority,@path,@query; content-digest is added
                                 when there is a body). Parameters as in Signature-Input,
                                 e.g. '@query-param;name="id"' or 'example-dict;sf'.
          --created <unix>       The created time (default: now).
          --expires-in <s>       Seconds from created to expires (default: 60).
          --nonce <nonce>        Use this nonce instead of a random one.
          --no-nonce             Send no nonce.
          --scheme <scheme>      https or http (default: https); the request line does not say.
          --alg <alg>            hmac-sha256 or hmac-sha512 (default: hmac-sha256).
          --help                 Show this help.

        """

    static let verify = """
        OVERVIEW: Verify a signed raw HTTP/1.1 request read on standard input, as an upstream
        would. Prints 'valid' and exits 0, or prints the reason and exits 1.

        USAGE: swifty-sign verify --key-file <file> --key-id <id> [options] < request

        OPTIONS:
          --key-file <file>      File holding the key as one line of base64.
          --key-id <id>          The key's id; a signature with another keyid is rejected.
          --tag <module>         The module the key belongs to; the signature's tag must match.
          --label <label>        The signature to check (default: sig1).
          --max-age <s>          The oldest created accepted, in seconds (default: 300).
          --now <unix>           The time to check against (default: now).
          --no-nonce             Do not require a nonce.
          --scheme <scheme>      https or http (default: https).
          --alg <alg>            The key's algorithm: hmac-sha256 or hmac-sha512 (default: hmac-sha256).
          --help                 Show this help.

        """

    static let base = """
        OVERVIEW: Print the signature base for a request read on standard input. When the
        request has a Signature-Input member with the label, prints the base a verifier rebuilds
        from it; otherwise prints the base 'sign' would sign with the same options (the key file
        is then not needed; without --created and --nonce the time is now and the nonce random).

        USAGE: swifty-sign base [options] < request

        OPTIONS:
          --label <label>        Signature label (default: sig1).
          --scheme <scheme>      https or http (default: https).
          --key-id <id>          For an unsigned request: the keyid parameter (required then).
          --key-file <file>      Accepted for symmetry with sign; not needed.
          --tag, --components, --created, --expires-in, --nonce, --no-nonce, --alg
                                 For an unsigned request: as for 'sign'.
          --help                 Show this help.

        """

    static let digest = """
        OVERVIEW: Read a body on standard input and print its RFC 9530 Content-Digest value.

        USAGE: swifty-sign digest [--alg sha-256|sha-512] < body

        OPTIONS:
          --alg <alg>            sha-256 or sha-512 (default: sha-256).
          --help                 Show this help.

        """

    static func text(for subcommand: String?) -> String {
        switch subcommand {
        case "sign": sign
        case "verify": verify
        case "base": base
        case "digest": digest
        default: overview
        }
    }
}
