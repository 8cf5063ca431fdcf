// The bodies the decoder benchmarks decode: JSON-like text, chunk-encoded or gzip-compressed.
import CBenchSupport
import WickTestSupport

/// Builds the decoder benchmarks' inputs deterministically.
enum BodyFixtures {
    /// `byteCount` bytes of JSON-like text (records with varying numbers and words), which gzip
    /// compresses about as much as a real API response.
    static func jsonText(byteCount: Int) -> [UInt8] {
        var generator = SeededRandom(seed: 0x5eed_b0d1)
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
        var text: [UInt8] = []
        text.reserveCapacity(byteCount + 256)
        text.append(contentsOf: Array("[\n".utf8))
        while text.count < byteCount {
            let id = generator.next() % 1_000_000
            let score = generator.next() % 10_000
            let word1 = words[Int(generator.next() % 10)]
            let word2 = words[Int(generator.next() % 10)]
            let active = generator.next() % 2 == 0
            let record =
                "{\"id\":\(id),\"name\":\"user-\(id % 9973)\",\"score\":0.\(score),\"tags\":[\"\(word1)\",\"\(word2)\"],\"active\":\(active)},\n"
            text.append(contentsOf: Array(record.utf8))
        }
        return Array(text.prefix(byteCount))
    }

    /// A complete chunked response: a small head, `body` in chunks of `chunkSize`, the last chunk.
    static func chunkedResponse(body: [UInt8], chunkSize: Int) -> [UInt8] {
        var message = Array(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunkSize, body.count)
            message.append(contentsOf: Array((String(end - offset, radix: 16) + "\r\n").utf8))
            message.append(contentsOf: body[offset..<end])
            message.append(contentsOf: Array("\r\n".utf8))
            offset = end
        }
        message.append(contentsOf: Array("0\r\n\r\n".utf8))
        return message
    }

    /// `body` compressed as a gzip stream (zlib level 6, the common server default).
    static func gzip(_ body: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        precondition(bench_deflateInit2(&stream, 6, 15 + 16) == Z_OK, "deflateInit2 failed")
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(body.count))))
        var input = body
        let produced = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                // SAFETY: zlib reads avail_in bytes from next_in and writes at most avail_out to next_out.
                stream.next_in = input.baseAddress
                stream.avail_in = UInt32(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(output.count)
                precondition(deflate(&stream, Z_FINISH) == Z_STREAM_END, "deflate did not finish")
                return output.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(produced))
    }
}
