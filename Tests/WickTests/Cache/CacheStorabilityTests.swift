// RFC 9111 §3: which responses a private cache stores, and which fields it keeps (§3.1) and
// updates from a 304 (§3.2, §4.3.4).
import Foundation
import Testing
@testable import Wick

struct CacheStorabilityTests {
    static func mayStore(
        _ method: HTTPMethod = .get, request: HTTPHeaders = [:], status: Int = 200, response: HTTPHeaders
    ) -> Bool {
        CacheStorability.mayStore(method: method, requestHeaders: request, status: status, responseHeaders: response)
    }

    @Test func explicitFreshnessOrAHeuristicStatusMakesAResponseStorable() {
        // §3, last item: max-age, Expires, public, private, or a heuristically cacheable status.
        #expect(Self.mayStore(status: 500, response: ["Cache-Control": "max-age=5"]))
        #expect(Self.mayStore(status: 500, response: ["Expires": "Thu, 01 Jan 2037 00:00:00 GMT"]))
        #expect(Self.mayStore(status: 302, response: ["Cache-Control": "public"]))
        #expect(Self.mayStore(status: 500, response: ["Cache-Control": "private"]))
        for status in [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501] {
            #expect(Self.mayStore(status: status, response: [:]), "\(status)")
        }
        for status in [201, 302, 303, 307, 400, 500, 503] {
            #expect(!Self.mayStore(status: status, response: [:]), "\(status)")
        }
    }

    @Test func onlyGET() {
        // §3: "the request method is understood by the cache"; Wick's cache stores GET only.
        for method in [HTTPMethod.post, .put, .delete, .head, .patch] {
            #expect(!Self.mayStore(method, response: ["Cache-Control": "max-age=60"]), "\(method)")
        }
    }

    @Test func nothingAnsweringARangeRequestIsStored() {
        // §3.3: a 206 is a part, never stored as the whole; a 416 or even a whole 200 to a
        // request with Range stays out too (the cache neither stores nor answers ranges).
        let fresh: HTTPHeaders = ["Cache-Control": "max-age=60"]
        #expect(!Self.mayStore(status: 206, response: fresh))
        for status in [200, 206, 416] {
            #expect(!Self.mayStore(request: ["Range": "bytes=0-99"], status: status, response: fresh), "\(status)")
        }
        #expect(Self.mayStore(status: 200, response: fresh))
    }

    @Test func noStoreInTheRequestOrTheResponse() {
        // §5.2.1.5 and §5.2.2.5.
        #expect(!Self.mayStore(response: ["Cache-Control": "max-age=60, no-store"]))
        #expect(!Self.mayStore(request: ["Cache-Control": "no-store"], response: ["Cache-Control": "max-age=60"]))
    }

    @Test func privateAndAuthorizationAreFineForAPrivateCache() {
        // §5.2.2.7 (private forbids shared caches only) and §3.5 (Authorization restricts shared caches).
        #expect(Self.mayStore(request: ["Authorization": "Bearer x"], response: ["Cache-Control": "private, max-age=60"]))
        #expect(Self.mayStore(request: ["Authorization": "Bearer x"], response: [:]))
    }

    @Test func partialNotModifiedInterimAndVaryStarAreNotStored() {
        // §3.3 (206 is not combined here), 304 is not a full response, 1xx are not final, and
        // Vary: * never matches (§4.1).
        #expect(!Self.mayStore(status: 206, response: ["Cache-Control": "max-age=60"]))
        #expect(!Self.mayStore(status: 304, response: ["Cache-Control": "max-age=60"]))
        #expect(!Self.mayStore(status: 100, response: ["Cache-Control": "max-age=60"]))
        #expect(!Self.mayStore(response: ["Cache-Control": "max-age=60", "Vary": "Accept, *"]))
    }

    @Test func noCacheResponsesAreStoredToBeValidated() {
        // §5.2.2.4: no-cache does not forbid storing, only reuse without validation.
        #expect(Self.mayStore(response: ["Cache-Control": "no-cache"]))
    }

    @Test func hopByHopFieldsAreNotStored() {
        // §3.1: Connection, the fields it lists, and the proxy authentication fields.
        let kept = CacheStorability.storedFields(of: [
            "Connection": "close, X-Hop", "X-Hop": "1", "Keep-Alive": "timeout=5", "Transfer-Encoding": "chunked",
            "Proxy-Authenticate": "Basic", "ETag": "\"a\"", "Content-Type": "text/plain",
        ])
        #expect(kept.map(\.name) == ["ETag", "Content-Type"])
    }

    @Test func a304ReplacesFieldsButNotContentLength() {
        // §3.2: each field of the 304 replaces the stored ones of that name, except
        // Content-Length and the fields §3.1 excludes; fields it lacks are kept.
        let stored: HTTPHeaders = [
            "ETag": "\"a\"", "Cache-Control": "max-age=1", "Content-Length": "5", "X-Kept": "1", "Date": "old",
        ]
        let merged = CacheStorability.updatedFields(
            stored, from: ["Cache-Control": "max-age=60", "Date": "new", "Content-Length": "0", "Connection": "keep-alive"])
        #expect(merged.value(for: "Cache-Control") == "max-age=60" && merged.value(for: "Date") == "new")
        #expect(merged.value(for: "Content-Length") == "5" && merged.value(for: "X-Kept") == "1")
        #expect(merged.value(for: "ETag") == "\"a\"" && !merged.contains(name: "Connection"))
    }
}
