// Where a download's body goes: a temporary file written on a serial queue, with backpressure,
// progress, and the decisions of a resumed attempt (206 appends, 200 starts over, 416 checks).
import Dispatch
import FoundationEssentials
import WickCore
import WickReactor

/// A `DownloadRequest`'s body sink and file keeper.
///
/// Threads: `responseHead` and `responseBody` run on the pool's loop and only take bytes (a
/// large body's reads land in the chunk's own memory, lent by `responseBodyDestination`) and
/// queue work; every file operation (open, write, close, move, remove) runs on `writerQueue`,
/// in order, so the loop never waits for the disk. `state` (behind a lock) is what both sides
/// and the request's controls share; `file` is touched only on `writerQueue`.
///
/// Memory: bytes queued for the writer are counted; above `highWaterMark` the sink tells the
/// connection to stop reading, and the writer asks for more once they are down to
/// `lowWaterMark`. A download then holds at most the high mark plus one read buffer, whatever
/// the file's size.
final class DownloadSink: TransportBodySink, @unchecked Sendable {
    /// Queued, unwritten bytes above which reading the socket pauses.
    static let highWaterMark = 2 << 20
    /// Queued, unwritten bytes at or below which paused reading resumes.
    static let lowWaterMark = 512 << 10

    /// Where the latest final response's body went.
    enum Disposition: Equatable {
        /// No final response yet in this run.
        case none
        /// Into the temporary file.
        case file
        /// Into memory (a redirect or challenge not followed after all, a 416 on resume).
        case collected
        /// Nowhere: a 206 for the wrong range, whose request is being aborted with this reason
        /// (the exchange may end before the abort reaches it: the finisher fails it then).
        case discarded(DownloadFailureReason)
    }

    struct State {
        /// Bytes handed to the writer and not yet written.
        var outstandingBytes = 0
        /// `responseBody` said it takes no more; the writer calls `demandMoreBody()` when drained.
        var isPaused = false
        /// Bytes the file holds once the queued writes are done.
        var fileLength: Int64
        /// Bytes written to the file.
        var writtenBytes: Int64
        /// The body's whole length (with the bytes kept by a resume), when known.
        var totalBytes: Int64?
        /// The validators of the body in the file, for `If-Range`.
        var validators: DownloadValidators
        /// The body in the file was decoded from a `Content-Encoding`: its offsets are not the
        /// server's, so it cannot be resumed.
        var isContentEncoded = false
        var disposition = Disposition.none
        /// The start the current attempt asked for with `Range` (0: the whole body).
        var requestedOffset: Int64 = 0
        /// A 416 on a resumed attempt said the file is already complete.
        var isConfirmedComplete = false
        /// A 416 on a resumed attempt named another length: the next attempt asks without a range.
        var restartPending = false
        /// The next adapted attempt drops its range (a restart was granted).
        var sendsWithoutRange = false
        /// The one restart after a 416 was used.
        var hasRestarted = false
        /// Writing failed: the request is being aborted with this.
        var failure: DownloadFailureReason?
        /// `cancel(producingResumeData: true)` was called.
        var wantsResumeData = false
        var progressHandlers: [(queue: DispatchQueue, handler: @Sendable (TransferProgress) -> Void)] = []
    }

    /// The temporary file's path, the same for every attempt (and for a resumed download, the
    /// path its resume data names).
    let temporaryPath: String
    let state: Locked<State>
    /// Runs every file operation in order.
    let writerQueue = DispatchQueue(label: "Wick.DownloadSink.writer")
    /// The next chunk, lent to the connection's read so its bytes need no copy; on the loop only.
    private var nextChunk = CollectedBody()
    /// The request, for `bodyHandling`, `demandMoreBody` and `abort`. Set once by
    /// `DownloadRequest.init` before the request can start, then only read.
    weak var request: Request?
    /// The open file; touched only on `writerQueue`.
    private var file: DownloadFile?

