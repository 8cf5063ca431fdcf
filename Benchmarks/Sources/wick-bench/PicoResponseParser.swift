// picohttpparser, the parser peer: Debian's libh2o-evloop build, called through CBenchSupport.
import CBenchSupport

/// Runs picohttpparser's `phr_parse_response` over one input, as a one-shot parse or as the
/// stateless re-parse it does for split input (each call sees the whole buffer so far and
/// `last_len`).
final class PicoResponseParser {
    let input: ByteInput
    private var headers = [phr_header](repeating: phr_header(), count: 100)

    /// Where the four pieces end (computed once, as for Wick).
    let fourPieceEnds: [Int]

    init(input: ByteInput) {
        self.input = input
        fourPieceEnds = input.pieceEnds(4)
    }

    /// The number of header fields picohttpparser finds in the input (Wick's cross-check).
    func fieldCount() -> Int {
        let base = input.buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
        var minorVersion: Int32 = 0
        var status: Int32 = 0
        var message: UnsafePointer<CChar>?
        var messageLength = 0
        var headerCount = headers.count
        let result = phr_parse_response(
            base, input.count, &minorVersion, &status, &message, &messageLength, &headers, &headerCount, 0)
        precondition(result == input.count, "picohttpparser returned \(result) for \(input.count) bytes")
        return headerCount
    }

    /// Parses the whole input `iterations` times; returns a checksum of the results.
    func runWhole(_ iterations: Int) -> Int {
        let base = input.buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
        let length = input.count
        var checksum = 0
        headers.withUnsafeMutableBufferPointer { headers in
            var minorVersion: Int32 = 0
            var status: Int32 = 0
            var message: UnsafePointer<CChar>?
            var messageLength = 0
            for _ in 0..<iterations {
                var headerCount = headers.count
                let result = phr_parse_response(
                    base, length, &minorVersion, &status, &message, &messageLength,
                    headers.baseAddress, &headerCount, 0)
                precondition(result == length, "picohttpparser returned \(result) for \(length) bytes")
                checksum &+= headerCount &+ Int(status)
            }
        }
        return checksum
    }

    /// Parses the input delivered in four pieces `iterations` times, re-parsing from the start
    /// with `last_len` at every piece as picohttpparser's callers do.
    func runFourPieces(_ iterations: Int) -> Int {
        let base = input.buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
        let ends = fourPieceEnds
        var checksum = 0
        headers.withUnsafeMutableBufferPointer { headers in
            var minorVersion: Int32 = 0
            var status: Int32 = 0
            var message: UnsafePointer<CChar>?
            var messageLength = 0
            for _ in 0..<iterations {
                var lastLength = 0
                for end in ends {
                    var headerCount = headers.count
                    let result = phr_parse_response(
                        base, end, &minorVersion, &status, &message, &messageLength,
                        headers.baseAddress, &headerCount, lastLength)
                    if end == input.count {
                        precondition(result == end, "picohttpparser returned \(result) for the whole head")
                        checksum &+= headerCount &+ Int(status)
                    } else {
                        precondition(result == -2, "picohttpparser returned \(result) for a partial head")
                    }
                    lastLength = end
                }
            }
        }
        return checksum
    }
}
