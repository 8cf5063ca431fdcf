// One coding layer of a content decoder: gzip (multi-member), deflate (zlib-wrapped or raw),
// brotli (RFC 7932) or zstd (RFC 8878, RFC 9659).
//
// Rules this layer enforces, whatever the cut of its input:
// - gzip: members follow each other back to back (RFC 1952 §2.2) and decode as one stream; after
//   the last member only the end of the body may follow.
// - deflate: RFC 9110 §8.4.1.2 says zlib-wrapped, some servers send raw deflate; the first two
//   bytes decide: CM = 8, CINFO <= 7 and (CMF * 256 + FLG) % 31 == 0 mean zlib, anything else raw.
// - br: one brotli stream; nothing may follow its last meta-block.
// - zstd: frames follow each other back to back (RFC 8878 §3.1) and decode as one stream, skippable
//   frames included; each frame's magic is checked here, so the library's legacy formats (which it
//   would detect only with the whole magic in one piece) are refused however the input is cut;
//   bytes after a frame that do not start another are trailing garbage. A frame that names a
//   dictionary (Dictionary_ID not 0, RFC 8878 §3.1.1.1.3) is an invalid header: the `zstd`
//   coding has no way to supply one, and without it the library's answer depends on the cut
//   (libzstd 1.5.4 ends such a frame early, with no output, when its header and first block
//   arrive together, and refuses it when the header arrives alone). The whole frame header,
//   through its Frame_Content_Size, is taken before the library sees any of it, so the library
//   never gets a header cut across two calls: libzstd 1.5.4 checks for its single-pass shortcut
//   when a header completes, measuring the frame from the start of the call that completed it,
//   and given a header cut before its content size it measured the bytes after the header as a
//   frame of their own (a legacy one, in the input FuzzZstdDecoder found) and ended the real
//   frame with no output and no error. The window
//   is capped at 8 MiB (RFC 9659 §3), which bounds the decoder's memory; a larger one is an invalid
//   header.
// - an empty body decodes to nothing, whatever the coding (servers label empty bodies too).
// - the end of the body before the end of the stream is `truncated`.
// Every library emits all the output it can on every call, so `finish()` only checks the state.

/// Decodes one coding, handing out its output in pieces of at most the output buffer's size.
final class ContentDecoderLayer {
    private enum State {
        /// deflate: waiting for the two bytes that tell zlib from raw (the first, once seen).
        case sniffingDeflate(first: UInt8?)
        /// gzip: waiting for the next member's magic `1f 8b`; `seen` bytes of it matched.
        case awaitingMember(seen: Int)
        /// br: waiting for the first byte of the stream.
        case awaitingStream
        /// zstd: taking the start of the next frame into `frameStart`, `seen` bytes so far: its
        /// 4-byte magic, then for a Zstandard frame the rest of its header, through its
        /// Frame_Content_Size.
        case awaitingFrame(seen: Int)
        /// The library is inside a stream.
        case inflating
        /// A deflate or brotli stream ended; nothing may follow.
        case ended
    }

    private static let gzipMagic: [UInt8] = [0x1F, 0x8B]

    private(set) var coding: ContentCoding
    private var state: State
    /// Streams (gzip members, zstd frames) that ended in the current body.
    private var membersEnded = 0
    /// The input offset just past the last stream that ended.
    private var endOfLastStream = 0
    /// The library decoding the current body; kept across bodies in the same library's codings.
    private var engine: any Decompressor
    private var output: [UInt8]
    private var maximumOutput: Int
    /// The start of a zstd frame as taken (magic, descriptor, window, dictionary ID, content
    /// size: at most 18 bytes), replayed to the library: one buffer, so a frame allocates nothing.
    private var frameStart = [UInt8](repeating: 0, count: 18)

    /// Bytes of this layer's input taken so far.
    private(set) var encodedCount = 0
    /// Bytes this layer has produced so far.
    private(set) var decodedCount = 0

    /// A layer for `coding` (gzip, deflate, br or zstd) with output pieces of at most `pieceSize`
    /// bytes and at most `maximumOutput` bytes in all.
    /// - Throws: `ContentDecodingError.outOfMemory` if the library cannot allocate its state.
    init(coding: ContentCoding, pieceSize: Int, maximumOutput: Int) throws(ContentDecodingError) {
        output = [UInt8](repeating: 0, count: pieceSize)
        self.maximumOutput = maximumOutput
        self.coding = coding
        state = Self.initialState(for: coding)
        engine = try Self.makeEngine(for: coding)
    }

