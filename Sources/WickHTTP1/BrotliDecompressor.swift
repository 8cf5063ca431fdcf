// BrotliDecompressor: one brotli decoder state (RFC 7932). The only file in WickHTTP1 that hands
// pointers to libbrotlidec.
//
// Invariant: `state` is created in `init` (and anew in `restart`), destroyed exactly once for each
// creation, and never escapes this class. Brotli keeps no pointer to our input or output between
// calls: it is given `next_in`/`next_out` as arguments of each call, which advances only our local
// copies of them. Its window is at most 16 MiB (large-window mode is never enabled), which bounds
// its memory.
internal import CWickBrotli

/// An owned brotli decoder state. A final class for the same reason as `Inflater`: one state,
/// released in `deinit` on every path, kept by a layer across bodies.
///
/// Not Sendable: one connection's loop owns it.
final class BrotliDecompressor: Decompressor {
    private var state: OpaquePointer

    /// A decoder ready for a stream.
    /// - Throws: `ContentDecodingError.outOfMemory` if brotli cannot allocate its state.
    init() throws(ContentDecodingError) {
        state = try Self.makeState()
    }

    deinit {
        BrotliDecoderDestroyInstance(state)
    }

    /// Makes the decoder ready for a new stream. Brotli has no reset call, so the state is made
    /// anew.
    /// - Throws: `ContentDecodingError.outOfMemory` if brotli cannot allocate its state; the old
    ///   state is kept then.
    func restart() throws(ContentDecodingError) {
        let fresh = try Self.makeState()
        BrotliDecoderDestroyInstance(state)
        state = fresh
    }

    private static func makeState() throws(ContentDecodingError) -> OpaquePointer {
        // nil allocators: brotli uses malloc and free.
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { throw .outOfMemory }
        return state
    }

    /// Runs one `BrotliDecoderDecompressStream` over `input`, writing at most `room` bytes at the
    /// start of `output`.
    func decompress(_ input: ArraySlice<UInt8>, into output: inout [UInt8], room: Int) -> DecompressionStep {
        precondition((1...output.count).contains(room), "brotli room \(room) for \(output.count) bytes")
        let state = self.state
        // SAFETY: `inBuffer` and `outBuffer` are valid only inside these closures; brotli is given
        // local copies of their base addresses, which it advances and which die with the closures;
        // `state` is this decoder's live state.
        return input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var availableIn = inBuffer.count
                var nextIn = inBuffer.baseAddress
                var availableOut = room
                var nextOut = outBuffer.baseAddress
                // SAFETY: brotli reads at most availableIn bytes from nextIn (inside `inBuffer`, or
                // none when it is empty) and writes at most availableOut <= outBuffer.count bytes
                // from nextOut; both buffers outlive the call.
                let result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                return DecompressionStep(
                    consumed: inBuffer.count - availableIn,
                    produced: room - availableOut,
                    status: Self.status(of: result, state: state)
                )
            }
        }
    }

    /// Classifies brotli's result; for an error, its code tells a window-size (header) fault and an
    /// allocation failure from corrupt data.
    private static func status(of result: BrotliDecoderResult, state: OpaquePointer) -> DecompressionStep.Status {
        switch result {
        case BROTLI_DECODER_RESULT_SUCCESS: return .streamEnd
        case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return .needsInput
        case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: return .progressed
        default:
            switch BrotliDecoderGetErrorCode(state) {
            case BROTLI_DECODER_ERROR_FORMAT_WINDOW_BITS:
                return .invalidHeader
            case BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES, BROTLI_DECODER_ERROR_ALLOC_TREE_GROUPS,
                BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MAP, BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_1,
                BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_2, BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES:
                return .outOfMemory
            default:
                return .invalidData
            }
        }
    }
}
