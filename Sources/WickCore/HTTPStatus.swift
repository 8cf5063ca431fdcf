// The three-digit status code of a response and the class it belongs to.

/// A response status code (RFC 9110 §15): three digits, 100 through 999 on the wire.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The class of a status code, given by its first digit (RFC 9110 §15).
    public enum Kind: Sendable, Equatable {
        /// 1xx: interim, another response follows.
        case informational
        /// 2xx.
        case successful
        /// 3xx.
        case redirection
        /// 4xx.
        case clientError
        /// 5xx.
        case serverError
        /// 6xx–9xx: syntactically valid, semantically unknown; treat as 5xx would be wrong, so
        /// callers decide.
        case unknown
    }

    /// 100 Continue.
    public static let `continue` = HTTPStatus(rawValue: 100)
    /// 101 Switching Protocols.
    public static let switchingProtocols = HTTPStatus(rawValue: 101)
    /// 103 Early Hints.
    public static let earlyHints = HTTPStatus(rawValue: 103)
    /// 200 OK.
    public static let ok = HTTPStatus(rawValue: 200)
    /// 204 No Content.
    public static let noContent = HTTPStatus(rawValue: 204)
    /// 206 Partial Content.
    public static let partialContent = HTTPStatus(rawValue: 206)
    /// 304 Not Modified.
    public static let notModified = HTTPStatus(rawValue: 304)
    /// 401 Unauthorized.
    public static let unauthorized = HTTPStatus(rawValue: 401)
    /// 407 Proxy Authentication Required.
    public static let proxyAuthenticationRequired = HTTPStatus(rawValue: 407)
    /// 416 Range Not Satisfiable.
    public static let rangeNotSatisfiable = HTTPStatus(rawValue: 416)

    /// The numeric code.
    public let rawValue: Int

    /// Creates a status from its numeric code; the parser only produces 100...999.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The class given by the first digit.
    public var kind: Kind {
        switch rawValue {
        case 100..<200: .informational
        case 200..<300: .successful
        case 300..<400: .redirection
        case 400..<500: .clientError
        case 500..<600: .serverError
        default: .unknown
        }
    }

    /// Whether a response with this status never has a body, whatever its headers say
    /// (RFC 9112 §6.3 rule 1: 1xx, 204 and 304).
    public var forbidsBody: Bool {
        kind == .informational || rawValue == 204 || rawValue == 304
    }

    /// The code as three digits.
    public var description: String { String(rawValue) }

    /// Orders statuses by their code.
    public static func < (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.rawValue < rhs.rawValue }
}
