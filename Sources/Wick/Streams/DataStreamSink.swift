// The transport side of a data stream: the final head and its body bytes, on the event loop.
import FoundationEssentials
import WickCore

/// The `TransportBodySink` of a `DataStreamRequest`. Runs on the runner's loop and does only
/// cheap work there: deciding where a body goes, making each read one `Data` shared by every
/// reader (a large body's reads land in the chunk's own memory, so without a copy), and
/// counting. Validations and parsing run elsewhere (the root queue, the
/// readers' queues and tasks).
///
/// `@unchecked Sendable`: `request` is set once, right after the request's `init`, before the
/// request can start (its start publishes it to the loop through the pool's lock); it is only
/// read afterwards.
final class DataStreamSink: TransportBodySink, @unchecked Sendable {
    weak var request: DataStreamRequest?
    /// The next chunk, lent to the connection's read so its bytes need no copy; on the loop only.
    private var nextChunk = CollectedBody()

    func responseHead(status: HTTPStatus, headers: HTTPHeaders) -> TransportBodyHandling {
        guard let request, request.bodyHandling(status: status, headers: headers) == .stream else { return .collect }
        // The sink hears no version: the outcome's response, which has it, replaces this head.
        request.finalHeadArrived(
            HTTPResponse(status: status, headers: headers, version: .http1_1, url: request.request?.url))
        return .stream
    }

    func responseBodyDestination(maximum: Int) -> UnsafeMutableRawBufferPointer? {
        guard let request else { return nil }
        return nextChunk.lendChunk(maximum: maximum, room: request.readerRoom)
    }

    func responseBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let request else { return true }
        // Bytes read into the lent chunk become the chunk as they are; others (the loop's
        // buffer, valid for this call) are copied into it.
        nextChunk.append(bytes)
        return request.bodyArrived(nextChunk.take())
    }

    func responseBodyReadComplete() {
        request?.bodyReadComplete()
    }
}
