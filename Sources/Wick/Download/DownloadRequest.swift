// A request whose response body goes to a file, in bounded memory, and that can be resumed.
public import Dispatch
public import FoundationEssentials

/// A request whose response body is written to a file as it arrives (`Session.download`),
/// holding at most a few MiB in memory whatever the file's size. When the request finishes the
/// file is moved to the `Destination`; a failed or cancelled download can leave `resumeData`
/// to continue it with `Session.download(resumingWith:)`.
///
/// The final response's body always goes to the file, whatever its status (as in Alamofire):
/// add `validate()` to fail on a 404. Bodies of redirects and challenges the request follows
/// stay in memory and are not written.
///
/// Its total deadline is `Session.Configuration.streamAndDownloadTimeout` (none by default) or
/// its own `HTTPRequest.timeout`; `idleTransferTimeout` ends a download that goes quiet.
public final class DownloadRequest: Request, @unchecked Sendable {
    /// A closure that checks a response before the request finishes (Alamofire's
    /// `DownloadRequest.Validation`). The `URL` is the temporary file, every byte written; the
    /// file reaches its destination after the validations. `.failure` fails the request with
    /// `responseValidationFailed(reason: .customValidationFailed)`, unless the error is a
    /// `WickError`, which fails it as it is.
    public typealias Validation = @Sendable (HTTPRequest?, HTTPResponse, URL?) -> Result<Void, any Error>

    /// Where the finished file goes, decided once the response is known: the temporary file's
    /// URL and the response head in, the destination and how to move there out.
    public typealias Destination =
        @Sendable (_ temporaryURL: URL, _ response: HTTPResponse) -> (destinationURL: URL, options: Options)

    /// How the file is moved to its destination.
    public struct Options: OptionSet, Sendable {
        /// Creates the destination's missing parent directories.
        public static let createIntermediateDirectories = Options(rawValue: 1 << 0)
        /// Removes a file already at the destination; without it, an existing destination fails
        /// the download with `downloadFailed(reason: .destinationExists)`.
        public static let removePreviousFile = Options(rawValue: 1 << 1)

        /// The options' bits.
        public let rawValue: Int

        /// Options from their bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }
    }

    let sink: DownloadSink
    let destination: Destination?
    /// A resumed download's `Range` for the bytes the file lacks, and its one restart.
    private let resuming: DownloadResumeInterceptor?

    /// After the request's and the session's adapters, a resumed download asks for what the
    /// file lacks.
    override var finalAdapter: (any RequestAdapter)? { resuming }
    override var hasFinalAdapter: Bool { resuming != nil }

    /// A download of a large file may rightly take hours:
    /// `Session.Configuration.streamAndDownloadTimeout`.
    override var defaultTimeout: Duration? { session.configuration.streamAndDownloadTimeout }

    /// A download of `initialRequest`; `resume` is what resume data said is already on disk.
    init(
        session: Session, initialRequest: Result<HTTPRequest, WickError>,
        interceptor: consuming (any RequestInterceptor)?,
        shouldAutomaticallyResume: Bool?, destination: Destination?, resume: DownloadResumeData?
    ) {
        let sink: DownloadSink
        var composed = interceptor
        if let resume {
            // A file shorter than recorded, or gone, cannot be trusted: start over from byte 0.
            let onDisk = DownloadFile.size(atPath: resume.temporaryFilePath) ?? 0
            let kept = onDisk >= resume.bytesOnDisk ? resume.bytesOnDisk : 0
            sink = DownloadSink(
                temporaryPath: resume.temporaryFilePath, keptBytes: kept,
                validators: DownloadValidators(entityTag: resume.entityTag, lastModified: resume.lastModified))
            let resuming = DownloadResumeInterceptor(sink: sink)
            self.resuming = resuming
            composed = Interceptor(
                adapters: [composed].compactMap { $0 },
                retriers: [resuming, composed].compactMap { $0 })
        } else {
            resuming = nil
            sink = DownloadSink(
                temporaryPath: Self.newTemporaryURL().path, keptBytes: 0,
                validators: DownloadValidators(entityTag: nil, lastModified: nil))
        }
        self.sink = sink
        self.destination = destination
        super.init(
            session: session, initialRequest: initialRequest, interceptor: composed,
            shouldAutomaticallyResume: shouldAutomaticallyResume, bodySink: sink)
        sink.request = self
        if resume != nil {
            // Runs before the user's validations: a 416 for another length fails the attempt,
            // and the resume interceptor then restarts it once without a range.
            appendValidation { _, _ in
                sink.isRestartPending
                    ? .failure(.responseValidationFailed(reason: .unacceptableStatusCode(code: 416))) : .success(())
            }
        }
    }

