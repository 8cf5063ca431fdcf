// MultipartFormData: exact bytes, content type, content length, boundaries, escaping and the MIME table.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

@Suite struct MultipartFormDataTests {
    @Test func aDataPartAndAFilePartEncodeToTheseExactBytes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.file("hello.txt", Array("Hello, Wick!\n".utf8))
        let form = MultipartFormData(boundary: "wick.test.boundary")
        form.append(Data("value".utf8), withName: "field")
        form.append(file, withName: "upload")

        let expected =
            "--wick.test.boundary\r\n"
            + "Content-Disposition: form-data; name=\"field\"\r\n"
            + "\r\n"
            + "value\r\n"
            + "--wick.test.boundary\r\n"
            + "Content-Disposition: form-data; name=\"upload\"; filename=\"hello.txt\"\r\n"
            + "Content-Type: text/plain\r\n"
            + "\r\n"
            + "Hello, Wick!\n\r\n"
            + "--wick.test.boundary--\r\n"
        let encoded = try form.encode()
        #expect(String(decoding: encoded, as: UTF8.self) == expected)
        #expect(form.encodedLength == UInt64(expected.utf8.count))
        // Alamofire's contentLength: the parts' contents only ("value" and the file's 13 bytes).
        #expect(form.contentLength == UInt64("value".utf8.count + "Hello, Wick!\n".utf8.count))
        #expect(form.contentType == "multipart/form-data; boundary=wick.test.boundary")

