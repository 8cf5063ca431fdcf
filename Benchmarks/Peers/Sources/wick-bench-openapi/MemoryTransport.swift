// A transport that answers every call from memory: what the generated client and the OpenAPI
// runtime cost a call by themselves, with no HTTP client under them.
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime

/// Answers every request with `200 OK`, `Content-Type: application/json` and the JSON body nginx
/// sends for `echoQuery`, sending nothing.
struct MemoryTransport: ClientTransport {
    /// The body nginx's `/openapi/get` answers with.
    static let body = Array(#"{"args":{"greeting":"hello"},"url":"http://127.0.0.1/openapi/get?greeting=hello"}"#.utf8)

    /// The canned response; never throws.
    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(Self.body))
    }
}
