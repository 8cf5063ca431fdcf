// A body part whose bytes come from code of your own, with a length known in advance.

/// The bytes of one stream part, read front to back by the encoder.
///
/// A stream is used once, by one encoding, from one thread at a time.
public protocol MultipartByteStream {
    /// The next bytes of the part, at most `maxCount` of them (`maxCount` is positive). An empty
    /// array means the stream has ended; fewer than `maxCount` bytes do not.
    ///
    /// - Throws: Any error; the encoding fails with
    ///   `WickError.multipartEncodingFailed(reason: .inputStreamReadFailed(error:))` carrying it.
    mutating func read(upTo maxCount: Int) throws -> [UInt8]
}

/// A body part's bytes produced on demand (Wick's counterpart of Alamofire's `InputStream` parts,
/// which FoundationEssentials does not have): `length` bytes, read from a fresh stream that
/// `makeStream` opens for each encoding.
///
/// Because a new stream is made each time, the same `MultipartFormData` can be encoded again
/// (by `encode()`, `writeEncodedData(to:)` or another `makeReader()`), as a retry or a redirect
/// needs. The stream must produce exactly `length` bytes: `encodedLength` promised them, so a
/// stream that ends early or goes on fails the encoding with
/// `MultipartIOError.streamLengthMismatch`.
public struct MultipartStreamSource: Sendable {
    /// How many bytes every stream from `makeStream` produces.
    public let length: UInt64
    /// Opens a stream over the part's bytes, from the start.
    let makeStream: @Sendable () throws -> any MultipartByteStream

    /// A source of `length` bytes that `makeStream` opens a stream over, once per encoding.
    /// `makeStream` is called when the encoder reaches the part, not before; if it throws, the
    /// encoding fails with `WickError.multipartEncodingFailed(reason: .inputStreamReadFailed(error:))`.
    public init(length: UInt64, makeStream: @escaping @Sendable () throws -> any MultipartByteStream) {
        self.length = length
        self.makeStream = makeStream
    }
}
