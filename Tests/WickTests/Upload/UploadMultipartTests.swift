// Multipart uploads through Session.upload: the form streamed part by part, echoed by httpbin.
import Foundation
import Testing
import Wick
import WickTestSupport

@Suite(.enabled(if: TestEnvironment.wantsHTTPBin, "httpbin is started by Scripts/test"))
struct UploadMultipartTests {
    @Test func aFormWithFilesIsStreamedAndEchoedBack() async throws {
        let base = try TestEnvironment.httpbin().base
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wick-multipart-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = directory.appendingPathComponent("notes.txt")
        try Data("first file\n".utf8).write(to: notes)
        let large = directory.appendingPathComponent("large.txt")
        let largeText = String(repeating: "wick ", count: 100_000)
        try Data(largeText.utf8).write(to: large)

        let session = Session()
        let progress = Shared<TransferProgress?>(nil)
        let request = session.upload(
            multipartFormData: { form in
                form.append(Data("wick".utf8), withName: "user")
                form.append(notes, withName: "notes")
                form.append(large, withName: "large")
            }, to: "\(base)/post"
        ).uploadProgress { value in progress.withLock { $0 = value } }
        let echoed = try httpbinJSON(try await request.serializingData().value)
        #expect((echoed["form"] as? [String: String]) == ["user": "wick"])
        let files = try #require(echoed["files"] as? [String: String])
        #expect(files["notes"] == "first file\n")
        #expect(files["large"] == largeText)
        let headers = try #require(echoed["headers"] as? [String: String])
        #expect(headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=wick.boundary.") == true)
        session.responseQueue.sync {}
        let last = try #require(progress.withLock { $0 })
        #expect(last.fractionCompleted == 1 && last.totalBytes == Int64(headers["Content-Length"] ?? ""))
        await session.shutdown()
    }

    @Test func aMissingFilePartFailsBeforeSending() async throws {
        let base = try TestEnvironment.httpbin().base
        let session = Session()
        let form = MultipartFormData()
        form.append(URL(fileURLWithPath: "/tmp/wick-missing-\(UUID()).txt"), withName: "gone")
        let response = await session.upload(multipartFormData: form, to: "\(base)/post").serializingData().response
        guard case .multipartEncodingFailed? = response.error else {
            Issue.record("expected multipartEncodingFailed, got \(String(describing: response.error))")
            return
        }
        #expect(response.response == nil)
        await session.shutdown()
    }
}
