// Where a streamed response body goes instead of memory: downloads to files, data streams.
package import WickCore

/// What a sink wants done with one response's body.
package enum TransportBodyHandling {
    /// Collect it in memory, as for an ordinary request (a redirect or challenge the request
    /// will follow: its small body is not the payload).
    case collect
    /// Hand it to the sink piece by piece.
    case stream
    /// Collect it in memory, and show every piece to the sink as well (its progress); the
    /// sink's answer is still the backpressure.
    case observe
}

/// Receives a response's body as it arrives, on the runner's loop, instead of the exchange
/// collecting it (`ConnectionPoolRunner.start(..., sink:)`). The exchange calls `responseHead`
/// once per response (a replayed request may start over with a new one), then, if that chose
/// `.stream` or `.observe`, `responseBody` for every piece, and `responseBodyReadComplete` after each batch of
/// pieces that one batch of socket reads brought (not when the connection failed during it:
/// the request's end follows then).
///
/// Backpressure: `responseBody` returns false when the sink holds as much as it will (bytes
/// handed to a slower consumer: a file writer, a stream's reader); the connection then stops
/// reading the socket until the sink calls `ConnectionPoolRunner.demandMore(handle)`. The bytes
/// of the read in progress are still delivered, so a sink may exceed its mark by one read
/// buffer.
package protocol TransportBodySink: AnyObject, Sendable {
    /// The final response head: decide where its body goes. `status`, `headers`.
    func responseHead(status: HTTPStatus, headers: HTTPHeaders) -> TransportBodyHandling
    /// Body bytes, borrowed for the call. Returns whether the sink takes more now. They may lie
    /// in the sink's own memory, lent by `responseBodyDestination`.
    func responseBody(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Memory of the sink's own, at most `maximum` bytes, where the next read of body bytes may
    /// land; they then come back through `responseBody` in place, and a sink that keeps them
    /// (a stream's chunk) takes them over instead of copying. Nil to have them in the loop's
    /// buffer. Valid until the sink's next call.
    func responseBodyDestination(maximum: Int) -> UnsafeMutableRawBufferPointer?
    /// The reads that brought the last `responseBody` calls are over: wake the consumer now,
    /// once for the batch, rather than once per piece.
    func responseBodyReadComplete()
}

extension TransportBodySink {
    /// Default: nil (the loop's buffer; the sink copies what it keeps).
    package func responseBodyDestination(maximum: Int) -> UnsafeMutableRawBufferPointer? { nil }
    /// Default: nothing (a sink that hands each piece on in full needs no batch end).
    package func responseBodyReadComplete() {}
}