    /// Makes the layer ready for a new body in `coding`, keeping the library's allocations when the
    /// coding is decoded by the same library as the last body's (brotli has no reset: its state is
    /// made anew).
    /// - Throws: `ContentDecodingError.outOfMemory` if a library cannot allocate its state.
    func reset(coding: ContentCoding, pieceSize: Int, maximumOutput: Int) throws(ContentDecodingError) {
        if output.count != pieceSize { output = [UInt8](repeating: 0, count: pieceSize) }
        self.maximumOutput = maximumOutput
        self.coding = coding
        state = Self.initialState(for: coding)
        membersEnded = 0
        endOfLastStream = 0
        encodedCount = 0
        decodedCount = 0
        switch (coding, engine) {
        case (.gzip, is Inflater), (.deflate, is Inflater):
            // zlib's stream is reset, with its format, when the body's first bytes arrive.
            break
        case (.brotli, let brotli as BrotliDecompressor):
            try brotli.restart()
        case (.zstd, let zstd as ZstdDecompressor):
            zstd.restart()
        default:
            engine = try Self.makeEngine(for: coding)
        }
    }

    /// A fresh library stream for `coding`.
    private static func makeEngine(for coding: ContentCoding) throws(ContentDecodingError) -> any Decompressor {
        switch coding {
        case .gzip, .deflate: try Inflater(format: .gzip)
        case .brotli: try BrotliDecompressor()
        case .zstd: try ZstdDecompressor()
        case .identity, .unsupported: preconditionFailure("no decoding layer for \(coding)")
        }
    }

    /// The zlib stream of a gzip or deflate body.
    private var zlib: Inflater {
        guard let inflater = engine as? Inflater else { preconditionFailure("\(coding) is not decoded by zlib") }
        return inflater
    }

