// DownloadResponse's description and debugDescription, laid out as Alamofire's.
import Foundation
import Testing
import Wick

struct DownloadResponseDescriptionTests {
    @Test func theDebugDescriptionShowsTheExchangeTheFileAndTheResumeData() {
        let response = DownloadResponse<URL, WickError>(
            request: HTTPRequest(method: .get, url: URL(string: "http://example.com/f")!, headers: ["B": "2"], body: nil),
            response: HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], version: .http1_1),
            fileURL: URL(fileURLWithPath: "/tmp/f"), resumeData: Data(count: 12), metrics: nil,
            serializationDuration: .milliseconds(2), result: .success(URL(fileURLWithPath: "/tmp/f")))
        #expect(
            response.debugDescription == """
                [Request]: GET http://example.com/f
                    [Headers]:
                        B: 2
                    [Body]: None
                [Response]:
                    [Status Code]: 200
                    [Headers]:
                        Content-Type: text/plain
                [File URL]: /tmp/f
                [Resume Data]: 12 bytes
                [Network Duration]: None
                [Serialization Duration]: 0.002 seconds
                [Result]: success(file:///tmp/f)
                """)
        let failed = DownloadResponse<URL, WickError>(
            request: nil, response: nil, fileURL: nil, resumeData: nil, metrics: nil, result: .failure(.sessionInvalidated))
        #expect(failed.debugDescription == "[Request]: None\n[Result]: failure(the session was shut down)")
        #expect(failed.description == "failure(the session was shut down)")
    }
}
