// Every way a public Wick call fails, in one enum shaped like Alamofire's AFError.
public import FoundationEssentials
public import WickTLS

/// Why a request made through `Session` failed. Every failure of the public API is one of these
/// cases; transport errors are mapped into them in one place (`WickError.init(_: TransportError)`).
///
/// `indirect`: every case's payload lives in a box, so the value is one reference. A request
/// carries an optional error through every step of its run, and a 74-byte enum was copied
/// through its value witnesses at each (about 2,000 instructions per request); an error is made
/// rarely, so the box it costs then is the cheaper side.
public indirect enum WickError: Error, Sendable, CustomStringConvertible {
    /// The `URLConvertible` gave no usable URL, for `reason`: it did not parse, it has no host,
    /// its scheme is not `http`, `https`, `http+unix`, `https+unix` or `unix`, or its Unix socket
    /// path is unusable (empty, too long, a NUL byte, bad percent-encoding). Nothing is sent.
    case invalidURL(url: String, reason: String)
    /// Building the request threw `error`, which is not a `WickError`: a `requestModifier`, or a
    /// `URLRequestConvertible`'s `asURLRequest()` (Alamofire's `createURLRequestFailed`).
    /// Nothing is sent.
    case createURLRequestFailed(error: any Error)
    /// The request was built but is not sent, for `reason` (a GET with a body), as Alamofire
    /// refuses it. Checked on the request as created and after every adapter.
    case urlRequestValidationFailed(reason: URLRequestValidationFailureReason)
    /// The request failed on its way to the server or back: see `SessionTaskFailure` for the
    /// cause (connect, TLS handshake, timeout naming its phase, connection lost with whether the
    /// server may have processed the request).
    case sessionTaskFailed(error: SessionTaskFailure)
    /// `cancel()` was called on the request, or the Swift task awaiting it was cancelled.
    case explicitlyCancelled
    /// The response arrived but its serializer refused it (for example an empty body where data
    /// was expected).
    case responseSerializationFailed(reason: ResponseSerializationFailureReason)
    /// The server's certificate chain was refused by the trust evaluator for its host (the
    /// default evaluation, a pin, revocation): no request byte was sent.
    case serverTrustEvaluationFailed(reason: ServerTrustError)
    /// The response body passed `Session.Configuration.maximumResponseBodyBytes` (counted
    /// after decoding, so a gzip bomb ends here); the connection was closed.
    case bodyTooLarge(limit: Int)
    /// The `Session` was shut down before or while the request ran.
    case sessionInvalidated
    /// A `RequestAdapter` failed with `error`; nothing was sent for that attempt.
    case requestAdaptationFailed(error: any Error)
    /// A `RequestRetrier` chose to finish the request with `retryError`
    /// (`RetryResult.doNotRetryWithError`) after the attempt failed with `originalError`.
    case requestRetryFailed(retryError: any Error, originalError: WickError)
    /// A response arrived but a validation (`DataRequest.validate`) refused it.
    case responseValidationFailed(reason: ResponseValidationFailureReason)
    /// A `ParameterEncoding` (`URLEncoding`, `JSONEncoding`) or `JSONParameterEncoder` could not
    /// encode the parameters into the request; nothing is sent.
    case parameterEncodingFailed(reason: ParameterEncodingFailureReason)
    /// A `ParameterEncoder` (`URLEncodedFormParameterEncoder`) could not encode the `Encodable`
    /// parameters into the request; nothing is sent.
    case parameterEncoderFailed(reason: ParameterEncoderFailureReason)
    /// The proxy the request would use is configured wrongly (`Session.Configuration.proxy`,
    /// or a proxy environment variable it reads: an unsupported scheme, a bad URL). Nothing is sent:
    /// the request neither goes through the proxy nor around it.
    case invalidProxyConfiguration(ProxyConfigurationError)
    /// A `MultipartFormData` could not be encoded, for `reason`: an appended part was unusable
    /// (a missing, unreadable or directory file...), or a file or stream failed while the body
    /// was being read or written.
    case multipartEncodingFailed(reason: MultipartEncodingFailureReason)
    /// A download (`Session.download`) could not put its body in a file, or could not resume:
    /// see `DownloadFailureReason` (a file not created, written or moved, a destination that
    /// exists, resume data that cannot be read).
    case downloadFailed(reason: DownloadFailureReason)
    /// A value of another library's HTTP vocabulary (swift-http-types, through `WickHTTPTypes`)
    /// cannot be expressed as Wick's, or Wick's as its: see `ConversionFailureReason` (a field
    /// name or method that is not a token, a request without the parts of a URL).
    case conversionFailed(reason: ConversionFailureReason)
    /// A `DiskResponseCache` could not use its directory: it could not be created or listed
    /// (`path`; `reason` says why, as the file system did).
    case responseCacheUnavailable(path: String, reason: String)
    /// A `FileHSTSStorage` could not read or write its file (`path`; `reason` names the call
    /// and the system's reason). Lines that do not parse are not errors: they are skipped.
    case hstsFileFailed(path: String, reason: String)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): "invalid URL: \(url): \(reason)"
        case .createURLRequestFailed(let error): "the request could not be created: \(error)"
        case .urlRequestValidationFailed(let reason): "the request is not valid: \(reason)"
        case .sessionTaskFailed(let error): "the request failed: \(error)"
        case .explicitlyCancelled: "the request was explicitly cancelled"
        case .responseSerializationFailed(let reason): "response serialization failed: \(reason)"
        case .serverTrustEvaluationFailed(let reason): "server trust evaluation failed: \(reason)"
        case .bodyTooLarge(let limit): "the response body is larger than the limit of \(limit) bytes"
        case .sessionInvalidated: "the session was shut down"
        case .requestAdaptationFailed(let error): "the request adapter failed: \(error)"
        case .requestRetryFailed(let retryError, let originalError):
            "the request retrier failed with \(retryError) after: \(originalError)"
        case .responseValidationFailed(let reason): "response validation failed: \(reason)"
        case .parameterEncodingFailed(let reason): "parameter encoding failed: \(reason)"
        case .parameterEncoderFailed(let reason): "parameter encoder failed: \(reason)"
        case .invalidProxyConfiguration(let error): "invalid proxy configuration: \(error)"
        case .multipartEncodingFailed(let reason): "multipart encoding failed: \(reason)"
        case .downloadFailed(let reason): "the download failed: \(reason)"
        case .conversionFailed(let reason): "the conversion failed: \(reason)"
        case .responseCacheUnavailable(let path, let reason): "the response cache directory \(path) cannot be used: \(reason)"
        case .hstsFileFailed(let path, let reason): "HSTS file \(path): \(reason)"
        }
    }
}