    /// A sink writing to `temporaryPath`, of which the first `keptBytes` (a resume's) are the
    /// body's, with `validators`.
    init(temporaryPath: String, keptBytes: Int64, validators: DownloadValidators) {
        self.temporaryPath = temporaryPath
        state = Locked(State(fileLength: keptBytes, writtenBytes: keptBytes, validators: validators))
    }

    // MARK: - TransportBodySink (on the loop)

    func responseHead(status: HTTPStatus, headers: HTTPHeaders) -> TransportBodyHandling {
        guard let request, request.bodyHandling(status: status, headers: headers) == .stream else {
            return .collect
        }
        enum Decision { case open(keeping: Int64), collect, abort(DownloadFailureReason) }
        let contentLength = headers.value(for: "Content-Length").flatMap { Int64($0) }
        let coding = headers.value(for: "Content-Encoding")?.lowercased()
        let decision = state.withLock { state -> Decision in
            state.isConfirmedComplete = false
            state.restartPending = false
            let offset = state.requestedOffset
            var kept: Int64 = 0
            if offset > 0, status.rawValue == 206 {
                let received = headers.value(for: "Content-Range")
                guard let range = ContentRange(received)?.range, range.lowerBound == offset else {
                    let reason = DownloadFailureReason.unexpectedContentRange(requested: offset, received: received)
                    state.disposition = .discarded(reason)
                    return .abort(reason)
                }
                kept = offset
                state.totalBytes = ContentRange(received)?.completeLength ?? contentLength.map { offset + $0 }
            } else if offset > 0, status.rawValue == 416 {
                state.disposition = .collected
                if let complete = ContentRange(headers.value(for: "Content-Range")), complete.range == nil,
                    complete.completeLength == offset
                {
                    state.isConfirmedComplete = true
                    state.totalBytes = offset
                } else if !state.hasRestarted {
                    state.restartPending = true
                }
                return .collect
            } else {
                state.totalBytes = contentLength
            }
            let validators = DownloadValidators(headers)
            if kept == 0 || !validators.isEmpty { state.validators = validators }
            state.isContentEncoded = coding.map { $0 != "identity" } ?? false
            // A decoded body's length is not the declared one.
            if state.isContentEncoded { state.totalBytes = nil }
            state.disposition = .file
            state.fileLength = kept
            return .open(keeping: kept)
        }
        switch decision {
        case .collect:
            return .collect
        case .abort(let reason):
            // Not from inside the exchange's callback: abort cancels that exchange.
            writerQueue.async { request.abort(with: .downloadFailed(reason: reason)) }
            return .stream
        case .open(let kept):
            writerQueue.async { [self] in open(keeping: kept) }
            return .stream
        }
    }

    func responseBodyDestination(maximum: Int) -> UnsafeMutableRawBufferPointer? {
        let room = state.withLock { state -> Int? in
            guard state.disposition == .file, state.failure == nil else { return nil }
            return Self.highWaterMark - state.outstandingBytes
        }
        guard let room else { return nil }
        return nextChunk.lendChunk(maximum: maximum, room: room)
    }

