// The TLS protocol versions Wick speaks.
internal import CWickOpenSSL

/// A TLS protocol version. Wick never speaks anything older than TLS 1.2.
public enum TLSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// TLS 1.2 (RFC 5246).
    case v1_2
    /// TLS 1.3 (RFC 8446).
    case v1_3

    /// OpenSSL's number for the version.
    var openSSLValue: Int32 {
        switch self {
        case .v1_2: TLS1_2_VERSION
        case .v1_3: TLS1_3_VERSION
        }
    }

    /// The version OpenSSL negotiated, or nil for anything else.
    init?(openSSLValue: Int32) {
        switch openSSLValue {
        case TLS1_2_VERSION: self = .v1_2
        case TLS1_3_VERSION: self = .v1_3
        default: return nil
        }
    }

    /// `TLSv1.2` or `TLSv1.3`, as OpenSSL names them.
    public var description: String {
        switch self {
        case .v1_2: "TLSv1.2"
        case .v1_3: "TLSv1.3"
        }
    }
}
