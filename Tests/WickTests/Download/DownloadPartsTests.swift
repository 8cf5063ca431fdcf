// The download's pure parts: Content-Range, suggested file names, resume data, progress values.
import Foundation
import Testing

@testable import Wick

struct DownloadPartsTests {
    @Test(
        arguments: [
            ("bytes 0-99/100", 0...99, 100),
            ("bytes 5-9/*", 5...9, nil),
            ("  bytes 10-10/11 ", 10...10, 11),
            ("BYTES 1-2/3", 1...2, 3),
        ] as [(String, ClosedRange<Int64>, Int64?)])
    func rangesParse(value: String, range: ClosedRange<Int64>, complete: Int64?) {
        let parsed = ContentRange(value)
        #expect(parsed?.range == range && parsed?.completeLength == complete)
    }

    @Test func anUnsatisfiedRangeNamesTheLength() throws {
        let parsed = try #require(ContentRange("bytes */1048576"))
        #expect(parsed.range == nil && parsed.completeLength == 1_048_576)
    }

    @Test(arguments: [
        "", "bytes", "bytes */*", "items 0-1/2", "bytes 5-4/10", "bytes 0-10/10", "bytes -1-2/3", "bytes 0-1",
        "bytes 0-1/2/3", "bytes 1234567890123456789-1234567890123456790/*", "bytes a-b/c",
    ])
    func malformedRangesAreRefused(value: String) {
        #expect(ContentRange(value) == nil)
    }

    @Test func theSuggestedNameComesFromContentDispositionThenTheURL() throws {
        func head(_ disposition: String?) -> HTTPResponse {
            var headers = HTTPHeaders()
            if let disposition { headers.add(name: "Content-Disposition", value: disposition) }
            return HTTPResponse(status: .ok, headers: headers, version: .http1_1)
        }
        let url = URL(string: "http://example.com/files/report.pdf?x=1")
        #expect(
            DownloadRequest.suggestedFilename(head(#"attachment; filename="q3 sales.csv""#), requestURL: url)
                == "q3 sales.csv")
        #expect(
            DownloadRequest.suggestedFilename(head("attachment; filename=plain.txt"), requestURL: url) == "plain.txt")
        #expect(
            DownloadRequest.suggestedFilename(head(#"attachment; filename="../../etc/passwd""#), requestURL: url)
                == "passwd")
        #expect(DownloadRequest.suggestedFilename(head(#"attachment; filename="..""#), requestURL: url) == "report.pdf")
        #expect(DownloadRequest.suggestedFilename(head(nil), requestURL: url) == "report.pdf")
        #expect(
            DownloadRequest.suggestedFilename(head(nil), requestURL: URL(string: "http://example.com/")) == "download")
        #expect(DownloadRequest.suggestedFilename(head(nil), requestURL: nil) == "download")
    }

    @Test func resumeDataRoundTripsAndNamesTheRequest() throws {
        let data = DownloadResumeData(
            url: "http://example.com/a", method: "GET", headers: [["Accept", "*/*"]], temporaryFilePath: "/tmp/x",
            bytesOnDisk: 42, entityTag: "\"t\"", lastModified: nil)
        let decoded = try DownloadResumeData.decode(data.encoded())
        #expect(decoded == data)
        let request = try decoded.request()
        #expect(request.method == .get && request.url.absoluteString == "http://example.com/a")
        #expect(request.headers.value(for: "Accept") == "*/*")
    }

    @Test(arguments: [
        #"{"version":1,"url":"http://h/","method":"GET","headers":[],"temporaryFilePath":"/t","bytesOnDisk":1}"#,
        #"{"version":1,"url":"http://h/","method":"GET","headers":[],"temporaryFilePath":"t","bytesOnDisk":1,"entityTag":"\"e\""}"#,
        #"{"version":1,"url":"http://h/","method":"GET","headers":[],"temporaryFilePath":"/t","bytesOnDisk":-1,"entityTag":"\"e\""}"#,
        #"{"version":1,"url":"http://h/","method":"GET","headers":[["A"]],"temporaryFilePath":"/t","bytesOnDisk":1,"entityTag":"\"e\""}"#,
        #"{"version":9,"url":"http://h/","method":"GET","headers":[],"temporaryFilePath":"/t","bytesOnDisk":1,"entityTag":"\"e\""}"#,
        #"[1,2]"#,
    ])
    func unusableResumeDataIsRefused(json: String) {
        #expect(throws: DownloadFailureReason.self) { try DownloadResumeData.decode(Data(json.utf8)) }
    }

    @Test func aWeakEntityTagIsNotAValidator() {
        let weak = DownloadValidators(HTTPHeaders([HTTPHeader(name: "ETag", value: "W/\"x\"")]))
        #expect(weak.isEmpty)
        let both = DownloadValidators(
            HTTPHeaders([HTTPHeader(name: "ETag", value: "\"x\""), HTTPHeader(name: "Last-Modified", value: "d")]))
        #expect(both == DownloadValidators(entityTag: "\"x\"", lastModified: "d"))
    }

    @Test func progressFractions() {
        #expect(TransferProgress(completedBytes: 5, totalBytes: 10).fractionCompleted == 0.5)
        #expect(TransferProgress(completedBytes: 5, totalBytes: nil).fractionCompleted == 0)
        #expect(TransferProgress(completedBytes: 0, totalBytes: 0).fractionCompleted == 1)
        #expect(TransferProgress(completedBytes: 10, totalBytes: 10).isFinished)
        #expect(!TransferProgress(completedBytes: 10, totalBytes: nil).isFinished)
        #expect("\(TransferProgress(completedBytes: 1, totalBytes: 2))" == "1 of 2 bytes")
    }
}
