// One curl-like transfer: the request the options describe, sent through a Session, and its
// output where curl puts it (stdout or a file as the body arrives, `-i` heads, `-v` trace, `-w`,
// the error line).
import FoundationEssentials
import Wick

/// Runs what a `wick` command line asks for and writes curl's output for it.
public struct Transfer: Sendable {
    /// The command line's settings.
    public let options: TransferOptions
    /// Where `@file` arguments are read from.
    let input: any ArgumentInput

    /// A transfer of `options`, reading `@file` arguments through `input`.
    public init(options: TransferOptions, input: some ArgumentInput) {
        self.options = options
        self.input = input
    }

    /// Fetches the URLs over one session, each in turn (so a later URL reuses an earlier one's
    /// connection, as curl's do) or with `-Z` up to `--parallel-max` at once, writing each one's
    /// output, `-w` and error line as it ends.
    /// - Returns: the exit code of the last URL, or with `-Z` of the last transfer to fail (0
    ///   when none did), as curl 7.88's; or of the settings when no session could be made.
    ///   Never throws: every failure is written to standard error (unless `-s` without `-S`),
    ///   after the command line's warnings.
    public func run() async -> CurlExitCode {
        for warning in options.warnings { StandardStreams.write("Warning: \(warning)\n", to: StandardStreams.error) }
        let recorder = ExchangeRecorder()
        let session: Session
        do {
            session = Session(
                configuration: try options.sessionConfiguration(), serverTrustManager: try options.trustManager(),
                redirectHandler: options.followsRedirects ? Redirector.follow : Redirector.doNotFollow,
                eventMonitors: [recorder])
        } catch {
            return report(TransferOutcome(url: options.urls[0], failure: error))
        }
        var code = CurlExitCode.ok
        if options.isParallel {
            let progress = parallelProgressReporter()
            let ticks = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(500))
                    progress?.tick()
                }
            }
            code = await withTaskGroup(of: CurlExitCode.self) { group in
                var next = 0
                var code = CurlExitCode.ok
                // The first batch counts as started before any of it can draw a line.
                for _ in 0..<min(options.urls.count, options.parallelMaximum) { progress?.add() }
                while next < options.urls.count && next < options.parallelMaximum {
                    let index = next
                    group.addTask { await self.transfer(index, over: session, recorder: recorder, progress: progress) }
                    next += 1
                }
                for await finished in group {
                    if finished != .ok { code = finished }
                    if next < options.urls.count {
                        let index = next
                        progress?.add()
                        group.addTask {
                            await self.transfer(index, over: session, recorder: recorder, progress: progress)
                        }
                        next += 1
                    }
                }
                return code
            }
            ticks.cancel()
            progress?.finish()
        } else {
            for index in options.urls.indices {
                code = await transfer(index, over: session, recorder: recorder, progress: nil)
            }
        }
        if let warning = options.saveCookieJar(session.configuration.cookieStorage) {
            StandardStreams.write("Warning: \(warning)\n", to: StandardStreams.error)
        }
        await session.shutdown()
        return code
    }

    /// Fetches the URL at `index` (to the `index`-th `-o`/`-O`, if any) over `session`, sending
    /// it again as `--retry` says, and writes its `-w` and error line. Its progress goes to its
    /// lane of `parallelProgress` (`-Z`), else to a meter or bar of its own.
    /// - Returns: its exit code.
    private func transfer(
        _ index: Int, over session: Session, recorder: ExchangeRecorder,
        progress parallelProgress: ParallelProgressReporter?
    ) async -> CurlExitCode {
        let url = options.urls[index]
        let target = index < options.outputs.count ? options.outputs[index] : nil
        let first = ContinuousClock.now
        let retryDeadline = options.retryMaximumTime.map { first + .seconds($0) }
        var retries = 0
        // One lane of `-Z`'s meter for every attempt; a meter or bar of its own per attempt else.
        let lane = parallelProgress?.lane(index)
        while true {
            let started = ContinuousClock.now
            var outcome = TransferOutcome(url: url)
            let progress: (any TransferProgressSink)? = options.isParallel ? lane : progressReporter(for: target)
            do {
                try await send(
                    url, to: target, over: session, recorder: recorder, progress: progress,
                    retries: (left: options.retries - retries, deadline: retryDeadline), into: &outcome)
            } catch {
                outcome.failure = error
            }
            outcome.elapsed = ContinuousClock.now - started
            if lane == nil { progress?.finish() }
            retries += outcome.retries
            if let delay = retryDelay(after: outcome, retries: retries, deadline: retryDeadline) {
                retries += 1
                try? await Task.sleep(for: delay)
                continue
            }
            guard let lane else { return report(outcome) }
            lane.finish()
            return lane.reporter.writingAbove { report(outcome) }
        }
    }

    /// How long to wait before sending again a transfer that failed where the session's
    /// retrier could not see it (`TransferOutcome.failedBeforeOutput`), as curl's `--retry`
    /// would: a connect timeout, a transient `-f` status, or with `--retry-all-errors` either
    /// failure, while retries remain and `deadline` (`--retry-max-time`) is not passed; nil: no
    /// retry. Warns unless `-s`.
    private func retryDelay(after outcome: TransferOutcome, retries: Int, deadline: ContinuousClock.Instant?)
        -> Duration?
    {
        guard let failure = outcome.failure, outcome.failedBeforeOutput, retries < options.retries else { return nil }
        let status = outcome.response?.statusCode ?? 0
        let transient =
            failure.code == .operationTimedOut
            || failure.code == .httpReturnedError && TransientFailureRetrier.transientStatusCodes.contains(status)
        guard transient || options.retriesAllErrors else { return nil }
        let delay = TransientFailureRetrier.delay(
            beforeRetry: retries, fixedDelay: options.retryDelay.map { .seconds($0) })
        if let deadline, ContinuousClock.now + delay > deadline { return nil }
        if !options.silent {
            let seconds = delay.components.seconds
            StandardStreams.write(
                "Warning: Problem : \(failure.message). Will retry in \(seconds) seconds. \(options.retries - retries) retries left.\n",
                to: StandardStreams.error)
        }
        return delay
    }

    /// The progress meter or bar for a transfer whose output goes to `target`, or nil when
    /// none is drawn (`TransferOptions.progressStyle`).
    private func progressReporter(for target: OutputTarget?) -> ProgressReporter? {
        let writesToFile = target != nil && target != .file("-")
        guard
            let style = options.progressStyle(
                writesToFile: writesToFile, standardOutputIsTerminal: TransferOptions.standardOutputIsTerminal)
        else { return nil }
        return ProgressReporter(style: style, columns: ProcessInfo.processInfo.environment["COLUMNS"])
    }

    /// `-Z`'s progress for all transfers, or nil when none is drawn: by `progressStyle`'s rule,
    /// the body going to a file only when every URL has its `-o`/`-O`. With `-#` and standard
    /// error a terminal, a bar per transfer (`COLUMNS` wide, else 79); else curl's one meter.
    private func parallelProgressReporter() -> ParallelProgressReporter? {
        let everyURLToAFile = options.urls.indices.allSatisfy {
            $0 < options.outputs.count && options.outputs[$0] != .file("-")
        }
        let style = options.progressStyle(
            writesToFile: everyURLToAFile, standardOutputIsTerminal: TransferOptions.standardOutputIsTerminal)
        switch style {
        case nil:
            return nil
        case .bar? where TransferOptions.standardErrorIsTerminal:
            let width = ProgressBar.width(columns: ProcessInfo.processInfo.environment["COLUMNS"])
            return ParallelProgressReporter(display: .bars(ParallelProgressBars(width: width), labels: options.urls))
        case .bar?, .meter?:
            return ParallelProgressReporter(display: .meter(ParallelProgressMeter()))
        }
    }

    /// Writes `-w` and the error line of one URL's outcome, and returns its exit code.
    private func report(_ outcome: TransferOutcome) -> CurlExitCode {
        if let template = options.writeOut { writeOut(template, outcome) }
        guard let failure = outcome.failure else { return .ok }
        if !options.silent || options.showsError {
            StandardStreams.write("wick: \(failure)\n", to: StandardStreams.error)
        }
        return failure.code
    }

    /// Sends the request for `argument` over `session`, writes its output (to `target`'s file,
    /// else standard output) as the body arrives, and records what came back. The session's
    /// retrier may retry it `retries.left` times, starting none past `retries.deadline`. The
    /// counts go to `progress` as the body arrives.
    private func send(
        _ argument: String, to target: OutputTarget?, over session: Session, recorder: ExchangeRecorder,
        progress: (any TransferProgressSink)?, retries: (left: Int, deadline: ContinuousClock.Instant?),
        into outcome: inout TransferOutcome
    ) async throws(CommandFailure) {
        let began = ContinuousClock.now
        outcome.url = try options.effectiveURL(argument)
        // Foundation would percent-encode a space or a control byte; curl refuses the URL.
        let hasIllegalByte = outcome.url.utf8.contains { $0 <= 0x20 || $0 == 0x7F }
        guard !hasIllegalByte, let url = URL(string: outcome.url), url.host() != nil else {
            throw CommandFailure(.malformedURL, "URL rejected: Malformed input to a URL function")
        }
        let body = try options.body(input: input)
        var headers = options.headerFields(bodyContentType: body?.contentType)
        let resumeOffset =
            options.continueAt == nil ? nil : options.resumeOffset(outputPath: try options.outputPath(target, url: url))
        progress?.begin(resumedFrom: resumeOffset, uploadSize: body?.bytes.count)
        if let resumeOffset, !headers.contains(name: "Range") {
            headers.add(name: "Range", value: "bytes=\(resumeOffset)-")
        }
        let request = HTTPRequest(
            method: options.effectiveMethod, url: url, headers: headers, body: body?.bytes,
            unixSocketPath: options.unixSocket)
        let retrier =
            retries.left > 0
            ? TransientFailureRetrier(
                limit: retries.left, fixedDelay: options.retryDelay.map { .seconds($0) },
                retriesAllErrors: options.retriesAllErrors, deadline: retries.deadline) : nil
        var stream = session.streamRequest(request, interceptor: retrier)
        if options.usesDigest, let (user, password) = options.credentials {
            stream = stream.authenticate(username: user, password: password)
        }
        if retrier != nil { stream = stream.validate(statusCode: TransientFailureRetrier.acceptableStatusCodes) }
        var sink: OutputSink?
        var failure: CommandFailure?
        var streamError: WickError?
        var chunks = stream.streamingData().makeAsyncIterator()
        while true {
            let chunk: Data?
            do {
                chunk = try await chunks.next()
            } catch {
                streamError = error
                break
            }
            guard let chunk else { break }
            do {
                try checkFileSize(after: outcome.bodyBytes + chunk.count, of: stream.response)
                if sink == nil {
                    sink = try begin(stream, target, outcome.url, resumeOffset, recorder.exchangesSoFar(of: stream))
                }
                try sink?.write(chunk)
                outcome.bodyBytes += chunk.count
                progress?.update(receivedProgress(outcome.bodyBytes, of: stream.response, uploaded: body?.bytes.count))
            } catch {
                failure = error
                stream.cancel()
                break
            }
        }
        if stream.response != nil {
            progress?.update(receivedProgress(outcome.bodyBytes, of: stream.response, uploaded: body?.bytes.count))
        }
        let record = await recorder.finishedRecord(of: stream)
        outcome.exchanges = record.exchanges
        outcome.metrics = record.metrics
        outcome.response = stream.response
        outcome.outputPath = sink?.path
        outcome.retries = stream.retryCount
        if let failure {
            outcome.failedBeforeOutput = failure.code == .httpReturnedError && sink == nil
            throw failure
        }
        switch streamError {
        case nil: break
        // Retries ran out on a transient status: that response is the answer, as in curl.
        case .responseValidationFailed? where stream.response != nil: break
        case .sessionTaskFailed(.connectionFailed(let connection))?
        where CommandFailure.exitCode(for: connection) == .couldNotConnect:
            outcome.failedBeforeOutput = true
            throw connectFailure(url, after: ContinuousClock.now - began)
        case let error?:
            if sink == nil { trace(record.exchanges) }
            throw CommandFailure(error)
        }
        if sink == nil {
            do {
                sink = try begin(stream, target, outcome.url, resumeOffset, record.exchanges)
            } catch {
                outcome.failedBeforeOutput = error.code == .httpReturnedError
                throw error
            }
        }
        outcome.outputPath = sink?.path
        try sink?.finish()
        if let status = stream.response?.statusCode, status >= 400, options.failsWithBody {
            throw CommandFailure(.httpReturnedError, "The requested URL returned error: \(status)")
        }
    }

    /// The counts for the meter once `response` has come: its body's `received` bytes of its
    /// Content-Length (unknown for `-I`, or a body `--compressed` decodes), the request body's
    /// `uploaded` bytes all sent.
    private func receivedProgress(_ received: Int, of response: HTTPResponse?, uploaded: Int?) -> TransferProgress {
        let decoded = options.compressed && response?.headers["Content-Encoding"] != nil
        let length = options.headOnly || decoded ? nil : response?.headers["Content-Length"].flatMap { Int($0) }
        return TransferProgress(
            downloaded: received, expectedDownload: length, uploaded: uploaded ?? 0, expectedUpload: uploaded)
    }

    /// `--max-filesize`: the body, `received` bytes so far, or the Content-Length of `response`
    /// (before any body byte is written) is larger than the limit.
    /// - Throws: `CommandFailure` 63, in curl's words.
    private func checkFileSize(after received: Int, of response: HTTPResponse?) throws(CommandFailure) {
        guard let limit = options.maximumFileSize else { return }
        let length = response?.headers["Content-Length"].flatMap { Int($0) } ?? 0
        if received > limit || length > limit {
            throw CommandFailure(.fileSizeExceeded, "Maximum file size exceeded")
        }
    }

    /// The output begins: the trace (`-v`), the `-f` verdict (`--fail-with-body`'s comes after
    /// the body), `-C`'s (206 appends, 416 means the file is complete, another 2xx fails with
    /// 33), the destination, the heads
    /// (`-i`, `-I`). Called with the exchanges known when the body's first bytes arrived, or
    /// when the request ended without a body.
    /// - Returns: where the body goes.
    /// - Throws: `CommandFailure` 22 for `-f` and an error status, 23 when `-O` has no name,
    ///   33 when a resume got the whole body.
    private func begin(
        _ stream: DataStreamRequest, _ target: OutputTarget?, _ url: String, _ resumeOffset: Int?,
        _ exchanges: [ExchangeRecorder.Exchange]
    ) throws(CommandFailure) -> OutputSink? {
        guard let response = stream.response else { return nil }
        // The last exchange is the one whose body this is; its head may not be recorded yet.
        var exchanges = exchanges
        if !exchanges.isEmpty { exchanges[exchanges.count - 1].response = response }
        trace(exchanges)
        if response.statusCode >= 400 && options.failsOnHTTPError {
            throw CommandFailure(.httpReturnedError, "The requested URL returned error: \(response.statusCode)")
        }
        let path = try options.outputPath(
            target, url: URL(string: url), contentDisposition: response.headers["Content-Disposition"])
        if resumeOffset != nil && response.statusCode == 416 {
            return OutputSink(path: path, createsDirectories: false, discards: true)
        }
        if resumeOffset != nil && (200..<300).contains(response.statusCode) && response.statusCode != 206 {
            throw CommandFailure(.rangeError, "HTTP server doesn't seem to support byte ranges. Cannot resume.")
        }
        let sink = OutputSink(path: path, createsDirectories: options.createsDirectories, appends: resumeOffset != nil)
        if options.includesHead || options.headOnly {
            var heads: [UInt8] = []
            for head in exchanges.compactMap(\.response) {
                for line in HeadText.lines(of: head) { heads += Array(line.utf8) + [0x0D, 0x0A] }
            }
            try sink.write(heads)
        }
        return sink
    }

    /// Writes the `-v` trace of `exchanges`, before the body as curl's comes.
    private func trace(_ exchanges: [ExchangeRecorder.Exchange]) {
        guard options.verbose else { return }
        StandardStreams.write(VerboseTrace.text(of: exchanges), to: StandardStreams.error)
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

    /// Writes the `-w` output and warns about unknown variables.
    private func writeOut(_ template: String, _ outcome: TransferOutcome) {
        let (pieces, warnings) = WriteOut(template).render(
            variables: outcome.writeOutVariables, headers: outcome.response?.headers)
        for warning in warnings { StandardStreams.write("wick: \(warning)\n", to: StandardStreams.error) }
        for piece in pieces {
            StandardStreams.write(
                piece.text, to: piece.stream == .output ? StandardStreams.output : StandardStreams.error)
        }
    }
}
