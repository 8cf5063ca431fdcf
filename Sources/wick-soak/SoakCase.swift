// One request of the soak: where it goes, what it sends, what must come back, which fault it meets.
import Foundation
import Wick

/// One planned request and the answer that counts as right.
struct SoakCase: Sendable {
    /// Which server answers.
    enum Server: String, Sendable {
        case nginxHTTP = "nginx http"
        case nginxHTTPS = "nginx https"
        case fault = "fault server"
    }

    /// Its unique id, sent as `X-Request-Id` and echoed back by both servers.
    let id: String
    let method: HTTPMethod
    let server: Server
    /// Path and query.
    let target: String
    let body: [UInt8]?
    /// The statuses a success may have.
    let statuses: Set<Int>
    /// The body a success must carry, byte for byte.
    let expectedBody: SoakBody
    /// The injected fault, if any.
    let fault: SoakFault?

    /// Whether sending it twice could repeat its effect (RFC 9110 §9.2.2).
    var isIdempotent: Bool { method != .post }

    /// `nginx https GET /bytes/1k`, for people.
    var label: String { "\(server.rawValue) \(method.rawValue) \(target)" }
}

/// A body the soak expects: shared bytes, optionally after a prefix (the fault server starts
/// each body with the request's id, so a body delivered to the wrong request cannot match).
struct SoakBody: Sendable {
    let prefix: [UInt8]
    let payload: [UInt8]

    /// Whether `data` is exactly the prefix then the payload (compared with `memcmp`: a debug
    /// build compares a megabyte element by element a hundred times slower).
    func matches(_ data: Data) -> Bool {
        guard data.count == prefix.count + payload.count else { return false }
        // SAFETY: each buffer is valid only inside its closure and `equal` does not keep it;
        // `received` holds prefix.count + payload.count bytes (checked above), so the prefix is
        // compared at 0 and the payload right after it, both inside it.
        return data.withUnsafeBytes { received in
            prefix.withUnsafeBytes { Self.equal(received, at: 0, $0) }
                && payload.withUnsafeBytes { Self.equal(received, at: prefix.count, $0) }
        }
    }

    /// Whether `expected` is at `offset` in `received` (which is long enough).
    private static func equal(_ received: UnsafeRawBufferPointer, at offset: Int, _ expected: UnsafeRawBufferPointer) -> Bool {
        // SAFETY: the caller guarantees offset + expected.count <= received.count, so memcmp
        // reads inside both buffers, which live for the caller's closures.
        guard let base = received.baseAddress, let other = expected.baseAddress else { return expected.isEmpty }
        return memcmp(base + offset, other, expected.count) == 0
    }
}
