// Checking a stream's final response head before any of its body is handed over.
import WickCore

extension DataStreamRequest {
    /// Adds a validation of the final response head. Validations run in order on
    /// `session.rootQueue` as soon as the head arrives, while the socket is not read (the bytes
    /// already read are held back), so no reader sees a chunk of a refused response. A failure
    /// ends the request with the error (see `Validation`), closing the connection; readers get
    /// no chunk, and `.complete` (or the sequence's throw) carries the error. Add validations
    /// before the first reader, which starts the request.
    @discardableResult
    public func validate(_ validation: @escaping Validation) -> Self {
        streamState.withLock { $0.validations.append(validation) }
        return self
    }

    /// Refuses a status outside `acceptableStatusCodes`, with
    /// `responseValidationFailed(reason: .unacceptableStatusCode(code:))`.
    @discardableResult
    public func validate<Codes: Sequence<Int> & Sendable>(statusCode acceptableStatusCodes: Codes) -> Self {
        validate { _, response in
            guard acceptableStatusCodes.contains(response.statusCode) else {
                return .failure(
                    WickError.responseValidationFailed(reason: .unacceptableStatusCode(code: response.statusCode)))
            }
            return .success(())
        }
    }

    /// Refuses a `Content-Type` that is not one of `acceptableContentTypes` (`type/subtype`,
    /// `type/*` or `*/*`; parameters ignored), with `.unacceptableContentType`, and a missing
    /// one with `.missingContentType` (unless `*/*` is acceptable).
    @discardableResult
    public func validate(contentType acceptableContentTypes: [String]) -> Self {
        validate { _, response in
            Self.contentTypeCheck(response, acceptable: acceptableContentTypes)
        }
    }

    /// Alamofire's default validation: a 2xx status, and a `Content-Type` the request's
    /// `Accept` field allows (any, when it has none).
    @discardableResult
    public func validate() -> Self {
        validate(statusCode: 200..<300).validate { request, response in
            let accepted = (request?.headers.values(for: "Accept") ?? [])
                .flatMap { $0.split(separator: ",") }
                .map { String($0) }
            return Self.contentTypeCheck(response, acceptable: accepted.isEmpty ? ["*/*"] : accepted)
        }
    }

    /// Whether `response`'s media type is one of `acceptable`.
    static func contentTypeCheck(_ response: HTTPResponse, acceptable: [String]) -> Result<Void, any Error> {
        let ranges = acceptable.compactMap(MediaRange.init)
        if ranges.contains(where: { $0.type == "*" && $0.subtype == "*" }) { return .success(()) }
        guard let field = response.headers.value(for: "Content-Type"), let actual = MediaRange(field) else {
            return .failure(
                WickError.responseValidationFailed(reason: .missingContentType(acceptableContentTypes: acceptable)))
        }
        if ranges.contains(where: { $0.matches(actual) }) { return .success(()) }
        return .failure(
            WickError.responseValidationFailed(
                reason: .unacceptableContentType(acceptableContentTypes: acceptable, responseContentType: field)))
    }
}

/// A media type or range, `type/subtype` lowercased without parameters (`text/*`, `*/*`).
private struct MediaRange {
    let type: Substring
    let subtype: Substring

    init?(_ text: String) {
        let essence = text.split(separator: ";", maxSplits: 1).first ?? ""
        let parts = essence.lowercased().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        type = parts[0].drop(while: { $0 == " " || $0 == "\t" })
        subtype = parts[1].prefix(while: { $0 != " " && $0 != "\t" })
        guard !type.isEmpty, !subtype.isEmpty else { return nil }
    }

    /// Whether this range includes the media type `actual`.
    func matches(_ actual: MediaRange) -> Bool {
        (type == "*" || type == actual.type) && (subtype == "*" || subtype == actual.subtype)
    }
}
