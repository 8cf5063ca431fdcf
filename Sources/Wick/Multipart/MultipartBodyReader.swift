// Pulls the encoded bytes of a multipart body in bounded pieces, reading files and streams as it goes.
//
// Unsafe code: each piece is one array written in place (`fill(_:)`). Invariant: every write goes
// to a rebased slice of that array's buffer whose end is checked against the buffer's size, and
// every source range is checked against its segment's length before it is copied.
import FoundationEssentials
import Synchronization
import WickReactor

/// The encoded body of a `MultipartFormData`, read front to back in pieces (from
/// `MultipartFormData.makeReader()`).
///
/// Memory stays bounded whatever the parts hold: a file is read straight into the piece being
/// returned, a stream is asked for at most what the piece still needs, and nothing is kept
/// between calls but the open file or stream of the current part. A piece of `maxCount` bytes
/// costs one array of that size. A file is opened when the reader reaches it and closed when its
/// last byte is read, or when the reader is released.
///
/// The reader is `Sendable` so that it can be handed to the thread that sends the body; calls
/// are serialised by a lock, and file reads are blocking `read(2)` calls.
public final class MultipartBodyReader: Sendable {
    /// The total number of bytes the reader produces: the form's `encodedLength` when it was made.
    public let contentLength: UInt64
    /// The reader's position and open resources; only `read(upTo:)` and `deinit` touch them.
    private let state: Mutex<State>

    /// A reader over `segments`, whose lengths add up to `contentLength`.
    init(segments: [Segment], contentLength: UInt64) {
        self.contentLength = contentLength
        state = Mutex(State(segments: segments, remaining: contentLength))
    }

    deinit {
        state.withLock { $0.releaseCurrent() }
    }

    /// The next bytes of the encoded body: exactly `min(maxCount, bytes left)` of them, so an
    /// empty array means the body has ended (and every later call returns an empty array too).
    ///
    /// `maxCount` must be positive.
    ///
    /// - Throws: `WickError.multipartEncodingFailed(reason: .inputStreamReadFailed(error:))` when
    ///   a part cannot be read: a `MultipartIOError` (a file that cannot be opened or read, or
    ///   whose size changed since it was appended; a stream longer or shorter than its length)
    ///   or the error a stream threw. The reader then stays failed: every later call throws the
    ///   same error.
    public func read(upTo maxCount: Int) throws(WickError) -> [UInt8] {
        precondition(maxCount > 0, "MultipartBodyReader.read(upTo:): maxCount must be positive, not \(maxCount)")
        return try state.withLock { state throws(WickError) in try state.read(upTo: maxCount) }
    }
}

extension MultipartBodyReader {
    /// One stretch of the encoded body.
    enum Segment: Sendable {
        /// Delimiters and header blocks.
        case bytes([UInt8])
        /// A part's content.
        case content(MultipartBodyPart.Content)

        /// The stretch's length in bytes.
        var length: UInt64 {
            switch self {
            case .bytes(let bytes): UInt64(bytes.count)
            case .content(let content): content.length
            }
        }
    }

    /// Where the reader is: the segment, the offset in it, and the file or stream it has open.
    private struct State {
        let segments: [Segment]
        /// The segment being read; `segments.count` once the body has ended.
        var index = 0
        /// Bytes of `segments[index]` already returned.
        var offset: UInt64 = 0
        /// Bytes of the whole body not yet returned.
        var remaining: UInt64
        /// The open descriptor of `segments[index]`, a file.
        var file: Int32?
        /// The open stream of `segments[index]`, a stream.
        var stream: (any MultipartByteStream)?
        /// The error every call throws once reading failed.
        var failure: WickError?

        init(segments: [Segment], remaining: UInt64) {
            self.segments = segments
            self.remaining = remaining
        }

        mutating func read(upTo maxCount: Int) throws(WickError) -> [UInt8] {
            if let failure { throw failure }
            do {
                return try fill(upTo: maxCount)
            } catch {
                releaseCurrent()
                let failure = WickError.multipartEncodingFailed(reason: .inputStreamReadFailed(error: error))
                self.failure = failure
                throw failure
            }
        }

        /// Gathers `min(maxCount, remaining)` bytes across as many segments as that takes, into
        /// one array written in place: a file is read straight into it, other bytes are copied once.
        private mutating func fill(upTo maxCount: Int) throws -> [UInt8] {
            let count = Int(min(UInt64(maxCount), remaining))
            return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                // SAFETY: `buffer` is the new array's storage of `count` bytes; `fill(_:)` writes
                // only inside it and returns how many bytes from its start it wrote.
                initialized = try fill(UnsafeMutableRawBufferPointer(buffer))
            }
        }

