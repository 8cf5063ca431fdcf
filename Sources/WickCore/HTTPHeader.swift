// One header field: a name and a value, as Alamofire's HTTPHeader.

/// A single header field (RFC 9110 §5). Names compare case-insensitively in `HTTPHeaders`;
/// the spelling given here is the one sent on the wire.
///
/// No validation happens here: the request encoder rejects names and values that would
/// break framing (CR, LF, NUL, non-token name bytes) with an error instead of sending them.
public struct HTTPHeader: Hashable, Sendable, CustomStringConvertible {
    /// The field name as it will be sent, e.g. `Content-Type`.
    public let name: String
    /// The field value, without leading or trailing whitespace.
    public let value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `name: value`.
    public var description: String { "\(name): \(value)" }
}
