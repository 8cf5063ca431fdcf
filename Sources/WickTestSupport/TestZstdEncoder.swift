// Test helper: zstd's streaming compressor, to make zstd test bodies (and bombs) inside tests.
internal import CWickZstd

/// A zstd compression context for building compressed test bodies; frees it in deinit.
///
/// Not Sendable: one test owns it.
public final class TestZstdEncoder {
    private let context: OpaquePointer
    private var output = [UInt8](repeating: 0, count: 64 * 1024)

    /// A compressor at `level` with a window of `2^windowLog` bytes, and a content checksum at
    /// the end of each frame when `checksum` is set.
    public init(level: Int32 = 3, windowLog: Int32 = 20, checksum: Bool = true) {
        guard let context = ZSTD_createCCtx() else { preconditionFailure("ZSTD_createCCtx failed") }
        for (parameter, value) in [
            (ZSTD_c_compressionLevel, level), (ZSTD_c_windowLog, windowLog), (ZSTD_c_checksumFlag, checksum ? 1 : 0),
        ] {
            precondition(ZSTD_isError(ZSTD_CCtx_setParameter(context, parameter, value)) == 0, "\(parameter)")
        }
        self.context = context
    }

    deinit {
        ZSTD_freeCCtx(context)
    }

    /// Compresses `input`, handing each piece of output to `sink`; with `finish`, ends the frame
    /// (the next call starts another).
    public func compress(_ input: [UInt8], finish: Bool, into sink: ([UInt8]) -> Void) {
        let directive = finish ? ZSTD_e_end : ZSTD_e_continue
        let context = self.context
        let outputCount = output.count
        // SAFETY: zstd reads at most `size` bytes of `inBuffer` and writes at most `size` bytes of
        // `outBuffer` through the buffer descriptors, which are locals of these closures.
        input.withUnsafeBufferPointer { inBuffer in
            var source = ZSTD_inBuffer(src: inBuffer.baseAddress, size: inBuffer.count, pos: 0)
            while true {
                var remaining = 0
                let produced: [UInt8] = output.withUnsafeMutableBufferPointer { outBuffer in
                    var destination = ZSTD_outBuffer(dst: outBuffer.baseAddress, size: outputCount, pos: 0)
                    remaining = ZSTD_compressStream2(context, &destination, &source, directive)
                    precondition(ZSTD_isError(remaining) == 0, "ZSTD_compressStream2 failed")
                    return Array(outBuffer.prefix(destination.pos))
                }
                if !produced.isEmpty { sink(produced) }
                let done = finish ? remaining == 0 : source.pos == source.size && produced.count < outputCount
                if done { return }
            }
        }
    }

    /// `input` as one zstd frame.
    public static func compress(_ input: [UInt8], level: Int32 = 3, windowLog: Int32 = 20) -> [UInt8] {
        var result: [UInt8] = []
        TestZstdEncoder(level: level, windowLog: windowLog).compress(input, finish: true) { result += $0 }
        return result
    }
}
