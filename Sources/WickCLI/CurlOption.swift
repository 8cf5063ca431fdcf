// The options `wick` understands, by curl's names: which take a value, which are switches.

/// One command-line option as curl spells it: its long name, its one-letter form if it has
/// one, and whether it takes a value. A switch (no value) can be negated with `--no-NAME`.
public enum CurlOption: String, CaseIterable, Sendable {
    // Values. The raw value is the long name, without the leading `--`.
    case request, header, data, dataASCII = "data-ascii", dataBinary = "data-binary", dataRaw = "data-raw"
    case dataURLEncode = "data-urlencode", json, form, formString = "form-string"
    case output, outputDirectory = "output-dir", maximumRedirects = "max-redirs"
    case caCertificate = "cacert", caPath = "capath", pinnedPublicKey = "pinnedpubkey", user
    case userAgent = "user-agent", referer
    case certificate = "cert", key, cookie, cookieJar = "cookie-jar"
    case writeOut = "write-out", maximumTime = "max-time", connectTimeout = "connect-timeout", retry
    case retryDelay = "retry-delay", retryMaximumTime = "retry-max-time", proxy, noProxy = "noproxy"
    case proxyUser = "proxy-user", socks5, socks5Hostname = "socks5-hostname", socks4, socks4a
    case proxyCACertificate = "proxy-cacert"
    case unixSocket = "unix-socket", url, config, continueAt = "continue-at"
    case resolve, connectTo = "connect-to", interface, localPort = "local-port"
    case maximumFileSize = "max-filesize"
    // Switches.
    case get, remoteName = "remote-name", createDirectories = "create-dirs", location, insecure, compressed
    case include, head, verbose, silent, showError = "show-error", fail, failWithBody = "fail-with-body"
    case remoteHeaderName = "remote-header-name", digest, basic, retryAllErrors = "retry-all-errors"
    case proxyInsecure = "proxy-insecure"
    case printSwift = "print-swift"
    case http1_1 = "http1.1", http2, http2PriorKnowledge = "http2-prior-knowledge", globOff = "globoff"
    case progressMeter = "progress-meter"
    case progressBar = "progress-bar"
    case parallel, parallelMaximum = "parallel-max", parallelImmediate = "parallel-immediate"

    /// The option's long name: `--data-binary` is `data-binary`.
    public var longName: String { rawValue }

    /// The one-letter form (`-d` for `--data`), if curl has one.
    public var shortName: Character? {
        switch self {
        case .request: "X"
        case .certificate: "E"
        case .cookie: "b"
        case .cookieJar: "c"
        case .header: "H"
        case .data: "d"
        case .form: "F"
        case .output: "o"
        case .user: "u"
        case .userAgent: "A"
        case .referer: "e"
        case .writeOut: "w"
        case .maximumTime: "m"
        case .proxy: "x"
        case .proxyUser: "U"
        case .get: "G"
        case .remoteName: "O"
        case .remoteHeaderName: "J"
        case .config: "K"
        case .continueAt: "C"
        case .location: "L"
        case .insecure: "k"
        case .include: "i"
        case .head: "I"
        case .verbose: "v"
        case .silent: "s"
        case .showError: "S"
        case .fail: "f"
        case .globOff: "g"
        case .progressBar: "#"
        case .parallel: "Z"
        default: nil
        }
    }

    /// Whether the option takes a value (the next argument, or the rest of a short group).
    public var takesValue: Bool {
        switch self {
        case .get, .remoteName, .createDirectories, .location, .insecure, .proxyInsecure, .compressed, .include, .head,
            .verbose, .silent, .showError, .fail, .failWithBody, .remoteHeaderName, .digest, .basic, .retryAllErrors,
            .printSwift, .http1_1, .http2, .http2PriorKnowledge, .globOff, .progressMeter, .progressBar, .parallel,
            .parallelImmediate:
            false
        default: true
        }
    }

    /// The option named `name` after `--`, if there is one.
    public init?(longName name: String) {
        self.init(rawValue: name)
    }

    /// The option whose one-letter form is `letter`, if there is one.
    public init?(shortName letter: Character) {
        guard let option = Self.allCases.first(where: { $0.shortName == letter }) else { return nil }
        self = option
    }
}
