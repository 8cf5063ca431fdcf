// Alamofire's names (`AF`, `AFError`, `AFDataResponse`, ...) and AFError's accessors, as code
// written for Alamofire reads them.
import Foundation
import Testing
import Wick
import WickTestSupport

struct AlamofireNamesTests {
    @Test func afIsTheDefaultSessionAndTheTypeNamesAreWicks() {
        #expect(AF === Session.default)
        let error: AFError = .explicitlyCancelled
        let result: AFResult<Int> = .failure(error)
        let response = AFDataResponse<Int>(
            request: nil, response: nil, data: nil, metrics: nil, result: result)
        #expect(response.error?.isExplicitlyCancelledError == true)
        let download: AFDownloadResponse<URL>? = nil
        #expect(download == nil)
    }

    @Test func asAFErrorKeepsWicksErrorsAndRefusesOthers() {
        struct Other: Error {}
        let wick: any Error = WickError.sessionInvalidated
        #expect(wick.asAFError?.isSessionInvalidatedError == true)
        #expect((Other() as any Error).asAFError == nil)
        #expect(Other().asAFError(or: .explicitlyCancelled).isExplicitlyCancelledError)
        #expect(wick.asAFError(orFailWith: "a Wick error").isSessionInvalidatedError)
    }

    /// Each `is…Error` is true for its own case only.
    @Test func eachKindAccessorIsTrueForItsCaseOnly() {
        struct Cause: Error {}
        let cases: [(WickError, KeyPath<WickError, Bool>)] = [
            (.invalidURL(url: "x", reason: "r"), \.isInvalidURLError),
            (.sessionTaskFailed(error: .tooManyRedirects(limit: 1)), \.isSessionTaskError),
            (.explicitlyCancelled, \.isExplicitlyCancelledError),
            (.responseSerializationFailed(reason: .inputDataNilOrZeroLength), \.isResponseSerializationError),
            (.responseValidationFailed(reason: .unacceptableStatusCode(code: 404)), \.isResponseValidationError),
            (.sessionInvalidated, \.isSessionInvalidatedError),
            (.requestAdaptationFailed(error: Cause()), \.isRequestAdaptationError),
            (.requestRetryFailed(retryError: Cause(), originalError: .explicitlyCancelled), \.isRequestRetryError),
            (.parameterEncodingFailed(reason: .missingURL), \.isParameterEncodingError),
            (.parameterEncoderFailed(reason: .missingRequiredComponent(.url)), \.isParameterEncoderError),
            (.multipartEncodingFailed(reason: .boundaryInvalid(boundary: "")), \.isMultipartEncodingError),
            (.downloadFailed(reason: .destinationExists(path: "/x")), \.isDownloadError),
        ]
        for (error, _) in cases {
            let trueOnes = cases.filter { error[keyPath: $0.1] }.count
            #expect(trueOnes == 1, "\(error): \(trueOnes) accessors are true")
        }
    }

    @Test func theValuesAFailureCarriesReadAsAlamofiresDo() {
        struct Cause: Error, Equatable {}
        #expect(WickError.responseValidationFailed(reason: .unacceptableStatusCode(code: 418)).responseCode == 418)
        #expect(WickError.explicitlyCancelled.responseCode == nil)
        let contentType = WickError.responseValidationFailed(
            reason: .unacceptableContentType(acceptableContentTypes: ["application/json"], responseContentType: "text/html"))
        #expect(contentType.acceptableContentTypes == ["application/json"])
        #expect(contentType.responseContentType == "text/html")
        #expect(
            WickError.responseSerializationFailed(reason: .stringSerializationFailed(encoding: .ascii))
                .failedStringEncoding == .ascii)
        #expect(WickError.invalidURL(url: "http://[", reason: "r").urlConvertible as? String == "http://[")
        #expect(WickError.requestAdaptationFailed(error: Cause()).underlyingError as? Cause == Cause())
        #expect(
            WickError.responseSerializationFailed(reason: .decodingFailed(error: Cause())).underlyingError as? Cause
                == Cause())
        #expect(WickError.explicitlyCancelled.underlyingError == nil)
        #expect(WickError.downloadFailed(reason: .destinationExists(path: "/x")).isDownloadedFileMoveError)
        #expect(!WickError.downloadFailed(reason: .invalidResumeData(reason: "r")).isDownloadedFileMoveError)
    }

    /// A refused connect is retried with backoff until the request's deadline (as
    /// async-http-client does); the timeout then carries the last refusal underneath.
    @Test func aRefusedConnectionIsASessionTaskErrorWithItsCauseUnderneath() async throws {
        // Port 1 on loopback: nothing listens (the tests' convention for a refused connect).
        let session = makeSession { $0.requestTimeout = .milliseconds(500) }
        let result = await session.request("http://127.0.0.1:1/").serializingData().result
        guard case .failure(let error) = result else {
            Issue.record("expected a refusal, got \(result)")
            return
        }
        #expect(error.isSessionTaskError && error.isTimeoutError)
        #expect((error.underlyingError as? ConnectionFailure)?.kind == .refused)
        await session.shutdown()
    }
}

struct WaitsForConnectivityTests {
    /// curl's and URLSession's default: a refused connect fails the request at once.
    @Test func withoutWaitingARefusedConnectFailsAtOnce() async {
        let session = makeSession {
            $0.waitsForConnectivity = false
            $0.requestTimeout = .seconds(30)
        }
        let started = ContinuousClock.now
        let result = await session.request("http://127.0.0.1:1/").serializingData().result
        guard case .failure(.sessionTaskFailed(.connectionFailed(let failure))) = result else {
            Issue.record("expected connectionFailed, got \(result)")
            return
        }
        #expect(failure.kind == .refused)
        #expect(ContinuousClock.now - started < .seconds(20), "at once, not at the 30 s deadline")
        await session.shutdown()
    }
}
