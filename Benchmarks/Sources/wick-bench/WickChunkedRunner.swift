// Wick's chunked decoding: a whole chunked response through HTTPResponseParser, read by read.
import WickCore
import WickHTTP1

/// Parses a chunked response delivered in reads, reusing one parser; body bytes are handed out
/// as ranges of the read buffer (Wick never copies them).
final class WickChunkedRunner {
    let reads: ReadSimulation
    let bodyCount: Int
    private var parser = HTTPResponseParser()

    init(reads: ReadSimulation, bodyCount: Int) {
        self.reads = reads
        self.bodyCount = bodyCount
    }

    /// Parses the response `iterations` times; returns the body bytes seen.
    func run(_ iterations: Int) -> Int {
        var total = 0
        for _ in 0..<iterations {
            let decoded = Self.parseOnce(&parser, reads)
            precondition(decoded == bodyCount, "Wick decoded \(decoded) body bytes, not \(bodyCount)")
            total &+= decoded
        }
        return total
    }

    private static func parseOnce(_ parser: inout HTTPResponseParser, _ reads: ReadSimulation) -> Int {
        var decoded = 0
        var offset = 0
        parser.expectResponse(to: .get)
        do {
            while true {
                let count = offset < reads.message.count ? reads.read(at: offset) : 0
                offset += count
                var input = UnsafeRawBufferPointer(rebasing: reads.readBuffer[0..<count])
                while true {
                    let step = try parser.parse(input)
                    switch step.event {
                    case .needMoreData:
                        precondition(count > 0, "the parser wants more than the whole message")
                    case .head, .trailers, .informationalHead:
                        break
                    case .body(let range):
                        decoded &+= range.count
                    case .end:
                        return decoded
                    case .switchingProtocols:
                        fatalError("unexpected switchingProtocols")
                    }
                    if case .needMoreData = step.event { break }
                    input = UnsafeRawBufferPointer(rebasing: input[step.consumed...])
                }
            }
        } catch {
            fatalError("Wick's parser rejected the chunked benchmark input: \(error)")
        }
    }
}
