// A finished download's file: moved to its destination, kept with resume data, or removed.
import FoundationEssentials

/// Decides what becomes of a download's temporary file when the request ends, on the sink's
/// writer queue after every write (the file is closed):
/// - A response that arrived whole (no error, or a validation's): the file (a collected body is
///   written to it first) goes to the destination, and `fileURL` is set.
/// - Any other end (a transport failure, a refused redirect, `abort`, a cancel with resume
///   data asked): the file stays and `resumeData` is set, when the response allows resuming;
///   otherwise, and for a plain cancel or a file error, the file is removed.
struct DownloadFinisher {
    let sink: DownloadSink
    let destination: DownloadRequest.Destination?
    /// The request as created, recorded in resume data.
    let initialRequest: HTTPRequest?
    /// The last request sent, whose URL `suggestedDownloadDestination` may name the file after.
    let lastRequestURL: URL?

    /// The outcome with `fileURL` or `resumeData` set, or with the file error that replaced it.
    func finish(_ outcome: Request.Outcome) -> Request.Outcome {
        var final = outcome
        let state = sink.state.withLock { $0 }
        let path = sink.temporaryPath
        if let failure = state.failure {
            // The exchange may have ended before the abort reached it: the file's failure wins.
            removeTemporaryFile()
            final.error = .downloadFailed(reason: failure)
            return final
        }
        if case .discarded(let reason) = state.disposition, final.error == nil {
            final.error = .downloadFailed(reason: reason)
        }
        let isCancelled: Bool
        if case .explicitlyCancelled? = final.error { isCancelled = true } else { isCancelled = false }
        if let response = outcome.response, Self.bodyIsWhole(despite: final.error) {
            if state.disposition != .file, !state.isConfirmedComplete {
                // The body was collected in memory (a 401 or redirect the run did not follow).
                do throws(DownloadFailureReason) {
                    let file = try DownloadFile(path: path, keeping: 0)
                    try file.write(response.body)
                    file.close()
                } catch {
                    removeTemporaryFile()
                    final.error = final.error ?? .downloadFailed(reason: error)
                    return final
                }
            }
            if state.isConfirmedComplete { sink.reportProgress() }
            switch move(HTTPResponse(response, url: final.request?.url)) {
            case .success(let url): final.fileURL = url
            case .failure(let reason):
                removeTemporaryFile()
                final.error = final.error ?? .downloadFailed(reason: reason)
            }
            return final
        }
        if !isCancelled || state.wantsResumeData, let initialRequest, initialRequest.method == .get,
            let data = resumeData(state, request: initialRequest)
        {
            final.resumeData = data
        } else {
            removeTemporaryFile()
        }
        return final
    }

    /// Whether a request that ended with `error` and a response got that response's whole body:
    /// no error, or a validation's (also when a retrier then refused to retry it).
    private static func bodyIsWhole(despite error: WickError?) -> Bool {
        switch error {
        case nil, .responseValidationFailed?: true
        case .requestRetryFailed(_, let original)?: bodyIsWhole(despite: original)
        default: false
        }
    }

    /// Moves the file to the destination (nil: it stays where it is).
    private func move(_ response: HTTPResponse) -> Result<URL, DownloadFailureReason> {
        let temporaryURL = URL(fileURLWithPath: sink.temporaryPath)
        guard let destination else { return .success(temporaryURL) }
        let (target, options) = DownloadRequest.$destinationRequestURL.withValue(lastRequestURL) {
            destination(temporaryURL, response)
        }
        let files = FileManager.default
        let targetPath = target.standardizedFileURL.path
        if targetPath == temporaryURL.standardizedFileURL.path { return .success(temporaryURL) }
        do {
            if options.contains(.createIntermediateDirectories) {
                try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            if files.fileExists(atPath: targetPath) {
                guard options.contains(.removePreviousFile) else {
                    return .failure(.destinationExists(path: targetPath))
                }
                try files.removeItem(atPath: targetPath)
            }
            try files.moveItem(atPath: sink.temporaryPath, toPath: targetPath)
        } catch {
            return .failure(.cannotMoveFile(from: sink.temporaryPath, to: targetPath, reason: "\(error)"))
        }
        return .success(target)
    }

    /// Resume data for the file as it is, if the response allows resuming.
    private func resumeData(_ state: DownloadSink.State, request: HTTPRequest) -> Data? {
        guard state.writtenBytes > 0, !state.isContentEncoded, !state.validators.isEmpty,
            let onDisk = DownloadFile.size(atPath: sink.temporaryPath), onDisk >= state.writtenBytes
        else { return nil }
        var headers = request.headers
        headers.remove(name: "Range")
        headers.remove(name: "If-Range")
        return DownloadResumeData(
            url: request.url.absoluteString, method: request.method.rawValue,
            headers: headers.map { [$0.name, $0.value] }, temporaryFilePath: sink.temporaryPath,
            bytesOnDisk: state.writtenBytes, entityTag: state.validators.entityTag,
            lastModified: state.validators.lastModified
        ).encoded()
    }

    private func removeTemporaryFile() {
        try? FileManager.default.removeItem(atPath: sink.temporaryPath)
    }
}
