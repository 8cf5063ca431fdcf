// RFC 9111 §4.4: the URLs an unsafe request invalidates.
import Foundation
import Testing
@testable import Wick

struct CacheInvalidationTests {
    let target = URL(string: "https://example.com/items/7")!

    @Test func theTargetAndSameOriginLocationAndContentLocation() {
        let urls = CacheInvalidation.targets(
            of: target, responseHeaders: ["Location": "/items/8", "Content-Location": "https://EXAMPLE.com:443/items/9"])
        #expect(urls.map(\.absoluteString) == [
            "https://example.com/items/7", "https://example.com/items/8", "https://EXAMPLE.com:443/items/9",
        ])
    }

    @Test func otherOriginsAreNotInvalidated() {
        // §4.4: "only if the host part is the same as in the target URI" (against denial of service).
        let urls = CacheInvalidation.targets(
            of: target,
            responseHeaders: ["Location": "https://other.example/items/8", "Content-Location": "http://example.com/items/9"])
        #expect(urls == [target])
    }
}
