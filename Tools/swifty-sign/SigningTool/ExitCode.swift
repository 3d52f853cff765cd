/// The tool's exit statuses (the usage and data codes follow `sysexits.h`).
public enum ExitCode {
    /// Success; for `verify`, the signature is valid.
    public static let success: Int32 = 0
    /// `verify` only: the signature is not valid (the reason is printed).
    public static let invalidSignature: Int32 = 1
    /// The command line is wrong (`EX_USAGE`).
    public static let usage: Int32 = 64
    /// The input is not an HTTP request the tool can read or sign (`EX_DATAERR`).
    public static let dataError: Int32 = 65
    /// The key file is missing or unusable (`EX_NOINPUT`).
    public static let keyFileError: Int32 = 66
}
