// Streaming decoder for a response body's Content-Encoding: stacked gzip/deflate/br/zstd layers with
// limits.
//
// Codings are listed in the order they were applied, so they are undone last first (RFC 9110
// §8.4): for `gzip, deflate` the wire bytes go through deflate's layer, its output through gzip's.
// A list with a coding Wick cannot decode is not decoded at all: the body passes through untouched
// and `decodesBody` is false, so the caller keeps the Content-Encoding header.
public import WickCore

/// Decodes a content-coded body as it arrives, in bounded memory.
///
/// Output is handed out in pieces of at most `limits.outputPieceSize` bytes as soon as the coding's
/// library (zlib, brotli, zstd) produces them; the whole body is never held. Limits are checked
/// before a piece is handed out. Each library's own state is bounded too: zlib's 32 KiB window,
/// brotli's at most 16 MiB, zstd's capped at 8 MiB.
///
/// A final class, not a noncopyable struct: each layer owns a library stream that must not move and
/// is released in `deinit` on every path (success, error, or the decoder simply being dropped),
/// and a class can live in the connection driver's state without ownership ceremony. Reuse it
/// across responses with `reset(codings:)`, which keeps the libraries' allocations.
///
/// Not Sendable: one connection's event loop owns it. After `finish()`, or after a method throws,
/// the decoder must be reset or dropped; calling `decode` or `finish` again traps.
public final class ContentDecoder {
    /// The limits this decoder enforces.
    public let limits: ContentDecoderLimits
    /// The codings to undo, in the order they were applied, identity removed.
    public private(set) var codings: [ContentCoding] = []
    /// Whether the body is decoded; false when there is nothing to decode or a coding in the list
    /// is unsupported, in which case bytes pass through untouched.
    public private(set) var decodesBody = false

    /// Every layer allocated so far; the first `activeLayerCount` serve the current body, wire
    /// side first. Kept across `reset` so that the libraries' state is reused.
    private var layers: [ContentDecoderLayer] = []
    private var activeLayerCount = 0

    /// Where the current body is: `decode` and `finish` are legal only while `decoding`.
    private enum Phase {
        case decoding
        case finished
        case failed
    }

    private var phase = Phase.decoding

    /// A decoder for the codings in the order they were applied.
    /// - Throws: `ContentDecodingError.tooManyCodings` beyond `limits.maximumCodingLayers`,
    ///   `.outOfMemory` if a library cannot allocate.
    public init(codings: [ContentCoding], limits: ContentDecoderLimits = .default) throws(ContentDecodingError) {
        self.limits = limits
        try reset(codings: codings)
    }

    /// A decoder for every `Content-Encoding` field of `headers`.
    /// - Throws: as `init(codings:limits:)`.
    public convenience init(headers: HTTPHeaders, limits: ContentDecoderLimits = .default) throws(ContentDecodingError)
    {
        try self.init(
            codings: ContentCoding.list(fromFieldValues: headers.values(for: "Content-Encoding")),
            limits: limits
        )
    }

    /// Makes the decoder ready for another body, reusing its libraries' streams.
    /// - Throws: as `init(codings:limits:)`; the decoder then stays unusable until a `reset` that
    ///   succeeds.
    public func reset(codings newCodings: [ContentCoding]) throws(ContentDecodingError) {
        // Refill the existing storage rather than `filter`: a reused decoder allocates nothing.
        codings.removeAll(keepingCapacity: true)
        for coding in newCodings where coding != .identity { codings.append(coding) }
        let applied = codings
        activeLayerCount = 0
        decodesBody = false
        phase = .failed
        guard !applied.contains(where: { if case .unsupported = $0 { true } else { false } }) else {
            phase = .decoding
            return
        }
        guard applied.count <= limits.maximumCodingLayers else {
            throw .tooManyCodings(count: applied.count, limit: limits.maximumCodingLayers)
        }
        for (index, coding) in applied.reversed().enumerated() {
            if index < layers.count {
                try layers[index].reset(
                    coding: coding,
                    pieceSize: limits.outputPieceSize,
                    maximumOutput: limits.maximumDecodedSize
                )
            } else {
                layers.append(
                    try ContentDecoderLayer(
                        coding: coding,
                        pieceSize: limits.outputPieceSize,
                        maximumOutput: limits.maximumDecodedSize
                    )
                )
            }
        }
        activeLayerCount = applied.count
        decodesBody = activeLayerCount > 0
        phase = .decoding
    }

    /// Decodes the next piece of the body, handing decoded pieces to `sink` in order. When the
    /// body is not decoded, `input` itself is handed on (if not empty).
    /// - Throws: `ContentDecodingError` for a corrupt stream or a limit. With the size limit,
    ///   exactly `maximumDecodedSize` bytes have been handed out; with the ratio, the piece that
    ///   would cross it is withheld.
    public func decode(_ input: ArraySlice<UInt8>, into sink: (ArraySlice<UInt8>) -> Void) throws(ContentDecodingError)
    {
        precondition(phase == .decoding, "decode called on a ContentDecoder in phase \(phase)")
        guard decodesBody else {
            if !input.isEmpty { sink(input) }
            return
        }
        do {
            try push(input, toLayer: 0, sink: sink)
        } catch {
            phase = .failed
            throw error
        }
    }

    /// Decodes the next piece of the body, appending the decoded bytes to `output`.
    /// - Throws: as `decode(_:into:)`; bytes decoded before the error stay appended.
    public func decode(_ input: ArraySlice<UInt8>, appendingTo output: inout [UInt8]) throws(ContentDecodingError) {
        try decode(input) { output.append(contentsOf: $0) }
    }

    /// Says the body has ended; produces no more output (every piece has been handed out already).
    /// - Throws: `ContentDecodingError.truncated` if a stream was cut short.
    public func finish() throws(ContentDecodingError) {
        precondition(phase == .decoding, "finish called on a ContentDecoder in phase \(phase)")
        phase = .failed
        for layer in layers.prefix(activeLayerCount) { try layer.finish() }
        phase = .finished
    }

    private func push(
        _ piece: ArraySlice<UInt8>,
        toLayer index: Int,
        sink: (ArraySlice<UInt8>) -> Void
    ) throws(ContentDecodingError) {
        guard index < activeLayerCount else {
            sink(piece)
            return
        }
        let layer = layers[index]
        try layer.feed(piece) { decoded throws(ContentDecodingError) in
            try checkRatio(decoded: layer.decodedCount)
            try push(decoded, toLayer: index + 1, sink: sink)
        }
    }

    /// Checks a layer's decoded total, above the floor, against the ratio to the bytes read from the
    /// wire so far. (Each layer enforces the size limit itself, capping its library's output.)
    private func checkRatio(decoded: Int) throws(ContentDecodingError) {
        guard decoded > limits.expansionRatioFloor else { return }
        let encoded = layers[0].encodedCount
        let (allowed, overflow) = encoded.multipliedReportingOverflow(by: limits.maximumExpansionRatio)
        if !overflow && decoded > allowed {
            throw .expansionRatioLimitExceeded(limit: limits.maximumExpansionRatio, encoded: encoded, decoded: decoded)
        }
    }
}

@available(*, unavailable, message: "a ContentDecoder belongs to one connection's event loop")
extension ContentDecoder: Sendable {}