        /// Fills all of `buffer` (whose size is at most `remaining`) with the next bytes;
        /// returns `buffer.count`.
        private mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            var filled = 0
            while filled < buffer.count {
                precondition(index < segments.count, "MultipartBodyReader: segments end with \(remaining) bytes left")
                let segment = segments[index]
                let left = segment.length - offset
                guard left > 0 else {
                    try finishSegment()
                    continue
                }
                let wanted = Int(min(UInt64(buffer.count - filled), left))
                // SAFETY: `filled + wanted <= buffer.count`, so `destination` lies inside `buffer`.
                let destination = UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<filled + wanted])
                let got: Int
                switch segment {
                case .bytes(let source):
                    source.withUnsafeBytes { source in
                        // SAFETY: `offset + wanted <= source.count` because `wanted <= left`.
                        destination.copyMemory(
                            from: UnsafeRawBufferPointer(rebasing: source[Int(offset)..<Int(offset) + wanted]))
                    }
                    got = wanted
                case .content(.data(let data)):
                    data.withUnsafeBytes { source in
                        // SAFETY: as above: `offset + wanted <= data.count`.
                        destination.copyMemory(
                            from: UnsafeRawBufferPointer(rebasing: source[Int(offset)..<Int(offset) + wanted]))
                    }
                    got = wanted
                case .content(.file(let path, let size)):
                    let fd = try openFile(path: path, size: size)
                    do {
                        got = try FileIO.system.read(fd, into: destination, path: path)
                    } catch {
                        throw MultipartIOError(error)
                    }
                    if got == 0 { throw MultipartIOError.fileSizeChanged(path: path, expected: size, actual: offset) }
                case .content(.stream(let name, let source)):
                    try openStream(source)
                    let chunk = try stream!.read(upTo: wanted)
                    precondition(
                        chunk.count <= wanted,
                        "MultipartByteStream.read(upTo: \(wanted)) of part \(name) returned \(chunk.count) bytes"
                    )
                    if chunk.isEmpty {
                        throw MultipartIOError.streamLengthMismatch(
                            name: name, expected: source.length, produced: offset)
                    }
                    chunk.withUnsafeBytes { source in
                        // SAFETY: `chunk.count <= wanted == destination.count`, checked just above.
                        UnsafeMutableRawBufferPointer(rebasing: destination[..<chunk.count]).copyMemory(from: source)
                    }
                    got = chunk.count
                }
                filled += got
                offset += UInt64(got)
                remaining -= UInt64(got)
                if offset == segment.length { try finishSegment() }
            }
            return filled
        }

        /// The descriptor of the current file segment, opened (and its size checked) the first time.
        private mutating func openFile(path: String, size: UInt64) throws(MultipartIOError) -> Int32 {
            if let file { return file }
            let fd: Int32
            let actual: UInt64
            do {
                fd = try FileIO.system.open(path, .reading)
                file = fd
                actual = UInt64(try FileIO.system.status(of: fd, path: path).size)
            } catch {
                throw MultipartIOError(error)
            }
            guard actual == size else { throw .fileSizeChanged(path: path, expected: size, actual: actual) }
            return fd
        }

        /// Makes the current stream segment's stream, the first time.
        private mutating func openStream(_ source: MultipartStreamSource) throws {
            if stream == nil { stream = try source.makeStream() }
        }

        /// Ends the current segment, whose bytes have all been returned: a stream must have no
        /// byte more, a file (even an empty one) must still have the size it had; then moves on.
        private mutating func finishSegment() throws {
            switch segments[index] {
            case .bytes, .content(.data): break
            case .content(.file(let path, let size)):
                _ = try openFile(path: path, size: size)
            case .content(.stream(let name, let source)):
                try openStream(source)
                let extra = try stream!.read(upTo: 1)
                if !extra.isEmpty {
                    throw MultipartIOError.streamLengthMismatch(
                        name: name, expected: source.length, produced: source.length + UInt64(extra.count))
                }
            }
            releaseCurrent()
            index += 1
            offset = 0
        }

        /// Closes the current segment's file and drops its stream.
        mutating func releaseCurrent() {
            // A file only read: a failed close loses nothing.
            if let file { try? FileIO.system.close(file, path: "") }
            file = nil
            stream = nil
        }
    }
}
