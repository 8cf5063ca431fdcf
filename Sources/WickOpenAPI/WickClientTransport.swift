// An OpenAPI ClientTransport on a Session: generated clients run on Wick's pool, retries and trust.
public import FoundationEssentials
public import HTTPTypes
public import OpenAPIRuntime
public import Wick
import WickHTTPTypes

/// Runs the clients swift-openapi-generator makes on a Wick `Session`:
/// `Client(serverURL: url, transport: WickClientTransport(session: session))`. Every operation
/// is one Wick request, so the session's pool, interceptors (retries, authentication), trust
/// evaluation, event monitors (metrics, tracing) and logger apply to it.
///
/// Bodies are whole values on both sides: a request body is collected up to
/// `maximumRequestBodyBytes` before it is sent, and the response body up to the session's
/// `maximumResponseBodyBytes`. Responses of every status are returned (the generated client
/// decides what a status means); only a failure to get a response throws. Cancelling the
/// calling task cancels the request.
public struct WickClientTransport: ClientTransport {
    /// The session requests run on.
    public let session: Session
    /// The longest request body it sends; longer ones fail before anything is sent. Default: 16 MiB.
    public var maximumRequestBodyBytes: Int

    /// A transport on `session`.
    public init(session: Session, maximumRequestBodyBytes: Int = 16 << 20) {
        self.session = session
        self.maximumRequestBodyBytes = maximumRequestBodyBytes
    }

    /// Sends `request` (its path relative to `baseURL`) with `body`, and returns the response
    /// with its body (nil when empty).
    /// - Throws: `WickError.conversionFailed` when the request cannot be expressed as a Wick
    ///   request (a path that does not make a URL with `baseURL`, a body past
    ///   `maximumRequestBodyBytes`) or the response as a swift-http-types one; the request's
    ///   own `WickError` when no response arrived (`explicitlyCancelled` when the task was
    ///   cancelled).
    public func send(
        _ request: HTTPTypes.HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        let url = try Self.url(of: request, relativeTo: baseURL)
        let data = try await collect(body)
        var wick = Wick.HTTPRequest(
            method: HTTPMethod(rawValue: request.method.rawValue), url: url, headers: HTTPHeaders(request.headerFields),
            body: data)
        wick.headers.remove(name: "Content-Length")
        // Awaited directly (no hop through the session's response queue, as a callback would
        // take); the task's cancellation cancels the request.
        let response = await session.request(wick)
            .serializingResponse(using: ResponseBodyAsReceived(), automaticallyCancelling: true).response
        guard let head = response.response else {
            throw response.error ?? WickError.explicitlyCancelled
        }
        let responseBody = response.data.flatMap { $0.isEmpty ? nil : HTTPBody($0) }
        return (try HTTPTypes.HTTPResponse(head), responseBody)
    }

    /// `request`'s path and query appended to `baseURL` (whose own path is a prefix).
    /// - Throws: `WickError.conversionFailed(.invalidRequestTarget)` when they do not make an
    ///   http or https URL.
    static func url(of request: HTTPTypes.HTTPRequest, relativeTo baseURL: URL) throws(WickError) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let path = request.path ?? "/"
        guard let url = URL(string: base + (path.hasPrefix("/") ? path : "/" + path)),
            url.scheme == "http" || url.scheme == "https", url.host != nil
        else {
            throw .conversionFailed(
                reason: .invalidRequestTarget(scheme: baseURL.scheme, authority: baseURL.host, path: request.path))
        }
        return url
    }

    /// The whole of `body`, or nil when there is none or it is empty (a GET may carry no body).
    /// - Throws: `WickError.conversionFailed(.requestBodyTooLarge)` past the limit; the body's
    ///   own error when reading it fails.
    private func collect(_ body: HTTPBody?) async throws -> Data? {
        guard let body else { return nil }
        if case .known(let length) = body.length, length > maximumRequestBodyBytes {
            throw WickError.conversionFailed(reason: .requestBodyTooLarge(limit: maximumRequestBodyBytes))
        }
        var collected = Data()
        for try await chunk in body {
            guard collected.count + chunk.count <= maximumRequestBodyBytes else {
                throw WickError.conversionFailed(reason: .requestBodyTooLarge(limit: maximumRequestBodyBytes))
            }
            collected.append(contentsOf: chunk)
        }
        return collected.isEmpty ? nil : collected
    }
}
