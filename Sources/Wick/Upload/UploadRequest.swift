// A request whose body is uploaded from memory, a file or a stream, with upload progress.
public import Dispatch
import FoundationEssentials
import Synchronization
import WickReactor

/// A `DataRequest` that uploads a body (Alamofire's `UploadRequest`): `Session.upload(_:to:)`
/// from `Data`, a file or an async stream, or `upload(multipartFormData:to:)`. The body is read
/// piece by piece as the connection takes it, so a file of any size costs a few pieces of
/// memory. Everything `DataRequest` offers (handlers, validation, serializers, async) applies
/// to the response.
public final class UploadRequest: DataRequest, @unchecked Sendable {
    /// What is uploaded.
    public let uploadable: Uploadable
    private let progressHandlers = Locked<[(queue: DispatchQueue, handler: @Sendable (TransferProgress) -> Void)]>([])
    /// Whether an `Uploadable.stream` was handed to a send already (it cannot be read twice).
    private let streamUsed = Atomic<Bool>(false)

    init(
        session: Session, initialRequest: Result<HTTPRequest, WickError>, uploadable: Uploadable,
        interceptor: consuming (any RequestInterceptor)?, shouldAutomaticallyResume: Bool?
    ) {
        self.uploadable = uploadable
        super.init(
            session: session, initialRequest: initialRequest, interceptor: interceptor,
            shouldAutomaticallyResume: shouldAutomaticallyResume)
    }

    /// Calls `closure` on `queue` (nil: `session.responseQueue`) as the body is read for sending:
    /// bytes read so far and the total when known. A send that starts again (a retry, a 307 or
    /// 308 redirect, a replay) starts again from 0.
    @discardableResult
    public func uploadProgress(
        queue: DispatchQueue? = nil, closure: @escaping @Sendable (TransferProgress) -> Void
    ) -> Self {
        let queue = queue ?? session.responseQueue
        progressHandlers.withLock { $0.append((queue, closure)) }
        return self
    }

    override func makeBodySource(for request: HTTPRequest) -> Result<(any TransportBodySource)?, WickError> {
        guard request.carriesUpload else { return .success(nil) }
        let total = Shared<Int64?>(nil)
        let reported = Shared<Int64>(0)
        let monitored = session.eventMonitor.handledEvents.contains(.didSendBodyData)
        let report: @Sendable (Int64) -> Void = { [weak self] completed in
            guard let self else { return }
            let progress = TransferProgress(completedBytes: completed, totalBytes: total.value)
            for (queue, handler) in progressHandlers.withLock({ $0 }) { queue.async { handler(progress) } }
            if monitored {
                let sent = completed - reported.value
                reported.value = completed
                session.eventMonitor.request(
                    self, didSendBodyData: sent, totalBytesSent: completed, totalBytesExpectedToSend: total.value)
            }
        }
        let made = makeUploadSource(report: report)
        switch made {
        case .success(let source):
            total.value = source.length.map(Int64.init)
            session.eventMonitor.request(self, didCreateUploadable: uploadable)
            return .success(source)
        case .failure(let error):
            session.eventMonitor.request(self, didFailToCreateUploadableWithError: error)
            return .failure(error)
        }
    }

    /// The body source of one send, reporting the bytes read to `report`.
    private func makeUploadSource(report: @escaping @Sendable (Int64) -> Void) -> Result<UploadBodySource, WickError> {
        let source: UploadBodySource
        switch uploadable {
        case .data(let data):
            source = .memory(data, progress: report)
        case .file(let url, _):
            do throws(UploadFileError) {
                source = try .file(url, progress: report)
            } catch {
                return .failure(.sessionTaskFailed(error: .requestBodyFailed(reason: error.description)))
            }
        case .stream(let stream):
            guard !streamUsed.exchange(true, ordering: .relaxed) else {
                let reason = UploadFileError.streamAlreadyConsumed.description
                return .failure(.sessionTaskFailed(error: .requestBodyFailed(reason: reason)))
            }
            source = .stream(stream, progress: report)
        case .multipart(let form):
            do throws(WickError) {
                source = try .multipart(form, progress: report)
            } catch {
                return .failure(error)
            }
        }
        return .success(source)
    }

    override func completeOutcome(_ outcome: Outcome, then record: @escaping @Sendable (Outcome) -> Void) {
        if case .file(let url, shouldRemove: true) = uploadable {
            try? FileManager.default.removeItem(at: url)
        }
        super.completeOutcome(outcome, then: record)
    }
}

/// A value set once before it is shared (the total of a progress report).
private final class Shared<Value: Sendable>: Sendable {
    private let storage: Locked<Value>

    init(_ value: Value) { storage = Locked(value) }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
