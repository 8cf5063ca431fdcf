// MultipartBodyReader: random forms read in random pieces match encode() and the reference encoder; the end and failures stick.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

@Suite struct MultipartBodyReaderTests {
    /// Sizes that sit on the encoder's chunk boundaries, plus small ones and zero.
    static let interestingSizes = [
        0, 1, 2, 37, 1_000, MultipartFormData.chunkSize - 1, MultipartFormData.chunkSize,
        MultipartFormData.chunkSize + 1,
        3 * MultipartFormData.chunkSize + 5,
    ]

    /// Forms of 1 to 6 parts of every kind and random sizes, read in random pieces (1 byte to
    /// 100 KB), must give what `encode()`, `writeEncodedData(to:)` and the reference give.
    @Test(arguments: 1...24 as ClosedRange<UInt64>)
    func randomFormsReadInRandomPiecesMatchEncode(seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var random = SeededRandom(seed: seed)
        let form = MultipartFormData(boundary: "seed-\(seed)")
        var expected: [ExpectedPart] = []
        for index in 0..<Int.random(in: 1...6, using: &random) {
            let size =
                Bool.random(using: &random)
                ? Self.interestingSizes.randomElement(using: &random)! : Int.random(in: 0...200_000, using: &random)
            let bytes = randomBytes(size, using: &random)
            let name = "part \(index)"
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                form.append(Data(bytes), withName: name)
                expected.append(ExpectedPart(name: name, content: bytes))
            case 1:
                form.append(Data(bytes), withName: name, fileName: "n\(index).bin", mimeType: "application/x-\(index)")
                expected.append(
                    ExpectedPart(
                        name: name, fileName: "n\(index).bin", mimeType: "application/x-\(index)", content: bytes))
            case 2:
                let file = try directory.file("f\(index).png", bytes)
                form.append(file, withName: name)
                expected.append(
                    ExpectedPart(name: name, fileName: "f\(index).png", mimeType: "image/png", content: bytes))
            default:
                let largestRead = Int.random(in: 1...70_000, using: &random)
                form.append(.bytes(bytes, largestRead: largestRead), withName: name, fileName: "s\(index)")
                expected.append(ExpectedPart(name: name, fileName: "s\(index)", content: bytes))
            }
        }
        let reference = referenceBody(expected, boundary: "seed-\(seed)")
        let encoded = try form.encode()
        #expect(Array(encoded) == reference, "seed \(seed)")
        #expect(form.encodedLength == UInt64(reference.count), "seed \(seed)")

        var sizes = SeededRandom(seed: seed &* 7_919)
        let read = try drain(form.makeReader()) {
            Bool.random(using: &sizes)
                ? Int.random(in: 1...64, using: &sizes) : Int.random(in: 1...100_000, using: &sizes)
        }
        #expect(read == reference, "seed \(seed)")

