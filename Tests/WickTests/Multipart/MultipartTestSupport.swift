// Temporary files, streams of known bytes, an independent reference encoder and reader draining, for the multipart tests.
import CWickZlib
import Foundation
import Testing
import Wick
import WickTestSupport

/// A directory of its own under the temporary directory; `remove()` deletes it with its files.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("wick-multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A new file `name` in the directory holding `contents`.
    func file(_ name: String, _ contents: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(contents).write(to: file)
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A stream over `bytes` that hands out at most `largestRead` bytes a call (to play short reads)
/// and can be told to throw once `failAfter` bytes have gone out.
struct BytesStream: MultipartByteStream {
    struct Failure: Error, Equatable {}

    let bytes: [UInt8]
    var largestRead = Int.max
    var failAfter: Int?
    var position = 0

    mutating func read(upTo maxCount: Int) throws -> [UInt8] {
        if let failAfter, position >= failAfter { throw Failure() }
        let count = min(maxCount, largestRead, bytes.count - position)
        defer { position += count }
        return Array(bytes[position..<position + count])
    }
}

extension MultipartStreamSource {
    /// A source of `bytes`, claiming `length` (the true length unless given).
    static func bytes(
        _ bytes: [UInt8], length: UInt64? = nil, largestRead: Int = .max, failAfter: Int? = nil
    ) -> MultipartStreamSource {
        MultipartStreamSource(length: length ?? UInt64(bytes.count)) {
            BytesStream(bytes: bytes, largestRead: largestRead, failAfter: failAfter)
        }
    }
}

/// `count` bytes from `random`, eight from each of its words (a byte per call kept the two
/// cooperative threads busy for seconds in debug builds).
func randomBytes(_ count: Int, using random: inout SeededRandom) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var index = 0
    while index < count {
        var word = random.next()
        for _ in 0..<min(8, count - index) {
            bytes[index] = UInt8(truncatingIfNeeded: word)
            word >>= 8
            index += 1
        }
    }
    return bytes
}

/// One part as the tests describe it, for the reference encoder.
struct ExpectedPart {
    var name: String
    var fileName: String?
    var mimeType: String?
    var content: [UInt8]
}

/// The body RFC 7578 and RFC 2046 say `parts` make with `boundary`, written out by hand here
/// (independently of Wick's code) so encoder output can be checked against it.
func referenceBody(_ parts: [ExpectedPart], boundary: String) -> [UInt8] {
    guard !parts.isEmpty else { return [] }
    var body = ""
    var bytes: [UInt8] = []
    for (position, part) in parts.enumerated() {
        body = position == 0 ? "--\(boundary)\r\n" : "\r\n--\(boundary)\r\n"
        body += "Content-Disposition: form-data; name=\"\(part.name)\""
        if let fileName = part.fileName { body += "; filename=\"\(fileName)\"" }
        body += "\r\n"
        if let mimeType = part.mimeType { body += "Content-Type: \(mimeType)\r\n" }
        body += "\r\n"
        bytes += Array(body.utf8) + part.content
    }
    return bytes + Array("\r\n--\(boundary)--\r\n".utf8)
}

/// Everything `reader` produces after the `alreadyRead` bytes it gave before, read in pieces
/// whose sizes `nextSize` picks; each piece must be exactly as long as asked for, or what is left.
func drain(_ reader: MultipartBodyReader, alreadyRead: Int = 0, nextSize: () -> Int) throws -> [UInt8] {
    var body: [UInt8] = []
    for _ in 0..<10_000_000 {
        let size = nextSize()
        let piece = try reader.read(upTo: size)
        #expect(piece.count == min(size, Int(reader.contentLength) - alreadyRead - body.count))
        if piece.isEmpty { return body }
        body += piece
    }
    Issue.record("the reader did not end")
    return body
}

/// The CRC-32 of `bytes` continuing from `crc` (zlib's, fast enough for 64 MiB in a debug build).
func crc32(_ crc: UInt, _ bytes: [UInt8]) -> UInt {
    bytes.withUnsafeBufferPointer { buffer in
        CWickZlib.crc32(crc, buffer.baseAddress, UInt32(buffer.count))
    }
}

/// The CRC-32 of `a`'s bytes followed by `length` bytes whose CRC-32 is `b`.
func crc32Combine(_ a: UInt, _ b: UInt, _ length: Int) -> UInt {
    CWickZlib.crc32_combine(a, b, off_t(length))
}

/// The `WickError.multipartEncodingFailed` reason `body` throws, or nil (recorded as an issue).
func multipartFailure(_ body: () throws -> Void) -> MultipartEncodingFailureReason? {
    do {
        try body()
        Issue.record("expected a multipart encoding failure")
    } catch WickError.multipartEncodingFailed(let reason) {
        return reason
    } catch {
        Issue.record("unexpected error \(error)")
    }
    return nil
}