    func responseBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        let takesMore = state.withLock { state -> Bool? in
            guard state.disposition == .file, state.failure == nil else { return nil }
            state.outstandingBytes += count
            state.fileLength += Int64(count)
            if state.outstandingBytes >= Self.highWaterMark {
                state.isPaused = true
                return false
            }
            return true
        }
        guard let takesMore else { return true }
        // Bytes read into the lent chunk become the chunk as they are; others (the connection's
        // read buffer, valid for this call) are copied into it.
        nextChunk.append(bytes)
        let chunk = nextChunk.take()
        writerQueue.async { [self] in write(chunk) }
        return takesMore
    }

    // MARK: - The writer queue

    /// Opens the temporary file for a new final response, keeping `kept` bytes of a resume.
    private func open(keeping kept: Int64) {
        file?.close()
        file = nil
        do throws(DownloadFailureReason) {
            file = try DownloadFile(path: temporaryPath, keeping: kept)
            state.withLock { $0.writtenBytes = kept }
            reportProgress()
        } catch {
            fail(error)
        }
    }

    /// Writes one chunk, then resumes reading if the queue drained below the low mark.
    private func write(_ chunk: Data) {
        var failure: DownloadFailureReason?
        if let file {
            do throws(DownloadFailureReason) {
                try file.write(chunk)
            } catch {
                failure = error
            }
        }
        let resumes = state.withLock { state -> Bool in
            state.outstandingBytes -= chunk.count
            if failure == nil, state.failure == nil { state.writtenBytes += Int64(chunk.count) }
            guard state.isPaused, state.outstandingBytes <= Self.lowWaterMark else { return false }
            state.isPaused = false
            return true
        }
        if let failure { return fail(failure) }
        if resumes { request?.demandMoreBody() }
        if file != nil { reportProgress() }
    }

    /// Records a file failure, closes the file, and aborts the request with it.
    private func fail(_ reason: DownloadFailureReason) {
        file?.close()
        file = nil
        let first = state.withLock { state -> Bool in
            guard state.failure == nil else { return false }
            state.failure = reason
            return true
        }
        if first { request?.abort(with: .downloadFailed(reason: reason)) }
    }

    /// Hands the bytes written so far to every progress handler, on its queue. On the writer
    /// queue (the finisher calls it once more for a 416 that confirmed the file complete).
    func reportProgress() {
        let (progress, handlers) = state.withLock { state in
            (TransferProgress(completedBytes: state.writtenBytes, totalBytes: state.totalBytes), state.progressHandlers)
        }
        for (queue, handler) in handlers { queue.async { handler(progress) } }
    }

    /// Runs `body` on the writer queue after every write queued so far, then closes the file.
    func afterWrites(_ body: @escaping @Sendable () -> Void) {
        writerQueue.async { [self] in
            file?.close()
            file = nil
            body()
        }
    }

    /// Waits until every queued write is done (a validation reads the file).
    func waitForWrites() {
        writerQueue.sync {}
    }

    // MARK: - Resuming attempts (the request's interceptor, on the root queue)

    /// The request to send for an attempt of a resumable download: with `Range: bytes=N-` and
    /// `If-Range` when the file holds N > 0 bytes of a body with a validator (and the body was
    /// not decoded), `Accept-Encoding: identity` so that offsets are the server's; without them
    /// otherwise, and on the one restart after a 416.
    func adaptForResume(_ request: HTTPRequest) -> HTTPRequest {
        var adapted = request
        adapted.headers.remove(name: "Range")
        adapted.headers.remove(name: "If-Range")
        state.withLock { state in
            let offset = state.fileLength
            if state.sendsWithoutRange || offset == 0 || state.isContentEncoded || state.validators.isEmpty {
                state.sendsWithoutRange = false
                state.requestedOffset = 0
                return
            }
            let validator = state.validators.entityTag ?? state.validators.lastModified
            adapted.headers.add(name: "Range", value: "bytes=\(offset)-")
            if let validator { adapted.headers.add(name: "If-Range", value: validator) }
            adapted.headers.update(name: "Accept-Encoding", value: "identity")
            state.requestedOffset = offset
        }
        return adapted
    }

    /// Whether the attempt that just ended got a 416 for another length than the file's, so the
    /// download starts over without a range; true once, which also arms that restart.
    func takeRestart() -> Bool {
        state.withLock { state in
            guard state.restartPending else { return false }
            state.restartPending = false
            state.hasRestarted = true
            state.sendsWithoutRange = true
            return true
        }
    }

    /// Whether the last response was a 416 to be restarted from (its validation fails).
    var isRestartPending: Bool { state.withLock { $0.restartPending } }
}