        let written = directory.url.appendingPathComponent("body")
        try form.writeEncodedData(to: written)
        #expect(try Data(contentsOf: written) == encoded, "seed \(seed)")
    }

    @Test func aReaderAtItsEndKeepsReturningNothing() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(Data("x".utf8), withName: "x")
        let reader = try form.makeReader()
        let all = try reader.read(upTo: 1_000)
        #expect(all.count == Int(form.encodedLength))
        for _ in 0..<3 { #expect(try reader.read(upTo: 1_000) == []) }
    }

    @Test func readersAreIndependentOfEachOtherAndOfLaterAppends() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(.bytes(Array("one".utf8)), withName: "one")
        let first = try form.makeReader()
        let second = try form.makeReader()
        form.append(Data("two".utf8), withName: "two")
        let firstPiece = try first.read(upTo: 10)
        #expect(try second.read(upTo: 10) == firstPiece)
        let expected = referenceBody([ExpectedPart(name: "one", content: Array("one".utf8))], boundary: "b")
        #expect(try firstPiece + drain(first, alreadyRead: firstPiece.count, nextSize: { 5 }) == expected)
        #expect(try form.makeReader().contentLength > first.contentLength)
    }

    @Test func aFailedReaderKeepsThrowingTheSameError() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(.bytes(Array(repeating: 7, count: 100), failAfter: 10), withName: "s")
        let reader = try form.makeReader()
        _ = try reader.read(upTo: 50)  // the head and 3 content bytes; the stream throws once 10 are out
        for _ in 0..<2 {
            #expect {
                _ = try reader.read(upTo: 1_000)
            } throws: { error in
                guard case WickError.multipartEncodingFailed(.inputStreamReadFailed(let cause)) = error else {
                    return false
                }
                return cause is BytesStream.Failure
            }
        }
    }

    /// A 64 MiB file goes through the reader in 64 KiB pieces, then through
    /// `writeEncodedData(to:)`. Every piece is at most 64 KiB, the bytes match (CRC-32 of the
    /// expected body), and each time the process's peak resident memory (VmHWM) grows by less
    /// than 16 MiB; holding the file would add 64 MiB. (Measured alone: about 130 KiB.) The
    /// bound is loose because other tests run in the same process at the same time.
    @Test func a64MiBFileStreamsThroughTheReaderAndToAFileInFlatMemory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSize = 64 << 20
        let block = 1 << 20
        let file = directory.url.appendingPathComponent("big.bin")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        var random = SeededRandom(seed: 64)
        let pattern = randomBytes(block, using: &random)
        var fileCRC: UInt = 0
        for index in 0..<(fileSize / block) {
            var chunk = pattern
            chunk[0] = UInt8(truncatingIfNeeded: index)
            try handle.write(contentsOf: chunk)
            fileCRC = crc32(fileCRC, chunk)
        }
        try handle.close()

        let form = MultipartFormData(boundary: "big")
        form.append(file, withName: "big")
        let head = Array(
            "--big\r\nContent-Disposition: form-data; name=\"big\"; filename=\"big.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                .utf8)
        let tail = Array("\r\n--big--\r\n".utf8)
        #expect(form.encodedLength == UInt64(head.count + fileSize + tail.count))

        let peakBefore = try peakResidentKiB()
        let reader = try form.makeReader()
        var crc: UInt = 0
        var total = 0
        var largest = 0
        for _ in 0..<(fileSize / MultipartFormData.chunkSize + 10) {
            let piece = try reader.read(upTo: MultipartFormData.chunkSize)
            if piece.isEmpty { break }
            largest = max(largest, piece.count)
            total += piece.count
            crc = crc32(crc, piece)
        }
        let growthKiB = try peakResidentKiB() - peakBefore
        #expect(total == Int(form.encodedLength))
        #expect(largest == MultipartFormData.chunkSize)
        var expectedCRC = crc32(0, head)
        expectedCRC = crc32Combine(expectedCRC, fileCRC, fileSize)
        expectedCRC = crc32(expectedCRC, tail)
        #expect(crc == expectedCRC)
        #expect(growthKiB < 16 * 1024, "peak resident memory grew by \(growthKiB) KiB")

        // writeEncodedData(to:) goes through the same reader, 64 KiB at a time.
        let peakBeforeWriting = try peakResidentKiB()
        let written = directory.url.appendingPathComponent("body")
        try form.writeEncodedData(to: written)
        let writingGrowthKiB = try peakResidentKiB() - peakBeforeWriting
        #expect(writingGrowthKiB < 16 * 1024, "peak resident memory grew by \(writingGrowthKiB) KiB while writing")
        let output = try FileHandle(forReadingFrom: written)
        defer { try? output.close() }
        var writtenCRC: UInt = 0
        var writtenCount = 0
        for _ in 0..<(fileSize / block + 2) {
            guard let piece = try output.read(upToCount: block), !piece.isEmpty else { break }
            writtenCount += piece.count
            writtenCRC = crc32(writtenCRC, Array(piece))
        }
        #expect(writtenCount == Int(form.encodedLength))
        #expect(writtenCRC == expectedCRC)
    }

    /// The process's peak resident set size so far, from /proc/self/status.
    private func peakResidentKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}
