// picohttpparser's chunked decoding: phr_parse_response for the head, then phr_decode_chunked
// in place on every read.
import CBenchSupport

/// Decodes a chunked response delivered in reads with picohttpparser (the decoder moves each
/// chunk's data down over the chunk framing, in place in the read buffer).
final class PicoChunkedRunner {
    let reads: ReadSimulation
    let bodyCount: Int
    private var headers = [phr_header](repeating: phr_header(), count: 100)

    init(reads: ReadSimulation, bodyCount: Int) {
        self.reads = reads
        self.bodyCount = bodyCount
    }

    /// Decodes the response `iterations` times; returns the body bytes seen.
    func run(_ iterations: Int) -> Int {
        var total = 0
        for _ in 0..<iterations {
            let decoded = decodeOnce()
            precondition(decoded == bodyCount, "picohttpparser decoded \(decoded) body bytes, not \(bodyCount)")
            total &+= decoded
        }
        return total
    }

    private func decodeOnce() -> Int {
        var decoder = phr_chunked_decoder()
        decoder.consume_trailer = 1
        var offset = 0
        var decoded = 0
        var first = true
        while offset < reads.message.count {
            let count = reads.read(at: offset)
            offset += count
            var start = 0
            let base = reads.readBuffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            if first {
                first = false
                var minorVersion: Int32 = 0
                var status: Int32 = 0
                var message: UnsafePointer<CChar>?
                var messageLength = 0
                var headerCount = headers.count
                let headLength = phr_parse_response(
                    base, count, &minorVersion, &status, &message, &messageLength, &headers, &headerCount, 0)
                precondition(headLength > 0, "the head must fit in the first read")
                start = Int(headLength)
            }
            var size = count - start
            let result = phr_decode_chunked(&decoder, base + start, &size)
            precondition(result != -1, "phr_decode_chunked rejected the input")
            decoded &+= size
            if result >= 0 { return decoded }
        }
        fatalError("phr_decode_chunked did not reach the last chunk")
    }
}
