// Inflater: one zlib inflate stream at a fixed heap address. The only file in WickHTTP1 that hands
// pointers to zlib.
//
// Invariant: `stream` is allocated and `inflateInit2`-ed in `init`, released by `inflateEnd` and
// deallocated in `deinit`, and never escapes this class. zlib keeps a back-pointer from its state to
// the z_stream and rejects calls made through a moved copy, which is why the z_stream lives behind a
// pointer rather than inline in a value that Swift may move. zlib keeps no pointer to our input or
// output between calls: `next_in`/`next_out` are set before each `inflate` and cleared after it.
internal import CWickZlib

/// The framing zlib expects around the deflate data.
enum InflateFormat: Sendable {
    /// RFC 1952 gzip member.
    case gzip
    /// RFC 1950 zlib wrapper.
    case zlib
    /// RFC 1951 raw deflate.
    case raw

    /// zlib's `windowBits` for the format, with the maximum window (32 KiB).
    fileprivate var windowBits: Int32 {
        switch self {
        case .gzip: 15 + 16
        case .zlib: 15
        case .raw: -15
        }
    }
}

/// An owned zlib inflate stream. A final class rather than a noncopyable struct: the z_stream must
/// stay at one address for its whole life (see the file's invariant), so it is on the heap either
/// way, and a class lets `ContentDecoder` keep its layers in an array and be stored by the
/// connection driver without ownership ceremony. `deinit` calls `inflateEnd` on every path.
///
/// Not Sendable: one connection's loop owns it.
final class Inflater: Decompressor {
    private let stream: UnsafeMutablePointer<z_stream>

    /// A stream ready for `format`.
    init(format: InflateFormat) throws(ContentDecodingError) {
        // SAFETY: a fresh allocation of one z_stream, initialised below before any use.
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        // SAFETY: zero-initialising (z_stream()) gives zalloc/zfree/opaque Z_NULL, which zlib requires.
        stream.initialize(to: z_stream())
        // SAFETY: `stream` points at an initialised z_stream that we own.
        let result = cwick_inflateInit2(stream, format.windowBits)
        guard result == Z_OK else {
            // SAFETY: init failed, so zlib holds no state to end; we release our own allocation.
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .outOfMemory
        }
    }

    deinit {
        // SAFETY: `stream` was initialised by inflateInit2 in init and is ended exactly once here.
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Makes the stream ready for a new stream in `format`, keeping its allocations.
    func reset(format: InflateFormat) {
        // SAFETY: `stream` is a live, initialised inflate stream.
        let result = inflateReset2(stream, format.windowBits)
        precondition(result == Z_OK, "inflateReset2 failed with \(result) on a live stream")
    }

    /// Runs one `inflate(Z_NO_FLUSH)` over `input`, writing at most `room` bytes at the start of
    /// `output`.
    func decompress(_ input: ArraySlice<UInt8>, into output: inout [UInt8], room: Int) -> DecompressionStep {
        precondition(input.count <= Int(UInt32.max), "inflate input of \(input.count) bytes exceeds uInt")
        precondition(
            (1...min(output.count, Int(UInt32.max))).contains(room), "inflate room \(room) for \(output.count) bytes")
        let stream = self.stream
        // SAFETY: `inBuffer` and `outBuffer` are valid only inside these closures, so every pointer
        // zlib is given into them is cleared before the closures return; `stream` is this inflater's
        // z_stream, live until deinit, and `self` is alive for the whole call.
        return input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                // SAFETY: zlib reads at most avail_in bytes from next_in and never writes through it
                // (the mutable cast is zlib's API, not a write); both buffers outlive this call, and
                // the pointers are cleared before the closures return.
                stream.pointee.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
                stream.pointee.avail_in = UInt32(inBuffer.count)
                // SAFETY: zlib writes at most avail_out bytes from next_out; room <= outBuffer.count.
                stream.pointee.next_out = outBuffer.baseAddress
                stream.pointee.avail_out = UInt32(room)
                // SAFETY: `stream` is a live inflate stream with valid next_in/next_out set above.
                let result = CWickZlib.inflate(stream, Z_NO_FLUSH)
                let step = DecompressionStep(
                    consumed: inBuffer.count - Int(stream.pointee.avail_in),
                    produced: room - Int(stream.pointee.avail_out),
                    status: Self.status(of: result, message: stream.pointee.msg)
                )
                // SAFETY: `stream` is still live; clearing next_in/next_out here leaves zlib no pointer
                // into `input` or `output` once their buffers are released, so a later call cannot
                // touch them.
                stream.pointee.next_in = nil
                stream.pointee.avail_in = 0
                stream.pointee.next_out = nil
                stream.pointee.avail_out = 0
                return step
            }
        }
    }

    /// Classifies zlib's result; for Z_DATA_ERROR the message tells a header fault, a checksum fault
    /// and a data fault apart (these strings have been stable in zlib since 1.2.0).
    private static func status(of result: Int32, message: UnsafeMutablePointer<CChar>?) -> DecompressionStep.Status {
        switch result {
        case Z_OK: return .progressed
        case Z_STREAM_END: return .streamEnd
        case Z_BUF_ERROR: return .needsInput
        case Z_NEED_DICT: return .invalidHeader
        case Z_MEM_ERROR: return .outOfMemory
        case Z_DATA_ERROR:
            // SAFETY: on Z_DATA_ERROR zlib sets msg to one of its static C strings (or leaves NULL).
            let text = message.map { String(cString: $0) } ?? ""
            switch text {
            case "incorrect header check", "unknown compression method", "invalid window size",
                "unknown header flags set", "header crc mismatch":
                return .invalidHeader
            case "incorrect data check", "incorrect length check":
                return .checksumMismatch
            default:
                return .invalidData
            }
        default:
            preconditionFailure("inflate returned \(result) on a live stream with valid buffers")
        }
    }
}
