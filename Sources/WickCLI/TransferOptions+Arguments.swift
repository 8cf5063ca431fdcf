// Reading a command line into TransferOptions: each scanned option applied by curl's rules.
import Wick

extension TransferOptions {
    /// The options `words` (the arguments after the program name) ask for.
    /// - Parameter input: where `@file` and `@-` are read from.
    /// - Throws: `CommandFailure` for a command-line mistake (exit 2: unknown option, missing
    ///   or non-numeric value, no URL, two request kinds, `-f` with `--fail-with-body`)
    ///   or an unreadable `-H @file`
    ///   or malformed `-F` (26).
    public init(arguments words: [String], input: some ArgumentInput) throws(CommandFailure) {
        self.init()
        try apply(try ArgumentScanner.scan(words), input: input, configDepth: 0)
        guard !urls.isEmpty else { throw .usage("no URL specified!") }
        if headOnly && (data != nil || !form.isEmpty) || data != nil && !form.isEmpty {
            throw .usage("You can only select one HTTP request method! You asked for both POST and HEAD.")
        }
        if failsOnHTTPError && failsWithBody {
            throw .usage("You must select either --fail or --fail-with-body, not both.")
        }
    }

    /// How deep `-K` files may name further `-K` files.
    static let maximumConfigDepth = 8

    /// Applies scanned arguments in order; a `-K` file's lines take its place.
    private mutating func apply(
        _ arguments: [ScannedArgument], input: some ArgumentInput, configDepth: Int
    ) throws(CommandFailure) {
        for argument in arguments {
            switch argument {
            case .url(let url), .option(.url, let url):
                urls.append(url)
            case .option(.config, let path):
                try applyConfig(path, input: input, depth: configDepth + 1)
            case .option(let option, let value):
                try apply(option, value, input: input)
            case .toggle(let option, let on):
                apply(option, on)
            }
        }
    }

    /// Applies the lines of the config file at `path` (`-` is standard input). As curl, a line
    /// naming an unknown option is skipped with a warning.
    /// - Throws: `CommandFailure` (26) when the file cannot be read, (2) for a line's missing
    ///   value or files nested deeper than `maximumConfigDepth`.
    private mutating func applyConfig(_ path: String, input: some ArgumentInput, depth: Int) throws(CommandFailure) {
        guard depth <= Self.maximumConfigDepth else {
            throw .usage("config files nest deeper than \(Self.maximumConfigDepth)")
        }
        guard let bytes = input.contents(ofFile: path) else {
            throw CommandFailure(.readError, "cannot read config from '\(path)'")
        }
        for line in ConfigFile.lines(of: String(decoding: bytes, as: UTF8.self)) {
            let arguments: [ScannedArgument]
            do {
                arguments = try ArgumentScanner.scan(line.words)
            } catch where error.message.hasSuffix("is unknown") {
                if !silent { warnings.append("\(path):\(line.number): warning: '\(line.words[0])' is unknown") }
                continue
            }
            try apply(arguments, input: input, configDepth: depth)
        }
    }

    /// Applies an option that takes a value.
    private mutating func apply(_ option: CurlOption, _ value: String, input: some ArgumentInput) throws(CommandFailure)
    {
        switch option {
        case .request: method = value
        case .header: headers += try HeaderArgument.parse(value, input: input)
        case .data, .dataASCII, .dataBinary, .dataRaw, .dataURLEncode, .json:
            // curl warns while it reads the option, so only a `-s` given before it mutes the warning.
            var warnings = self.warnings
            let silent = self.silent
            let piece = PostData.piece(of: option, value, input: input) { if !silent { warnings.append($0) } }
            self.warnings = warnings
            // curl joins pieces with `&`, except that a `--json` piece follows with no separator.
            let separator: [UInt8] = option == .json ? [] : [UInt8(ascii: "&")]
            data = data.map { $0 + separator + piece } ?? piece
            if option == .json { isJSON = true }
        case .form: form.append(try FormField(parsing: value))
        case .formString: form.append(try FormField(parsing: value, literal: true))
        case .output: outputs.append(.file(value))
        case .outputDirectory: outputDirectory = value
        case .maximumRedirects: maximumRedirects = try Self.integer(value, option)
        case .caCertificate: caCertificateFile = value
        case .caPath: caDirectory = value
        case .certificate: clientCertificateFile = value
        case .key: clientKeyFile = value
        case .cookie: cookies.append(value)
        case .cookieJar: cookieJar = value
        case .pinnedPublicKey: pinnedPublicKeys = value
        case .user: user = value
        case .userAgent: userAgent = value
        case .referer: referer = value
        case .writeOut:
            if value.hasPrefix("@") {
                writeOut = input.contents(ofFile: String(value.dropFirst())).map { String(decoding: $0, as: UTF8.self) }
            } else {
                writeOut = value
            }
        case .maximumTime: maximumTime = try Self.seconds(value, option)
        case .maximumFileSize: maximumFileSize = try Self.byteSize(value, option)
        case .connectTimeout: connectTimeout = try Self.seconds(value, option)
        case .retry: retries = try Self.integer(value, option)
        // `--retry-delay 0` is curl's default: 1 s doubling.
        case .retryDelay: retryDelay = try Self.seconds(value, option).nonZero
        // `--retry-max-time 0` is curl's default: no limit.
        case .retryMaximumTime: retryMaximumTime = try Self.seconds(value, option).nonZero
        case .proxy: proxy = value
        // curl: a SOCKS option and `-x` exclude each other, and the last one given wins.
        case .socks5: proxy = Self.proxyURL(value, scheme: .socks5)
        case .socks5Hostname: proxy = Self.proxyURL(value, scheme: .socks5h)
        case .socks4: proxy = Self.proxyURL(value, scheme: .socks4)
        case .socks4a: proxy = Self.proxyURL(value, scheme: .socks4a)
        case .proxyUser: proxyUser = value
        case .proxyCACertificate: proxyCACertificateFile = value
        case .noProxy: noProxy = value
        case .unixSocket: unixSocket = value
        case .resolve: resolveEntries.append(value)
        case .connectTo: connectToEntries.append(value)
        case .interface: interface = value
        case .localPort:
            do {
                localPorts = try SourceBinding.ports(curlArgument: value)
            } catch {
                throw .usage("option --local-port: is badly used here")
            }
        case .parallelMaximum:
            let number = try Self.integer(value, option)
            parallelMaximum = number < 1 ? Self.defaultParallelMaximum : min(number, Self.largestParallelMaximum)
        case .continueAt:
            guard value == "-" || Int(value).map({ $0 >= 0 }) == true else {
                throw .usage("option --continue-at: expected a proper numerical parameter")
            }
            continueAt = value
        default: preconditionFailure("TransferOptions: \(option) takes no value")
        }
    }

