// ZstdDecompressor: one zstd decompression context (RFC 8878). The only file in WickHTTP1 that hands
// pointers to libzstd.
//
// Invariant: `context` is created in `init`, freed exactly once in `deinit`, and never escapes this
// class. zstd keeps no pointer to our input or output between calls: each call is given
// `ZSTD_inBuffer`/`ZSTD_outBuffer` values that live on the stack for that call only. The window is
// capped at 8 MiB (`ZSTD_d_windowLogMax` 23, RFC 9659 §3), which bounds the context's memory; a
// frame asking for more is refused as an invalid header.
internal import CWickZstd

/// An owned zstd decompression context. A final class for the same reason as `Inflater`: one
/// context, freed in `deinit` on every path, kept by a layer across bodies.
///
/// Not Sendable: one connection's loop owns it.
final class ZstdDecompressor: Decompressor {
    /// log2 of the largest window accepted: 8 MiB, the most RFC 9659 lets an HTTP sender use.
    static let maximumWindowLog: Int32 = 23

    private let context: OpaquePointer

    /// A context ready for a stream, its window capped at `2^maximumWindowLog` bytes.
    /// - Throws: `ContentDecodingError.outOfMemory` if zstd cannot allocate its context.
    init() throws(ContentDecodingError) {
        guard let context = ZSTD_createDCtx() else { throw .outOfMemory }
        let result = ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, Self.maximumWindowLog)
        precondition(ZSTD_isError(result) == 0, "ZSTD_d_windowLogMax \(Self.maximumWindowLog) refused")
        self.context = context
    }

    deinit {
        ZSTD_freeDCtx(context)
    }

    /// Makes the context ready for a new stream, keeping its allocations and parameters.
    func restart() {
        let result = ZSTD_DCtx_reset(context, ZSTD_reset_session_only)
        precondition(ZSTD_isError(result) == 0, "ZSTD_DCtx_reset failed on a live context")
    }

    /// Runs one `ZSTD_decompressStream` over `input`, writing at most `room` bytes at the start of
    /// `output`. A frame's end is `streamEnd`; the next call starts the next frame.
    func decompress(_ input: ArraySlice<UInt8>, into output: inout [UInt8], room: Int) -> DecompressionStep {
        precondition((1...output.count).contains(room), "zstd room \(room) for \(output.count) bytes")
        let context = self.context
        // SAFETY: `inBuffer` and `outBuffer` are valid only inside these closures, and the
        // ZSTD_inBuffer/ZSTD_outBuffer values that point into them are locals of the closures.
        return input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                // SAFETY: zstd reads at most `size` bytes from `src` and writes at most `size`
                // (room <= outBuffer.count) bytes to `dst`; both buffers outlive the call.
                var source = ZSTD_inBuffer(src: inBuffer.baseAddress, size: inBuffer.count, pos: 0)
                var destination = ZSTD_outBuffer(dst: outBuffer.baseAddress, size: room, pos: 0)
                let result = ZSTD_decompressStream(context, &destination, &source)
                return DecompressionStep(
                    consumed: source.pos,
                    produced: destination.pos,
                    status: Self.status(of: result, consumed: source.pos, produced: destination.pos)
                )
            }
        }
    }

    /// Classifies zstd's result: 0 ends a frame, another size is a hint that more is to come, and
    /// an error code tells a header, checksum or allocation fault from corrupt data.
    private static func status(of result: Int, consumed: Int, produced: Int) -> DecompressionStep.Status {
        guard ZSTD_isError(result) != 0 else {
            if result == 0 { return .streamEnd }
            return consumed == 0 && produced == 0 ? .needsInput : .progressed
        }
        switch ZSTD_getErrorCode(result) {
        case ZSTD_error_prefix_unknown, ZSTD_error_version_unsupported, ZSTD_error_frameParameter_unsupported,
            ZSTD_error_frameParameter_windowTooLarge, ZSTD_error_dictionary_wrong:
            return .invalidHeader
        case ZSTD_error_checksum_wrong:
            return .checksumMismatch
        case ZSTD_error_memory_allocation:
            return .outOfMemory
        default:
            return .invalidData
        }
    }
}
