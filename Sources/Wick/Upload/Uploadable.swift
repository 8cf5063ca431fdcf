// What an upload sends: bytes in memory, a file, an async stream of chunks, or a multipart form.
public import FoundationEssentials

/// The body of an `UploadRequest` (Alamofire's `UploadRequest.Uploadable`). Everything but
/// `.data` is read piece by piece while the connection can take it, so memory stays flat
/// whatever the size.
public enum Uploadable: Sendable {
    /// Bytes in memory, sent with `Content-Length`.
    case data(Data)
    /// A file, read in 64 KiB pieces and sent with `Content-Length` (its size when the request
    /// starts). `shouldRemove`: delete the file when the request finishes.
    case file(URL, shouldRemove: Bool)
    /// Chunks from an async sequence, sent with `Transfer-Encoding: chunked` (the length is
    /// unknown). A stream is consumed once: a request that must send its body again (a retry, a
    /// 307 or 308 redirect, a replay) fails with `requestBodyFailed`.
    case stream(UploadStream)
    /// A multipart form (RFC 7578), read part by part from its data, files and streams and sent
    /// with its exact `Content-Length` and `Content-Type` (with the boundary). A retry or redirect
    /// reads the form again from the start.
    case multipart(MultipartFormData)
}

/// An async sequence of chunks as an upload body (`Uploadable.stream`), erased so that any
/// `AsyncSequence` of `Data` fits.
public final class UploadStream: Sendable {
    /// Produces the next chunk, nil at the end.
    let next: @Sendable () async throws -> Data?

    /// The chunks of `sequence`, in order; its error fails the upload.
    public init<Chunks: AsyncSequence & Sendable>(_ sequence: Chunks) where Chunks.Element == Data {
        let iterator = UploadStreamIterator(sequence.makeAsyncIterator())
        next = { try await iterator.next() }
    }
}

/// Holds an iterator for `UploadStream`: pulled by one piece request at a time (the driver asks
/// for the next piece only after the last one arrived), so it is never used concurrently.
private final class UploadStreamIterator<Iterator: AsyncIteratorProtocol>: @unchecked Sendable
where Iterator.Element == Data {
    private var iterator: Iterator

    init(_ iterator: Iterator) {
        self.iterator = iterator
    }

    func next() async throws -> Data? {
        try await iterator.next()
    }
}