    // MARK: - What it produced

    /// The temporary file the body is written to while the request runs.
    public var temporaryURL: URL { URL(fileURLWithPath: sink.temporaryPath) }

    /// Where the file is once the request finished and it was moved; nil before, and when there
    /// is no file (the request failed or was cancelled).
    public var fileURL: URL? { mutableState.withLock { $0.lifecycle.outcome?.fileURL } }

    /// What resumes the download (`Session.download(resumingWith:)`): set when it failed while
    /// transferring, or was cancelled with `cancel(producingResumeData: true)`, and the response
    /// allowed it (a `GET`, a strong `ETag` or a `Last-Modified`, no `Content-Encoding`, some
    /// bytes on disk). The format is `DownloadResumeData`'s; the partial file stays on disk.
    public var resumeData: Data? { mutableState.withLock { $0.lifecycle.outcome?.resumeData } }

    // MARK: - Controls

    /// Cancels the download; with `producingResumeData` true, the partial file is kept and
    /// `resumeData` set when it can be (see `resumeData`), else the partial file is removed.
    @discardableResult
    public func cancel(producingResumeData: Bool) -> Self {
        if producingResumeData { sink.state.withLock { $0.wantsResumeData = true } }
        return cancel()
    }

    /// Cancels the download keeping its partial file, and calls `completionHandler` on the
    /// session's `responseQueue` with the resume data, or nil when none could be made (or the
    /// request had already finished, in which case nothing was cancelled).
    @discardableResult
    public func cancel(byProducingResumeData completionHandler: @escaping @Sendable (Data?) -> Void) -> Self {
        cancel(producingResumeData: true)
        let queue = session.responseQueue
        whenFinished { outcome in queue.async { completionHandler(outcome.resumeData) } }
        return self
    }

    /// Calls `closure` on `queue` (nil: `session.responseQueue`) with the progress as bytes are
    /// written: once when the file is opened for a response, then after every write. The bytes
    /// count what is on disk, so a resumed download starts from what it kept. Add it before the
    /// request starts to see every report.
    @discardableResult
    public func downloadProgress(
        queue: DispatchQueue? = nil, closure: @escaping @Sendable (TransferProgress) -> Void
    ) -> Self {
        let queue = queue ?? session.responseQueue
        sink.state.withLock { $0.progressHandlers.append((queue, closure)) }
        return self
    }

    // MARK: - Finishing

    /// Closes the file once every write is done, then moves it to its destination (a response
    /// that arrived whole, validation failures included, as in Alamofire), or keeps it with
    /// resume data (a failed transfer; a cancelled one if asked), or removes it.
    override func completeOutcome(_ outcome: Outcome, then record: @escaping @Sendable (Outcome) -> Void) {
        let finisher = DownloadFinisher(
            sink: sink, destination: destination, initialRequest: try? initialRequest.get(),
            lastRequestURL: outcome.request?.url)
        sink.afterWrites { [self] in
            let finished = finisher.finish(outcome)
            reportFinished(outcome, finished)
            record(finished)
        }
    }

    /// Tells the monitors how the transfer ended and where the file went.
    private func reportFinished(_ outcome: Outcome, _ finished: Outcome) {
        let monitor = session.eventMonitor
        guard !monitor.handledEvents.isDisjoint(with: [.didFinishDownloading, .didCreateDestinationURL]) else { return }
        if let error = finished.error, finished.fileURL == nil {
            monitor.request(self, didFinishDownloadingWith: .failure(error))
            return
        }
        monitor.request(self, didFinishDownloadingWith: .success(temporaryURL))
        if let fileURL = finished.fileURL, fileURL.standardizedFileURL != temporaryURL.standardizedFileURL {
            monitor.request(self, didCreateDestinationURL: fileURL)
        }
    }

    /// A new temporary file's URL: `<temporary directory>/Wick/Downloads/<UUID>.download`,
    /// where the temporary directory is `FileManager.default.temporaryDirectory` (`$TMPDIR`, else
    /// `/tmp`).
    static func newTemporaryURL() -> URL {
        temporaryDirectory.appendingPathComponent("\(UUID().uuidString).download")
    }

    /// `<temporary directory>/Wick/Downloads`, where downloads write until they finish.
    public static var temporaryDirectory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("Wick/Downloads", isDirectory: true)
    }
}