        let written = directory.url.appendingPathComponent("body")
        try form.writeEncodedData(to: written)
        #expect(try Data(contentsOf: written) == encoded)
        #expect(try drain(form.makeReader(), nextSize: { 7 }) == Array(encoded))
    }

    @Test func aPartWithAFileNameAndAMIMETypeButDataCarriesBoth() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(Data([0, 1, 2]), withName: "blob", fileName: "blob.bin", mimeType: "application/x-blob")
        let expected = referenceBody(
            [ExpectedPart(name: "blob", fileName: "blob.bin", mimeType: "application/x-blob", content: [0, 1, 2])],
            boundary: "b")
        #expect(Array(try form.encode()) == expected)
    }

    @Test func anEmptyFormEncodesAsAnEmptyBody() throws {
        let form = MultipartFormData()
        #expect(form.contentLength == 0)
        #expect(try form.encode().isEmpty)
        #expect(try form.makeReader().read(upTo: 10) == [])
    }

    /// encodedLength is computed without reading: it must equal what encoding then produces.
    @Test(arguments: [
        0, 1, 100, MultipartFormData.chunkSize - 1, MultipartFormData.chunkSize, MultipartFormData.chunkSize + 1,
    ])
    func encodedLengthIsTheEncodedByteCount(size: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var random = SeededRandom(seed: UInt64(size))
        let bytes = randomBytes(size, using: &random)
        let file = try directory.file("part.json", bytes)

        let kinds: [(String, (MultipartFormData) -> Void)] = [
            ("data", { $0.append(Data(bytes), withName: "d") }),
            ("data with file name", { $0.append(Data(bytes), withName: "d", fileName: "d.bin", mimeType: "a/b") }),
            ("file", { $0.append(file, withName: "f") }),
            ("stream", { $0.append(.bytes(bytes, largestRead: 1_000), withName: "s", fileName: "s", mimeType: "x/y") }),
            (
                "all three",
                {
                    $0.append(Data(bytes), withName: "d")
                    $0.append(file, withName: "f")
                    $0.append(.bytes(bytes), withName: "s")
                }
            ),
        ]
        for (kind, build) in kinds {
            let form = MultipartFormData()
            build(form)
            let encoded = try form.encode()
            #expect(form.encodedLength == UInt64(encoded.count), "\(kind)")
            #expect(try form.makeReader().contentLength == UInt64(encoded.count), "\(kind)")
        }
    }

    @Test func theRandomBoundaryIsWickBoundaryAnd32HexDigitsAndDiffersEachTime() {
        let boundaries = (0..<50).map { _ in MultipartFormData().boundary }
        for boundary in boundaries {
            #expect(boundary.hasPrefix("wick.boundary."))
            let digits = boundary.dropFirst("wick.boundary.".count)
            #expect(digits.count == 32)
            #expect(digits.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            #expect(MultipartBoundary.isValid(boundary))
        }
        #expect(Set(boundaries).count == boundaries.count)
    }

    @Test(arguments: [
        ("a", true), (String(repeating: "x", count: MultipartBoundary.maximumLength), true),
        (String(repeating: "x", count: MultipartBoundary.maximumLength + 1), false), ("", false),
        ("Az09'+_-.", true), ("with space", false), ("semi;colon", false), ("quote\"", false),
        ("line\r\nbreak", false), ("é", false),
    ])
    func boundariesAreChecked(boundary: String, valid: Bool) {
        #expect(MultipartBoundary.isValid(boundary) == valid)
        let form = MultipartFormData(boundary: boundary)
        form.append(Data("x".utf8), withName: "x")
        if valid {
            #expect((try? form.encode()) != nil)
        } else {
            guard case .boundaryInvalid(let refused)? = multipartFailure({ _ = try form.encode() }) else {
                Issue.record("no boundaryInvalid for \(boundary.debugDescription)")
                return
            }
            #expect(refused == boundary)
        }
    }

    @Test(arguments: [
        ("plain", "plain"), ("say \"hi\"", "say %22hi%22"), ("two\r\nlines", "two%0D%0Alines"),
        ("cr\ronly", "cr%0Donly"), ("lf\nonly", "lf%0Aonly"), ("é ü 漢字", "é ü 漢字"), ("%22 stays", "%22 stays"),
        ("semi;colon=ok", "semi;colon=ok"),
    ])
    func namesAndFileNamesAreEscaped(raw: String, escaped: String) throws {
        #expect(MultipartBodyPart.escapedQuotedValue(raw) == escaped)
        let form = MultipartFormData(boundary: "b")
        form.append(Data("v".utf8), withName: raw, fileName: raw)
        let expected = referenceBody(
            [ExpectedPart(name: escaped, fileName: escaped, mimeType: nil, content: Array("v".utf8))], boundary: "b")
        #expect(Array(try form.encode()) == expected)
    }

    @Test(arguments: [
        ("jpg", "image/jpeg"), ("JPEG", "image/jpeg"), ("png", "image/png"), ("json", "application/json"),
        ("txt", "text/plain"), ("pdf", "application/pdf"), ("mp4", "video/mp4"), ("zip", "application/zip"),
        ("gz", "application/gzip"), ("svg", "image/svg+xml"), ("csv", "text/csv"), ("html", "text/html"),
        ("unknownext", "application/octet-stream"), ("", "application/octet-stream"),
    ])
    func mimeTypesComeFromTheTable(pathExtension: String, mimeType: String) {
        #expect(MultipartFormData.mimeType(forPathExtension: pathExtension) == mimeType)
    }

    @Test func everyMIMETypeInTheTableIsAValidFieldValueAndKeysAreLowercase() {
        for (pathExtension, mimeType) in MultipartFormData.mimeTypesByExtension {
            #expect(pathExtension == pathExtension.lowercased())
            #expect(MultipartBodyPart.isValidMIMEType(mimeType))
            #expect(mimeType.split(separator: "/").count == 2, "\(mimeType)")
        }
    }

    @Test func aFileURLPartTakesItsNameAndTypeFromThePath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let files = [
            ("photo.JPG", "image/jpeg"), ("README", "application/octet-stream"), ("a b%20c.json", "application/json"),
            ("archive.tar.gz", "application/gzip"),
        ]
        let form = MultipartFormData(boundary: "b")
        var expected: [ExpectedPart] = []
        for (index, (name, mimeType)) in files.enumerated() {
            let url = try directory.file(name, [UInt8(index)])
            form.append(url, withName: "f\(index)")
            expected.append(
                ExpectedPart(name: "f\(index)", fileName: name, mimeType: mimeType, content: [UInt8(index)]))
        }
        #expect(Array(try form.encode()) == referenceBody(expected, boundary: "b"))
    }

    @Test func aSymbolicLinkIsFollowedToItsFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = try directory.file("target.txt", Array("the target's bytes".utf8))
        let link = directory.url.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let form = MultipartFormData(boundary: "b")
        form.append(link, withName: "f")
        let expected = ExpectedPart(
            name: "f", fileName: "link.txt", mimeType: "text/plain", content: Array("the target's bytes".utf8))
        #expect(Array(try form.encode()) == referenceBody([expected], boundary: "b"))
    }

    @Test func aFormEncodesTheSameEachTimeStreamsIncluded() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(.bytes(Array("streamed".utf8)), withName: "s")
        let first = try form.encode()
        #expect(try form.encode() == first)
        #expect(try drain(form.makeReader(), nextSize: { 3 }) == Array(first))
    }
}
