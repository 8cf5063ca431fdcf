// Test helper: brotli's streaming encoder, to make br test bodies (and bombs) inside tests.
internal import CWickBrotliEncoder

/// A brotli encoder state for building compressed test bodies; destroys it in deinit.
///
/// Not Sendable: one test owns it.
public final class TestBrotliEncoder {
    private let state: OpaquePointer
    private var output = [UInt8](repeating: 0, count: 64 * 1024)

    /// An encoder at `quality` (0...11) with a window of `2^windowLog` bytes (10...24).
    public init(quality: UInt32 = 5, windowLog: UInt32 = 22) {
        guard let state = BrotliEncoderCreateInstance(nil, nil, nil) else {
            preconditionFailure("BrotliEncoderCreateInstance failed")
        }
        precondition(BrotliEncoderSetParameter(state, BROTLI_PARAM_QUALITY, quality) == BROTLI_TRUE, "quality")
        precondition(BrotliEncoderSetParameter(state, BROTLI_PARAM_LGWIN, windowLog) == BROTLI_TRUE, "window")
        self.state = state
    }

    deinit {
        BrotliEncoderDestroyInstance(state)
    }

    /// Compresses `input`, handing each piece of output to `sink`; with `finish`, ends the stream.
    public func compress(_ input: [UInt8], finish: Bool, into sink: ([UInt8]) -> Void) {
        let operation = finish ? BROTLI_OPERATION_FINISH : BROTLI_OPERATION_PROCESS
        let state = self.state
        let outputCount = output.count
        // SAFETY: brotli reads at most `availableIn` bytes inside `inBuffer` and writes at most
        // `availableOut` bytes inside `outBuffer`; it is given local cursors that die with the closures.
        input.withUnsafeBufferPointer { inBuffer in
            var availableIn = inBuffer.count
            var nextIn = inBuffer.baseAddress
            while true {
                let produced: [UInt8] = output.withUnsafeMutableBufferPointer { outBuffer in
                    var availableOut = outputCount
                    var nextOut = outBuffer.baseAddress
                    let ok = BrotliEncoderCompressStream(
                        state, operation, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    precondition(ok == BROTLI_TRUE, "BrotliEncoderCompressStream failed")
                    return Array(outBuffer.prefix(outputCount - availableOut))
                }
                if !produced.isEmpty { sink(produced) }
                let done = finish ? BrotliEncoderIsFinished(state) == BROTLI_TRUE : availableIn == 0
                if done && BrotliEncoderHasMoreOutput(state) == BROTLI_FALSE { return }
            }
        }
    }

    /// `input` as one brotli stream.
    public static func compress(_ input: [UInt8], quality: UInt32 = 5) -> [UInt8] {
        var result: [UInt8] = []
        TestBrotliEncoder(quality: quality).compress(input, finish: true) { result += $0 }
        return result
    }
}