    /// Applies a switch (also `wick bench`'s curl switches, `LoadOptions`).
    mutating func apply(_ option: CurlOption, _ on: Bool) {
        switch option {
        case .get: dataInQuery = on
        case .remoteName: if on { outputs.append(.remoteName) }
        case .remoteHeaderName: usesHeaderName = on
        case .digest: usesDigest = on
        case .basic: usesDigest = !on
        case .retryAllErrors: retriesAllErrors = on
        case .printSwift: printsSwift = on
        case .createDirectories: createsDirectories = on
        case .location: followsRedirects = on
        case .insecure: insecure = on
        case .proxyInsecure: proxyInsecure = on
        case .compressed: compressed = on
        case .include: includesHead = on
        case .head: headOnly = on
        case .verbose: verbose = on
        case .silent: silent = on
        case .showError: showsError = on
        case .fail: failsOnHTTPError = on
        case .failWithBody: failsWithBody = on
        case .progressMeter: drawsProgress = on
        case .progressBar: drawsProgressBar = on
        case .parallel: isParallel = on
        case .parallelImmediate: opensConnectionsImmediately = on
        case .http1_1:
            httpVersion = .http1Only
            http2PriorKnowledge = false
        case .http2: httpVersion = on ? .preferHTTP2 : .http1Only
        case .http2PriorKnowledge: http2PriorKnowledge = on
        // URLs are never globbed: the switch changes nothing.
        case .globOff: break
        default: preconditionFailure("TransferOptions: \(option) takes a value")
        }
    }

    /// The proxy URL of a `--socks5`-style option's `HOST[:PORT]`: `scheme://` put before it,
    /// unless it names a scheme of its own.
    private static func proxyURL(_ value: String, scheme: ProxyScheme) -> String {
        value.contains("://") ? value : "\(scheme)://\(value)"
    }

    /// A whole number, as curl's numeric options take it.
    private static func integer(_ text: String, _ option: CurlOption) throws(CommandFailure) -> Int {
        guard let number = Int(text) else {
            throw .usage("option --\(option.longName): expected a proper numerical parameter")
        }
        return number
    }

    /// A size in bytes as curl reads `--max-filesize`: a whole number, optionally followed by
    /// `k`, `m` or `g` (either case) for KiB, MiB or GiB (`200K`, `3m`, `1G`).
    static func byteSize(_ text: String, _ option: CurlOption) throws(CommandFailure) -> Int {
        let units: [Character: Int] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        let unit = text.last.flatMap { units[Character($0.lowercased())] }
        let digits = unit == nil ? Substring(text) : text.dropLast()
        guard let number = Int(digits), number >= 0 else {
            throw .usage("option --\(option.longName): expected a proper numerical parameter")
        }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: unit ?? 1)
        guard !overflow else { throw .usage("option --\(option.longName): the given value is too big") }
        return bytes
    }

    /// Seconds, with a fraction allowed (`-m 0.5`), never negative.
    private static func seconds(_ text: String, _ option: CurlOption) throws(CommandFailure) -> Double {
        guard let number = Double(text), number >= 0, number.isFinite else {
            throw .usage("option --\(option.longName): expected a proper numerical parameter")
        }
        return number
    }
}

extension Double {
    /// The number, or nil when it is zero.
    fileprivate var nonZero: Double? { self == 0 ? nil : self }
}
