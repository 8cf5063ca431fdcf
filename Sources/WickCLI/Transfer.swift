// One curl-like transfer: the request the options describe, sent through a Session, and its
// output where curl puts it (stdout or a file, `-i` heads, `-v` trace, `-w`, the error line).
import FoundationEssentials
import Wick

/// Runs what a `wick` command line asks for and writes curl's output for it.
public struct Transfer {
    /// The command line's settings.
    public let options: TransferOptions
    /// Where `@file` arguments are read from.
    let input: any ArgumentInput

    /// A transfer of `options`, reading `@file` arguments through `input`.
    public init(options: TransferOptions, input: some ArgumentInput) {
        self.options = options
        self.input = input
    }

    /// Sends the request, writes the output, and returns the exit code (curl's for the same
    /// outcome). Never throws: every failure is written to standard error (unless `-s`
    /// without `-S`) and returned as its code, after the command line's warnings.
    public func run() async -> CurlExitCode {
        for warning in options.warnings { StandardStreams.write("Warning: \(warning)\n", to: StandardStreams.error) }
        let clock = ContinuousClock()
        let started = clock.now
        var outcome = TransferOutcome()
        do {
            try await send(into: &outcome)
        } catch {
            outcome.failure = error
        }
        outcome.elapsed = clock.now - started
        // The trace before the body, as curl's comes while the body is still on its way.
        if options.verbose {
            StandardStreams.write(VerboseTrace.text(of: outcome.exchanges), to: StandardStreams.error)
        }
        if outcome.failure == nil {
            do {
                try deliver(&outcome)
            } catch {
                outcome.failure = error
            }
        }
        if let template = options.writeOut { writeOut(template, outcome) }
        guard let failure = outcome.failure else { return .ok }
        if !options.silent || options.showsError {
            StandardStreams.write("wick: \(failure)\n", to: StandardStreams.error)
        }
        return failure.code
    }

    /// Builds the request and the session, sends it, and records what came back.
    private func send(into outcome: inout TransferOutcome) async throws(CommandFailure) {
        let began = ContinuousClock.now
        outcome.url = try options.effectiveURL()
        // Foundation would percent-encode a space or a control byte; curl refuses the URL.
        let hasIllegalByte = outcome.url.utf8.contains { $0 <= 0x20 || $0 == 0x7F }
        guard !hasIllegalByte, let url = URL(string: outcome.url), url.host() != nil else {
            throw CommandFailure(.malformedURL, "URL rejected: Malformed input to a URL function")
        }
        let body = try options.body(input: input)
        let request = HTTPRequest(
            method: options.effectiveMethod, url: url, headers: options.headerFields(bodyContentType: body?.contentType),
            body: body?.bytes, unixSocketPath: options.unixSocket)
        let recorder = ExchangeRecorder()
        let retrier =
            options.retries > 0
            ? TransientFailureRetrier(
                limit: options.retries, fixedDelay: options.retryDelay.map { .seconds($0) },
                retriesAllErrors: options.retriesAllErrors,
                deadline: options.retryMaximumTime.map { began + .seconds($0) }) : nil
        let session = Session(
            configuration: try options.sessionConfiguration(), serverTrustManager: try options.trustManager(),
            interceptor: retrier, redirectHandler: options.followsRedirects ? Redirector.follow : Redirector.doNotFollow,
            eventMonitors: [recorder])
        var dataRequest = session.request(request)
        if options.usesDigest, let (user, password) = options.credentials {
            dataRequest = dataRequest.authenticate(username: user, password: password)
        }
        if retrier != nil { dataRequest = dataRequest.validate(statusCode: TransientFailureRetrier.acceptableStatusCodes) }
        let watch = ConnectFailureWatch.watch(session, cancelling: dataRequest)
        let response = await dataRequest.serializingData(emptyResponseCodes: Set(100..<600)).response
        watch.cancel()
        let connectFailed = await watch.value
        outcome.exchanges = await recorder.finishedExchanges()
        await session.shutdown()
        outcome.response = response.response
        outcome.body = response.data ?? Data()
        outcome.metrics = response.metrics
        switch response.error {
        case nil: break
        // Retries ran out on a transient status: that response is the answer, as in curl.
        case .responseValidationFailed? where response.response != nil: break
        case .explicitlyCancelled? where connectFailed: throw connectFailure(url, after: ContinuousClock.now - began)
        case let error?: throw CommandFailure(error)
        }
    }

    /// How curl reports a connect that failed: 28 when `--connect-timeout` passed, else 7.
    private func connectFailure(_ url: URL, after elapsed: Duration) -> CommandFailure {
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        let place = "\(url.host() ?? "") port \(port)"
        if let limit = options.connectTimeout, elapsed >= .seconds(limit) {
            return CommandFailure(.operationTimedOut, "Failed to connect to \(place): Connection timed out")
        }
        return CommandFailure(.couldNotConnect, "Failed to connect to \(place): Couldn't connect to server")
    }

    /// Writes the heads (`-i`, `-I`) and the body where they go, or fails for `-f`.
    private func deliver(_ outcome: inout TransferOutcome) throws(CommandFailure) {
        guard let response = outcome.response else { return }
        let httpFailure =
            response.statusCode >= 400 && (options.failsOnHTTPError || options.failsWithBody)
            ? CommandFailure(.httpReturnedError, "The requested URL returned error: \(response.statusCode)") : nil
        if let httpFailure, !options.failsWithBody { throw httpFailure }
        var bytes: [UInt8] = []
        if options.includesHead || options.headOnly {
            for head in outcome.exchanges.compactMap(\.response) {
                for line in HeadText.lines(of: head) { bytes += Array(line.utf8) + [0x0D, 0x0A] }
            }
        }
        if !options.headOnly { bytes += outcome.body }
        outcome.outputPath = try options.outputPath(
            for: URL(string: outcome.url), contentDisposition: response.headers["Content-Disposition"])
        if let path = outcome.outputPath {
            try OutputFile.write(bytes, to: path, creatingDirectories: options.createsDirectories)
        } else if !StandardStreams.write(bytes, to: StandardStreams.output) {
            throw CommandFailure(.writeError, "Failure writing output to destination")
        }
        if let httpFailure { throw httpFailure }
    }

    /// Writes the `-w` output and warns about unknown variables.
    private func writeOut(_ template: String, _ outcome: TransferOutcome) {
        let (pieces, warnings) = WriteOut(template).render(
            variables: outcome.writeOutVariables, headers: outcome.response?.headers)
        for warning in warnings { StandardStreams.write("wick: \(warning)\n", to: StandardStreams.error) }
        for piece in pieces {
            StandardStreams.write(piece.text, to: piece.stream == .output ? StandardStreams.output : StandardStreams.error)
        }
    }
}
