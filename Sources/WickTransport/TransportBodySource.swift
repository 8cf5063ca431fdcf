// A request body the transport pulls piece by piece: uploads from files, streams, multipart.
/// A request body produced as the connection can take it, so an upload of any size costs a few
/// pieces of memory. The driver asks for one piece at a time, on its loop; the source may do
/// blocking work (reading a file) elsewhere and call `deliver` from any thread.
package protocol TransportBodySource: AnyObject, Sendable {
    /// The body's length in bytes (sent as `Content-Length`), or nil to send it with
    /// `Transfer-Encoding: chunked`.
    var length: Int? { get }

    /// Produces the next piece of at most `maximum` bytes and calls `deliver` once: the bytes,
    /// an empty array at the end of the body, or the error that stops the upload.
    func read(maximum: Int, deliver: @escaping @Sendable (Result<[UInt8], any Error>) -> Void)

    /// Starts the body again from its first byte, for a replay on a fresh connection; false when
    /// it cannot (a stream already consumed), which fails the request instead.
    func rewind() -> Bool
}
