// The header fields every Session request carries unless overridden.
import FoundationEssentials
internal import WickHTTP1

extension HTTPHeaders {
    /// `Accept-Language: en;q=1.0` and `HTTPHeader.defaultUserAgent`. `Accept-Encoding` is not
    /// here: `Session` adds `HTTPHeader.defaultAcceptEncoding` to requests without one while
    /// `Session.Configuration.automaticallyDecodesResponseBodies` is on (the default), so that
    /// turning decoding off also stops asking for coded bodies.
    public static var `default`: HTTPHeaders {
        [.defaultAcceptLanguage, .defaultUserAgent]
    }
}

extension HTTPHeader {
    /// `Accept-Language: en;q=1.0`. Linux daemons have no user locale to ask, so this is fixed.
    public static var defaultAcceptLanguage: HTTPHeader { HTTPHeader(name: "Accept-Language", value: "en;q=1.0") }
    /// `Accept-Encoding: gzip, deflate, br, zstd`: exactly the codings `Session` decodes (see
    /// `Session.Configuration.automaticallyDecodesResponseBodies`).
    public static var defaultAcceptEncoding: HTTPHeader {
        HTTPHeader(name: "Accept-Encoding", value: ContentCoding.acceptEncodingValue)
    }
    /// `User-Agent: <program> (Linux <kernel version>) Wick/0.1`, e.g. `inventoryd (Linux 6.1.0)
    /// Wick/0.1`: the program and the system first, then the library, as Alamofire's names the
    /// app, its bundle and OS version, then `Alamofire/5.x`.
    public static var defaultUserAgent: HTTPHeader { HTTPHeader(name: "User-Agent", value: DefaultUserAgent.value) }
}

/// The default `User-Agent` value, made once per process.
enum DefaultUserAgent {
    /// The library's product token.
    static let product = "Wick/0.1"

    static let value: String = {
        let process = ProcessInfo.processInfo
        let version = process.operatingSystemVersion
        let system = "Linux \(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        // A token is printable ASCII without separators; a program name outside that is left out.
        let name = process.processName
        let separators = Set(#"()<>@,;:\"/[]?={}"#.utf8)
        let isToken = !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !separators.contains($0) }
        return isToken ? "\(name) (\(system)) \(product)" : "\(product) (\(system))"
    }()
}
