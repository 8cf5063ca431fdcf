// curl's exit codes (libcurl's CURLcode values) for the failures `wick` can meet.

/// The process exit status, numbered as curl's for the same failure, so scripts written
/// against curl read `wick`'s the same way. `CommandFailure+WickError.swift` maps Wick's errors to them.
public struct CurlExitCode: RawRepresentable, Hashable, Sendable {
    /// The number the process exits with.
    public let rawValue: Int32
    /// A code by its number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: the transfer finished (whatever its HTTP status, unless `-f`).
    public static let ok = CurlExitCode(rawValue: 0)
    /// 1: the URL's scheme is not http or https.
    public static let unsupportedProtocol = CurlExitCode(rawValue: 1)
    /// 2: the command line is wrong (an unknown option, a missing value, no URL).
    public static let failedInitialization = CurlExitCode(rawValue: 2)
    /// 3: the URL does not parse.
    public static let malformedURL = CurlExitCode(rawValue: 3)
    /// 5: the proxy's name did not resolve.
    public static let couldNotResolveProxy = CurlExitCode(rawValue: 5)
    /// 6: the host's name did not resolve.
    public static let couldNotResolveHost = CurlExitCode(rawValue: 6)
    /// 7: no connection could be made (refused, unreachable).
    public static let couldNotConnect = CurlExitCode(rawValue: 7)
    /// 8: the server's reply is not HTTP as expected.
    public static let weirdServerReply = CurlExitCode(rawValue: 8)
    /// 18: the connection closed before the whole body arrived.
    public static let partialFile = CurlExitCode(rawValue: 18)
    /// 22: `-f`/`--fail-with-body` and a status of 400 or more.
    public static let httpReturnedError = CurlExitCode(rawValue: 22)
    /// 23: the output could not be written.
    public static let writeError = CurlExitCode(rawValue: 23)
    /// 26: a file to send could not be read.
    public static let readError = CurlExitCode(rawValue: 26)
    /// 28: a timeout passed (`-m`, `--connect-timeout`).
    public static let operationTimedOut = CurlExitCode(rawValue: 28)
    /// 33: `-C` asked to resume and the server sent the whole body instead of a range.
    public static let rangeError = CurlExitCode(rawValue: 33)
    /// 35: the TLS handshake failed.
    public static let sslConnectError = CurlExitCode(rawValue: 35)
    /// 42: the transfer was cancelled.
    public static let abortedByCallback = CurlExitCode(rawValue: 42)
    /// 45: `--interface` names no usable local address.
    public static let interfaceFailed = CurlExitCode(rawValue: 45)
    /// 47: more redirects than `--max-redirs`.
    public static let tooManyRedirects = CurlExitCode(rawValue: 47)
    /// 49: an option's value has the wrong syntax (a `--resolve` or `--connect-to` entry).
    public static let optionSyntaxError = CurlExitCode(rawValue: 49)
    /// 52: the server closed the connection without a byte of response.
    public static let gotNothing = CurlExitCode(rawValue: 52)
    /// 55: the request could not be sent.
    public static let sendError = CurlExitCode(rawValue: 55)
    /// 56: receiving failed (a reset, a TLS failure, a proxy's refusal of CONNECT).
    public static let receiveError = CurlExitCode(rawValue: 56)
    /// 58: the client certificate or key (`--cert`, `--key`) could not be used.
    public static let localCertificateProblem = CurlExitCode(rawValue: 58)
    /// 60: the server's certificate chain is not trusted.
    public static let peerFailedVerification = CurlExitCode(rawValue: 60)
    /// 61: the body's Content-Encoding could not be decoded.
    public static let badContentEncoding = CurlExitCode(rawValue: 61)
    /// 63: the body is larger than allowed.
    public static let fileSizeExceeded = CurlExitCode(rawValue: 63)
    /// 77: the CA file (`--cacert`) could not be used.
    public static let badCACertificateFile = CurlExitCode(rawValue: 77)
    /// 90: the server's public key does not match `--pinnedpubkey`.
    public static let pinnedPublicKeyMismatch = CurlExitCode(rawValue: 90)
    /// 97: the SOCKS proxy's handshake failed (curl's `CURLE_PROXY`).
    public static let proxyHandshakeFailed = CurlExitCode(rawValue: 97)
}