/// Why a request failed in the transport (`WickError.sessionTaskFailed`). `indirect`, as
/// `WickError` is, so that a verdict or an error holding one stays one reference.
public indirect enum SessionTaskFailure: Error, Sendable, CustomStringConvertible {
    /// No connection could be made: the name did not resolve, the connect was refused or
    /// reset, or the TLS handshake failed (not trust: that is `serverTrustEvaluationFailed`).
    /// The failure's `kind` says which.
    case connectionFailed(ConnectionFailure)
    /// The request's deadline (`Session.Configuration.requestTimeout`) or a connect or TLS
    /// timeout passed in `phase`. `lastConnectionFailure` is the origin's latest failed connect
    /// attempt when the request timed out waiting for a connection after failures, or the
    /// connect or TLS timeout itself.
    case timedOut(phase: TimeoutPhase, lastConnectionFailure: ConnectionFailure?)
    /// The connection failed during the exchange: the loss's `cause` says how (closed, reset,
    /// an invalid response...), and `requestMayHaveBeenProcessed` is false only when no request
    /// byte was written, so the server cannot have acted on it; when true, retrying a
    /// non-idempotent request may repeat its effect.
    case connectionLost(ConnectionLoss)
    /// The TLS context could not be built from the configuration (trust roots unreadable): the
    /// failure's kind is `tlsConfigurationInvalid`.
    case tlsUnavailable(ConnectionFailure)
    /// The response body's `Content-Encoding` (gzip or deflate, decoded because
    /// `Session.Configuration.automaticallyDecodesResponseBodies` is on) could not be decoded:
    /// the failure's `kind` says how (a corrupt or truncated stream, a checksum mismatch, bytes
    /// after the stream, more stacked codings than allowed, or a decompression bomb past the
    /// expansion ratio limit). The connection is closed and no partial body is delivered.
    case contentDecodingFailed(ContentDecodingFailure)
    /// The request body could not be read while it was being sent (an upload's file became
    /// unreadable, its stream failed); the connection was closed and the server got a partial
    /// body, which its framing tells it is incomplete.
    case requestBodyFailed(reason: String)
    /// A redirect chain went past `Session.Configuration.maximumRedirects`.
    case tooManyRedirects(limit: Int)
    /// A redirect Wick will not follow: its `Location` is not a usable http or https URL, or it
    /// goes from https to http while `Session.Configuration.allowsInsecureRedirects` is off.
    case invalidRedirect(location: String, reason: String)
    /// The HTTP proxy answered an https request's CONNECT with 407: it wants credentials
    /// (`credentialsSent` false) or refused the ones in the `ProxyConfiguration` (true).
    /// `proxy` is its `host:port`. Nothing reached the origin.
    case proxyAuthenticationRequired(proxy: String, credentialsSent: Bool)
    /// The HTTP proxy refused an https request's CONNECT tunnel with another status, answered
    /// with something that is not HTTP, closed before answering, or sent bytes nobody asked for;
    /// or an HTTPS proxy's own TLS session failed (its certificate refused under the proxy's
    /// trust, `serverTrustRefused`; its handshake, `tlsHandshakeFailed`; its timeout,
    /// `proxyTimedOut`), the description naming the proxy. Nothing reached the origin. The
    /// failure's `kind` says which (`proxyRefused`, `proxyInvalidResponse`, `proxyClosed`,
    /// `proxyTimedOut`, `serverTrustRefused`, `tlsHandshakeFailed`). (A plain http request through a
    /// proxy gets the proxy's answer as its response, 407 included, as curl does.)
    case proxyConnectFailed(ConnectionFailure)
    /// The SOCKS proxy (`proxy` is its `host:port`) did not open the tunnel: `failure` names
    /// the step it stopped at (method negotiation, authentication, connect) and why (the
    /// methods it refused, the RFC 1929 status, the connect reply code and its meaning, a
    /// close, a reply that breaks the protocol). Nothing reached the origin. (A SOCKS proxy
    /// that does not answer in time is `proxyConnectFailed`, kind `proxyTimedOut`.)
    case socksProxyFailed(proxy: String, failure: SOCKSFailure)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .connectionFailed(let error): "could not connect: \(error)"
        case .timedOut(let phase, let last?): "timed out \(phase); the last connection attempt failed: \(last)"
        case .timedOut(let phase, nil): "timed out \(phase)"
        case .connectionLost(let loss): "\(loss)"
        case .tlsUnavailable(let error): "TLS is unavailable: \(error)"
        case .contentDecodingFailed(let failure): "the response body could not be decoded: \(failure)"
        case .requestBodyFailed(let reason): "the request body could not be read: \(reason)"
        case .tooManyRedirects(let limit): "more than \(limit) redirects"
        case .invalidRedirect(let location, let reason): "the redirect to \(location) was not followed: \(reason)"
        case .proxyAuthenticationRequired(let proxy, false):
            "proxy \(proxy) requires authentication (407) and no credentials were configured"
        case .proxyAuthenticationRequired(let proxy, true): "proxy \(proxy) refused the credentials (407)"
        case .proxyConnectFailed(let error): "\(error)"
        case .socksProxyFailed(let proxy, let failure): "SOCKS proxy \(proxy) \(failure)"
        }
    }
}

