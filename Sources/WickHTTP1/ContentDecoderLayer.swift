// One coding layer of a content decoder: gzip (multi-member) or deflate (zlib-wrapped or raw).
//
// Rules this layer enforces, whatever the cut of its input:
// - gzip: members follow each other back to back (RFC 1952 §2.2) and decode as one stream; after
//   the last member only the end of the body may follow. An empty body decodes to nothing.
// - deflate: RFC 9110 §8.4.1.2 says zlib-wrapped, some servers send raw deflate; the first two
//   bytes decide: CM = 8, CINFO <= 7 and (CMF * 256 + FLG) % 31 == 0 mean zlib, anything else raw.
// - the end of the body before the end of the stream is `truncated`.
// zlib emits all the output it can on every call, so `finish()` only checks the state.

/// Decodes one coding, handing out its output in pieces of at most the output buffer's size.
final class ContentDecoderLayer {
    private enum State {
        /// deflate: waiting for the two bytes that tell zlib from raw (the first, once seen).
        case sniffingDeflate(first: UInt8?)
        /// gzip: waiting for the next member's magic `1f 8b`; `seen` bytes of it matched.
        case awaitingMember(seen: Int)
        /// zlib is inside a stream.
        case inflating
        /// A zlib or raw stream ended; nothing may follow.
        case ended
    }

    private static let gzipMagic: [UInt8] = [0x1F, 0x8B]

    private(set) var coding: ContentCoding
    private var state: State
    private var membersEnded = 0
    private let inflater: Inflater
    private var output: [UInt8]
    private var maximumOutput: Int

    /// Bytes of this layer's input taken so far.
    private(set) var encodedCount = 0
    /// Bytes this layer has produced so far.
    private(set) var decodedCount = 0

    /// A layer for `coding` (gzip or deflate) with output pieces of at most `pieceSize` bytes and
    /// at most `maximumOutput` bytes in all.
    init(coding: ContentCoding, pieceSize: Int, maximumOutput: Int) throws(ContentDecodingError) {
        inflater = try Inflater(format: .gzip)
        output = [UInt8](repeating: 0, count: pieceSize)
        self.maximumOutput = maximumOutput
        self.coding = coding
        state = Self.initialState(for: coding)
    }

    /// Makes the layer ready for a new body in `coding`, keeping zlib's allocations.
    func reset(coding: ContentCoding, pieceSize: Int, maximumOutput: Int) {
        if output.count != pieceSize { output = [UInt8](repeating: 0, count: pieceSize) }
        self.maximumOutput = maximumOutput
        self.coding = coding
        state = Self.initialState(for: coding)
        membersEnded = 0
        encodedCount = 0
        decodedCount = 0
    }

    private static func initialState(for coding: ContentCoding) -> State {
        switch coding {
        case .gzip: .awaitingMember(seen: 0)
        case .deflate: .sniffingDeflate(first: nil)
        case .identity, .unsupported: preconditionFailure("no decoding layer for \(coding)")
        }
    }