    private static func initialState(for coding: ContentCoding) -> State {
        switch coding {
        case .gzip: .awaitingMember(seen: 0)
        case .deflate: .sniffingDeflate(first: nil)
        case .brotli: .awaitingStream
        case .zstd: .awaitingFrame(seen: 0)
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
                zlib.reset(format: Self.looksLikeZlibHeader(first, second) ? .zlib : .raw)
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
                    zlib.reset(format: .gzip)
                    state = .inflating
                    if let after = try inflate(Self.gzipMagic[...], counting: false, emit: emit) {
                        preconditionFailure("gzip member ended after its magic with \(after.count) left")
                    }
                }
            case .awaitingStream:
                state = .inflating
            case .awaitingFrame(let seen):
                frameStart[seen] = rest.removeFirst()
                encodedCount += 1
                let taken = seen + 1
                guard let length = try zstdFrameStartLength(taken) else {
                    state = .awaitingFrame(seen: taken)
                    continue
                }
                if length > 4 && Self.dictionaryID(inFrameStart: frameStart[..<length]) != 0 {
                    throw .invalidHeader(coding: coding, offset: encodedCount - length)
                }
                state = .inflating
                // The frame's start was counted as it was taken; replay it to zstd.
                if let after = try inflate(frameStart[..<length], counting: false, emit: emit) {
                    preconditionFailure("zstd frame ended within its header with \(after.count) left")
                }
            case .inflating:
                guard let after = try inflate(rest, counting: true, emit: emit) else { return }
                membersEnded += 1
                endOfLastStream = encodedCount
                switch coding {
                case .gzip: state = .awaitingMember(seen: 0)
                case .zstd: state = .awaitingFrame(seen: 0)
                case .deflate, .brotli: state = .ended
                case .identity, .unsupported: preconditionFailure("no decoding layer for \(coding)")
                }
                rest = after
            case .ended:
                throw .trailingGarbage(coding: coding, offset: encodedCount)
            }
        }
    }

    /// Checks that the body ended at the end of a stream.
    /// - Throws: `ContentDecodingError.truncated` if a stream (or a gzip or zstd magic) was cut short.
    func finish() throws(ContentDecodingError) {
        switch state {
        case .sniffingDeflate(first: nil), .awaitingMember(seen: 0), .awaitingStream, .awaitingFrame(seen: 0), .ended:
            return
        case .sniffingDeflate(first: .some), .awaitingMember, .awaitingFrame, .inflating:
            throw .truncated(coding: coding, offset: encodedCount)
        }
    }

    /// Feeds `input` to the coding's library until it is consumed or the stream ends.
    ///
    /// The library is given room for at most one byte past `maximumOutput`, so output beyond the
    /// limit is never even produced: the byte that crosses it ends decoding.
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
            let step = engine.decompress(rest, into: &output, room: room)
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
                // Room left and input used up: the library has flushed everything it can.
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

    /// How much of a zstd frame's start to take before handing it to the library, once `taken`
    /// bytes of it are in `frameStart`; nil while that is not known or not reached yet. A
    /// skippable frame: its magic. A Zstandard frame: its whole header (RFC 8878 §3.1.1.1:
    /// descriptor, Window_Descriptor unless Single_Segment_flag, a Dictionary_ID of 0, 1, 2 or 4
    /// bytes, a Frame_Content_Size of 0, 1, 2, 4 or 8).
    /// - Throws: `invalidHeader` (first frame) or `trailingGarbage` (after one) for a magic that
    ///   starts no frame of the `zstd` coding.
    private func zstdFrameStartLength(_ taken: Int) throws(ContentDecodingError) -> Int? {
        guard taken >= 4 else { return nil }
        let magic = frameStart[..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard Self.isZstdFrameMagic(magic) else {
            throw membersEnded == 0
                ? .invalidHeader(coding: coding, offset: encodedCount - taken)
                : .trailingGarbage(coding: coding, offset: endOfLastStream)
        }
        if magic != Self.zstdFrameMagic { return 4 }
        guard taken >= 5 else { return nil }
        let descriptor = frameStart[4]
        let length =
            Self.dictionaryIDOffset(descriptor) + Self.dictionaryIDSize(descriptor)
            + Self.frameContentSizeFieldSize(descriptor)
        return taken == length ? length : nil
    }

    /// The Dictionary_ID of a Zstandard frame's header (little-endian; 0 when the descriptor
    /// says there is none).
    private static func dictionaryID(inFrameStart start: ArraySlice<UInt8>) -> UInt32 {
        let descriptor = start[start.startIndex + 4]
        let from = start.startIndex + dictionaryIDOffset(descriptor)
        return start[from..<from + dictionaryIDSize(descriptor)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// Where a Zstandard frame's Dictionary_ID starts: after the magic, the descriptor and the
    /// Window_Descriptor, which a single-segment frame has not.
    private static func dictionaryIDOffset(_ descriptor: UInt8) -> Int {
        descriptor & 0x20 != 0 ? 5 : 6
    }

    /// The size of the Frame_Content_Size field that a frame header descriptor announces
    /// (RFC 8878 §3.1.1.1.1: by Frame_Content_Size_flag; flag 0 means 1 byte in a single-segment
    /// frame, none otherwise).
    private static func frameContentSizeFieldSize(_ descriptor: UInt8) -> Int {
        switch descriptor >> 6 {
        case 0: descriptor & 0x20 != 0 ? 1 : 0
        case 1: 2
        case 2: 4
        default: 8
        }
    }

    /// The size of the Dictionary_ID field that a frame header descriptor announces.
    private static func dictionaryIDSize(_ descriptor: UInt8) -> Int {
        switch descriptor & 3 {
        case 0: 0
        case 1: 1
        case 2: 2
        default: 4
        }
    }

    /// RFC 8878 §3.1.1: the magic number of a Zstandard frame (little-endian).
    static let zstdFrameMagic: UInt32 = 0xFD2F_B528

    /// RFC 8878 §3.1.1 and §3.1.2: a Zstandard frame starts with 0xFD2FB528, a skippable frame
    /// with 0x184D2A50 to 0x184D2A5F (little-endian). Anything else, the library's legacy formats
    /// included, is not the `zstd` content coding.
    static func isZstdFrameMagic(_ magic: UInt32) -> Bool {
        magic == zstdFrameMagic || magic & 0xFFFF_FFF0 == 0x184D_2A50
    }

    /// RFC 1950 §2.2: CM (low nibble of CMF) is 8, CINFO (high nibble) at most 7, and
    /// CMF * 256 + FLG a multiple of 31.
    static func looksLikeZlibHeader(_ cmf: UInt8, _ flg: UInt8) -> Bool {
        cmf & 0x0F == 8 && cmf >> 4 <= 7 && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0
    }
}