/// Where a request was when it timed out (`SessionTaskFailure.timedOut`).
public enum TimeoutPhase: Sendable, Equatable, CustomStringConvertible {
    /// Waiting for a pooled connection, or for a new one to be connected.
    case waitingForConnection
    /// Name resolution and the TCP connect (with Happy Eyeballs) of a new connection.
    case connect
    /// A new connection's CONNECT exchange with an HTTP proxy, or its SOCKS handshake (the
    /// request's deadline passed before the proxy answered; the proxy's own limit is `proxyConnectFailed`, kind
    /// `proxyTimedOut`).
    case proxyConnect
    /// The TLS handshake of a new connection.
    case tlsHandshake
    /// The evaluation of the server's certificate chain.
    case trustEvaluation
    /// Sending the request (the request's deadline passed).
    case sendingRequest
    /// Waiting for the first response byte after the request was sent.
    case waitingForResponse
    /// Receiving the response (head or body).
    case receivingResponse
    /// No byte was sent or received for `Session.Configuration.idleTransferTimeout`.
    case idleTransfer

    /// `while waiting for a connection`, `during the TLS handshake`...
    public var description: String {
        switch self {
        case .waitingForConnection: "while waiting for a connection"
        case .connect: "during the TCP connect"
        case .proxyConnect: "while waiting for the proxy's answer to CONNECT"
        case .tlsHandshake: "during the TLS handshake"
        case .trustEvaluation: "during server trust evaluation"
        case .sendingRequest: "while sending the request"
        case .waitingForResponse: "while waiting for the response"
        case .receivingResponse: "while receiving the response"
        case .idleTransfer: "with no byte sent or received for the idle transfer timeout"
        }
    }
}

