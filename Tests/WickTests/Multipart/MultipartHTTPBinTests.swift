// MultipartFormData against httpbin: the encoded body, posted as Data, is parsed back into the same form fields and files.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct MultipartHTTPBinTests {
    @Test func httpbinReadsBackTheFieldsAndFilesOfAnEncodedForm() async throws {
        let base = try TestEnvironment.httpbin().base
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var random = SeededRandom(seed: 7_578)
        let image = [0xFF, 0xD8] + randomBytes(300_000, using: &random)  // not UTF-8, so httpbin echoes base64
        let text = try directory.file("notes.txt", Array("hello from a file\n".utf8))
        let json = try directory.file("data.json", Array(#"{"wick":true}"#.utf8))
        let png = try directory.file("image.png", image)

        let form = MultipartFormData()
        form.append(Data("wick".utf8), withName: "user")
        form.append(Data("é ü".utf8), withName: "accents")
        form.append(text, withName: "notes")
        form.append(json, withName: "data")
        form.append(png, withName: "image")
        form.append(
            .bytes(Array("streamed bytes".utf8), largestRead: 3), withName: "stream", fileName: "s.txt",
            mimeType: "text/plain")
        let body = try form.encode()
        #expect(UInt64(body.count) == form.encodedLength)

        let session = Session()
        let data = try await session.request(
            "\(base)/post", method: .post, headers: ["Content-Type": form.contentType], body: body
        ).serializingData().value
        let echoed = try httpbinJSON(data)
        let fields = try #require(echoed["form"] as? [String: String])
        #expect(fields == ["user": "wick", "accents": "é ü"])
        let files = try #require(echoed["files"] as? [String: String])
        #expect(files["notes"] == "hello from a file\n")
        #expect(files["data"] == #"{"wick":true}"#)
        #expect(files["stream"] == "streamed bytes")
        #expect(files["image"] == "data:image/png;base64," + Data(image).base64EncodedString())
        #expect(files.count == 4)
        let headers = try #require(echoed["headers"] as? [String: String])
        #expect(headers["Content-Type"] == form.contentType)
        #expect(headers["Content-Length"] == "\(form.encodedLength)")
        await session.shutdown()
    }
}