    /// Decodes `input`, handing each piece of output to `emit` after counting it in `decodedCount`.
    /// - Throws: the coding's `ContentDecodingError`s, `.decodedSizeLimitExceeded` once output
    ///   reaches past `maximumOutput` (after handing out exactly `maximumOutput` bytes), and
    ///   whatever `emit` throws.
    func feed(
        _ input: ArraySlice<UInt8>,
        emit: (ArraySlice<UInt8>) throws(ContentDecodingError) -> Void
    ) throws(ContentDecodingError) {
        var rest = input
        while !rest.isEmpty {
            switch state {
            case .sniffingDeflate(first: nil):
                state = .sniffingDeflate(first: rest.removeFirst())
                encodedCount += 1
            case .sniffingDeflate(first: let first?):
                let second = rest[rest.startIndex]
                inflater.reset(format: Self.looksLikeZlibHeader(first, second) ? .zlib : .raw)
                state = .inflating
                // The first byte was counted when it was taken; replay it to zlib.
                if let after = try inflate([first][...], counting: false, emit: emit) {
                    preconditionFailure("deflate stream ended after one byte with \(after.count) left")
                }
            case .awaitingMember(let seen):
                let byte = rest[rest.startIndex]
                guard byte == Self.gzipMagic[seen] else {
                    throw membersEnded == 0
                        ? .invalidHeader(coding: coding, offset: encodedCount)
                        : .trailingGarbage(coding: coding, offset: encodedCount)
                }
                rest.removeFirst()
                encodedCount += 1
                if seen + 1 < Self.gzipMagic.count {
                    state = .awaitingMember(seen: seen + 1)
                } else {
                    inflater.reset(format: .gzip)
                    state = .inflating
                    if let after = try inflate(Self.gzipMagic[...], counting: false, emit: emit) {
                        preconditionFailure("gzip member ended after its magic with \(after.count) left")
                    }
                }
            case .inflating:
                guard let after = try inflate(rest, counting: true, emit: emit) else { return }
                membersEnded += 1
                state = coding == .gzip ? .awaitingMember(seen: 0) : .ended
                rest = after
            case .ended:
                throw .trailingGarbage(coding: coding, offset: encodedCount)
            }
        }
    }

    /// Checks that the body ended at the end of a stream.
    /// - Throws: `ContentDecodingError.truncated` if a stream (or a gzip magic) was cut short.
    func finish() throws(ContentDecodingError) {
        switch state {
        case .sniffingDeflate(first: nil), .awaitingMember(seen: 0), .ended:
            return
        case .sniffingDeflate(first: .some), .awaitingMember, .inflating:
            throw .truncated(coding: coding, offset: encodedCount)
        }
    }

    /// Feeds `input` to zlib until it is consumed or the stream ends.
    ///
    /// zlib is given room for at most one byte past `maximumOutput`, so output beyond the limit
    /// is never even produced: the byte that crosses it ends decoding.
    /// - Returns: nil if all of `input` went into the stream, or the bytes after the stream's end.
    private func inflate(
        _ input: ArraySlice<UInt8>,
        counting: Bool,
        emit: (ArraySlice<UInt8>) throws(ContentDecodingError) -> Void
    ) throws(ContentDecodingError) -> ArraySlice<UInt8>? {
        var rest = input
        while true {
            let remaining = maximumOutput - decodedCount
            let room = remaining < output.count ? remaining + 1 : output.count
            let step = inflater.inflate(rest, into: &output, room: room)
            rest = rest.dropFirst(step.consumed)
            if counting { encodedCount += step.consumed }
            if step.produced > remaining {
                if remaining > 0 {
                    decodedCount += remaining
                    try emit(output[..<remaining])
                }
                throw .decodedSizeLimitExceeded(limit: maximumOutput)
            }
            if step.produced > 0 {
                decodedCount += step.produced
                try emit(output[..<step.produced])
            }
            switch step.status {
            case .streamEnd:
                return rest
            case .progressed, .needsInput:
                // Room left and input used up: zlib has flushed everything it can.
                if rest.isEmpty && step.produced < room { return nil }
                precondition(
                    step.status == .progressed || rest.isEmpty,
                    "inflate made no progress with \(rest.count) bytes in and \(room) bytes of room"
                )
            case .invalidHeader:
                throw .invalidHeader(coding: coding, offset: encodedCount)
            case .invalidData:
                throw .invalidData(coding: coding, offset: encodedCount)
            case .checksumMismatch:
                throw .checksumMismatch(coding: coding, offset: encodedCount)
            case .outOfMemory:
                throw .outOfMemory
            }
        }
    }

    /// RFC 1950 §2.2: CM (low nibble of CMF) is 8, CINFO (high nibble) at most 7, and
    /// CMF * 256 + FLG a multiple of 31.
    static func looksLikeZlibHeader(_ cmf: UInt8, _ flg: UInt8) -> Bool {
        cmf & 0x0F == 8 && cmf >> 4 <= 7 && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0
    }
}