/// Why a response serializer refused a response (`WickError.responseSerializationFailed`).
public enum ResponseSerializationFailureReason: Sendable, CustomStringConvertible {
    /// The body was empty, and neither the status (`emptyResponseCodes`) nor the method
    /// (`emptyRequestMethods`) allows an empty body.
    case inputDataNilOrZeroLength
    /// A custom serializer or a `DataPreprocessor` threw an error that is not a `WickError`.
    case customSerializationFailed(error: any Error)
    /// The body is not text in `encoding` (`StringResponseSerializer`).
    case stringSerializationFailed(encoding: String.Encoding)
    /// The `DataDecoder` failed with `error` (`DecodableResponseSerializer`).
    case decodingFailed(error: any Error)
    /// The body is not JSON (`JSONResponseSerializer`): `error` names the reason and the byte.
    case jsonSerializationFailed(error: JSONParsingError)
    /// An empty body was allowed, but the type to decode, named `type`, has no empty value: it is
    /// neither `Empty` nor an `EmptyResponse`.
    case invalidEmptyResponse(type: String)
    /// A download's file at `path` could not be read (`DownloadRequest.responseData` and the
    /// other serializers that read the file).
    case inputFileReadFailed(path: String)
    /// A download serializer was given no file (Alamofire's `.inputFileNil`).
    case inputFileNil
    /// Line `line` (from 1) of a newline-delimited JSON stream could not be decoded
    /// (`DataStreamRequest.responseStreamDecodable`): `error` is the decoder's or preprocessor's.
    case lineDecodingFailed(line: Int, error: any Error)
    /// Line `line` (from 1) of a newline-delimited JSON stream is longer than `limit` bytes; it
    /// was skipped without being held.
    case lineTooLong(line: Int, limit: Int)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .inputDataNilOrZeroLength: "the response body is empty and the status or method does not allow that"
        case .customSerializationFailed(let error): "the serializer failed: \(error)"
        case .stringSerializationFailed(let encoding): "the response body is not valid text in \(encoding)"
        case .decodingFailed(let error): "the response body could not be decoded: \(error)"
        case .jsonSerializationFailed(let error): "the response body is not JSON: \(error)"
        case .invalidEmptyResponse(let type):
            "the response body is empty and \(type) has no empty value (use Empty, or conform to EmptyResponse)"
        case .inputFileReadFailed(let path): "the downloaded file \(path) could not be read"
        case .inputFileNil: "the download has no file to serialize"
        case .lineDecodingFailed(let line, let error): "line \(line) of the stream could not be decoded: \(error)"
        case .lineTooLong(let line, let limit): "line \(line) of the stream is longer than \(limit) bytes"
        }
    }
}
