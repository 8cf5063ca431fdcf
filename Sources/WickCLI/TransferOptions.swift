// Everything a `wick` command line asks for, after curl's rules have been applied to it.
public import Wick

/// The settings of one transfer, as the command line gave them (`init(arguments:input:)`).
public struct TransferOptions: Sendable {
    /// The URLs, fetched one after the other over one session (`http://` is added to one with
    /// no scheme, as curl does).
    public var urls: [String] = []
    /// `-X`: the method, as given.
    public var method: String?
    /// `-H`, in order.
    public var headers: [HeaderArgument] = []
    /// The request body from the data options, pieces joined with `&`; nil when none was given.
    public var data: [UInt8]?
    /// Whether a data option was `--json` (adds JSON's Content-Type and Accept).
    public var isJSON = false
    /// `-F`/`--form-string`, in order.
    public var form: [FormField] = []
    /// `-G`: the data goes in the URL's query and the method is GET.
    public var dataInQuery = false
    /// `-o` and `-O`, in order: the n-th names the n-th URL's file; a URL without one writes to
    /// standard output.
    public var outputs: [OutputTarget] = []
    /// `-J`: with `-O`, the file is named as the response's Content-Disposition says, if it does.
    public var usesHeaderName = false
    /// `--output-dir`: the directory `-o` and `-O` files go in.
    public var outputDirectory: String?
    /// `-C`: resume at this byte offset (`-`: the output file's size), appending to the file.
    public var continueAt: String?
    /// `--create-dirs`: create the output file's missing directories.
    public var createsDirectories = false
    /// `-L`: follow redirects.
    public var followsRedirects = false
    /// `--max-redirs`: the most redirects `-L` follows (curl's default 50; -1 means no limit).
    public var maximumRedirects = 50
    /// `-k`: no certificate or host name check.
    public var insecure = false
    /// `--cacert`: the PEM file of trust roots.
    public var caCertificateFile: String?
    /// `--capath`: a directory whose PEM files hold trust roots.
    public var caDirectory: String?
    /// `-E`/`--cert`: the client certificate chain for servers that ask for one, a PEM file
    /// (its key too, without `--key`), or a PKCS#12 file (`.p12`, `.pfx`) as `FILE[:PASSWORD]`.
    public var clientCertificateFile: String?
    /// `--key`: the PEM file of the client certificate's private key.
    public var clientKeyFile: String?
    /// `-b`: cookies to send, each `name=value; ...` as it is, or a cookie file (Netscape
    /// format, as `-c` writes) to read; either turns the cookie engine on.
    public var cookies: [String] = []
    /// `-c`: the file every cookie is written to at the end (`-` for standard output); turns
    /// the cookie engine on.
    public var cookieJar: String?
    /// `--pinnedpubkey`: `sha256//BASE64` pins, `;`-separated.
    public var pinnedPublicKeys: String?
    /// `-u`: `user:password` for Basic authentication (sent at once), or Digest.
    public var user: String?
    /// `--digest`: `-u` answers a Digest challenge instead of sending Basic at once.
    public var usesDigest = false
    /// `-A`: the User-Agent.
    public var userAgent: String?
    /// `-e`: the Referer.
    public var referer: String?
    /// `--compressed`: ask for gzip, deflate, br and zstd, and decode them.
    public var compressed = false
    /// `--http2` (the default, as curl's for https since 7.62: offer `h2` in TLS's ALPN,
    /// HTTP/1.1 if the server does not select it) and `--http1.1` (HTTP/1.1 only), the last one
    /// given winning.
    public var httpVersion: HTTPVersionPreference = .preferHTTP2
    /// `--http2-prior-knowledge`: cleartext URLs speak HTTP/2 at once (h2c), with no upgrade.
    public var http2PriorKnowledge = false
    /// `-i`: write the response head before the body.
    public var includesHead = false
    /// `-I`: send HEAD and write the response head only.
    public var headOnly = false
    /// `-v`: trace the exchange on standard error.
    public var verbose = false
    /// `-s`: no progress and no error messages.
    public var silent = false
    /// `--progress-meter` (the default); `--no-progress-meter` turns the meter and bar off.
    public var drawsProgress = true
    /// `-#`/`--progress-bar`: the bar instead of the meter.
    public var drawsProgressBar = false
    /// `-Z`/`--parallel`: the URLs are transferred at once, not one after the other.
    public var isParallel = false
    /// `--parallel-max`: the most transfers `-Z` runs at once (curl's default 50, at most 300).
    public var parallelMaximum = TransferOptions.defaultParallelMaximum
    /// `--parallel-immediate`: open new connections rather than wait to share one. Wick's
    /// HTTP/1.1 connections are never shared, so `-Z` always does.
    public var opensConnectionsImmediately = false
    /// `-S`: error messages even with `-s`.
    public var showsError = false
    /// `-f`: a status of 400 or more writes no body and exits 22.
    public var failsOnHTTPError = false
    /// `--fail-with-body`: a status of 400 or more writes the body and exits 22.
    public var failsWithBody = false
    /// `-w`: the write-out template.
    public var writeOut: String?
    /// `-m`: the whole transfer's limit, in seconds.
    public var maximumTime: Double?
    /// `--max-filesize`: the largest body to download, in bytes; a larger Content-Length fails
    /// the transfer before any body byte is written, and a body without one fails once it
    /// passes the limit (as curl 8.4 and later), both with 63.
    public var maximumFileSize: Int?
    /// `--connect-timeout`: the connect's (and TLS handshake's) limit, in seconds.
    public var connectTimeout: Double?
    /// `--retry`: how many times a transient failure is retried.
    public var retries = 0
    /// `--retry-delay`: seconds between retries instead of curl's doubling from 1 s.
    public var retryDelay: Double?
    /// `--retry-max-time`: no retry starts this many seconds after the first attempt did.
    public var retryMaximumTime: Double?
    /// `--retry-all-errors`: every failure is retried, not only the transient ones.
    public var retriesAllErrors = false
    /// `-x`: the proxy URL (`http://host:port`, `https://host:port`, `socks5h://host:port`; a
    /// bare `host:port` is http). `--socks5`, `--socks5-hostname`, `--socks4` and `--socks4a` set it too.
    public var proxy: String?
    /// `-U`/`--proxy-user USER:PASSWORD`: the proxy's credentials, in place of any in its URL.
    public var proxyUser: String?
    /// `--proxy-cacert`: a PEM file of the CA certificates an HTTPS proxy's chain must lead to,
    /// in place of the system store.
    public var proxyCACertificateFile: String?
    /// `--proxy-insecure`: an HTTPS proxy's certificate is not checked at all.
    public var proxyInsecure = false
    /// `--noproxy`: hosts reached directly, comma-separated (`*`: all).
    public var noProxy: String?
    /// `--unix-socket`: the socket the request goes to instead of the URL's host.
    public var unixSocket: String?
    /// `--resolve host:port:address[,address]...`, each given: addresses used for `host:port`.
    public var resolveEntries: [String] = []
    /// `--connect-to HOST1:PORT1:HOST2:PORT2`, each given: where requests to HOST1:PORT1 connect.
    public var connectToEntries: [String] = []
    /// `--interface`: the local IP address connections are made from (interface names are not
    /// supported).
    public var interface: String?
    /// `--local-port N[-M]`: the local ports connections may use.
    public var localPorts: ClosedRange<Int>?
    /// `--print-swift`: print the Wick code of the request instead of sending it.
    public var printsSwift = false
    /// Warnings met while reading the command line (an unreadable `-d @file`), for stderr;
    /// none after a `-s`.
    public var warnings: [String] = []

    /// curl's `--parallel-max` when none (or less than 1) is given.
    public static let defaultParallelMaximum = 50
    /// The largest `--parallel-max` curl takes; a larger one is this.
    public static let largestParallelMaximum = 300

    /// Defaults: a GET of no URL.
    public init() {}
}
