// How URLEncodedFormEncoder writes arrays, bools, data, dates, key paths, nils and spaces.
public import FoundationEssentials

extension URLEncodedFormEncoder {
    /// How array elements are keyed.
    public enum ArrayEncoding: Sendable {
        /// `key[]=1&key[]=2` (the default).
        case brackets
        /// `key=1&key=2`.
        case noBrackets
        /// `key[0]=1&key[1]=2`, as jQuery and Node.js write them.
        case indexInBrackets
        /// The key of element `index` of the array under `key`, as the closure makes it.
        case custom(@Sendable (_ key: String, _ index: Int) -> String)

        /// The key of element `index` of the array under `key`.
        func encode(_ key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets: "\(key)[]"
            case .noBrackets: key
            case .indexInBrackets: "\(key)[\(index)]"
            case .custom(let encoding): encoding(key, index)
            }
        }
    }

    /// How `Bool` values are written.
    public enum BoolEncoding: Sendable {
        /// `1` and `0` (the default).
        case numeric
        /// `true` and `false`.
        case literal

        /// `value` as text.
        func encode(_ value: Bool) -> String {
            switch self {
            case .numeric: value ? "1" : "0"
            case .literal: value ? "true" : "false"
            }
        }
    }

    /// How `Data` values are written.
    public enum DataEncoding: Sendable {
        /// As `Data` encodes itself: an array of byte values (`d[]=1&d[]=2`).
        case deferredToData
        /// Base64 (the default).
        case base64
        /// As the closure writes it; what it throws fails the encoding.
        case custom(@Sendable (Data) throws -> String)

        /// `data` as text, or nil to let `Data` encode itself.
        func encode(_ data: Data) throws -> String? {
            switch self {
            case .deferredToData: nil
            case .base64: data.base64EncodedString()
            case .custom(let encoding): try encoding(data)
            }
        }
    }

    /// How `Date` values are written.
    public enum DateEncoding: Sendable {
        /// As `Date` encodes itself: seconds since 2001-01-01 (the default).
        case deferredToDate
        /// Seconds since 1970-01-01 UTC (`978307323.456`).
        case secondsSince1970
        /// Milliseconds since 1970-01-01 UTC (`978307323456.0`).
        case millisecondsSince1970
        /// ISO 8601 / RFC 3339 in UTC, whole seconds (`2001-01-01T00:02:03Z`).
        case iso8601
        /// With the given ISO 8601 style (fractional seconds, a time zone, a date only). Wick's
        /// stand-in for Alamofire's `.formatted(DateFormatter)`, which FoundationEssentials lacks.
        case formatted(Date.ISO8601FormatStyle)
        /// As the closure writes it; what it throws fails the encoding.
        case custom(@Sendable (Date) throws -> String)

        /// `date` as text, or nil to let `Date` encode itself.
        func encode(_ date: Date) throws -> String? {
            switch self {
            case .deferredToDate: nil
            case .secondsSince1970: String(date.timeIntervalSince1970)
            case .millisecondsSince1970: String(date.timeIntervalSince1970 * 1000)
            case .iso8601: Date.ISO8601FormatStyle().format(date)
            case .formatted(let style): style.format(date)
            case .custom(let encoding): try encoding(date)
            }
        }
    }

    /// How a nested object's keys are joined to their parent's key.
    public struct KeyPathEncoding: Sendable {
        /// `parent[child][grandchild]` (the default).
        public static let brackets = KeyPathEncoding { "[\($0)]" }
        /// `parent.child.grandchild`.
        public static let dots = KeyPathEncoding { ".\($0)" }

        private let encoding: @Sendable (_ subkey: String) -> String

        /// An encoding that appends `encoding(subkey)` to the parent's key for each nested key.
        public init(encoding: @escaping @Sendable (_ subkey: String) -> String) {
            self.encoding = encoding
        }

        /// What is appended to the parent's key for `subkey`.
        func encodeKeyPath(_ subkey: String) -> String { encoding(subkey) }
    }

    /// How `nil` values are written.
    public struct NilEncoding: Sendable {
        /// The pair is left out (the default).
        public static let dropKey = NilEncoding { nil }
        /// The key is written with an empty value: `key=`.
        public static let dropValue = NilEncoding { "" }
        /// `key=null`.
        public static let null = NilEncoding { "null" }

        private let encoding: @Sendable () -> String?

        /// An encoding that writes `nil` as `encoding()`, or leaves the pair out when that is nil.
        public init(encoding: @escaping @Sendable () -> String?) {
            self.encoding = encoding
        }

        /// The value written for nil, or nil to leave the pair out.
        func encodeNil() -> String? { encoding() }
    }

    /// How spaces in keys and values are written.
    public enum SpaceEncoding: Sendable {
        /// `%20` (the default).
        case percentEscaped
        /// `+` (a literal `+` is then escaped as `%2B`).
        case plusReplaced

        /// What a space becomes.
        var replacement: String {
            switch self {
            case .percentEscaped: "%20"
            case .plusReplaced: "+"
            }
        }
    }
}
