// The dimensions that label a request's metrics: method, scheme, host, port, status or error.
import FoundationEssentials
import Wick

/// Builds the dimensions of a request's metrics with OpenTelemetry's attribute names. Methods
/// outside RFC 9110's set (and PATCH) become `_OTHER`, as the conventions ask, so a caller's
/// custom methods cannot grow the series either.
struct RequestDimensions {
    let hosts: HostLabeller
    let statusLabel: MetricsConfiguration.StatusLabel

    /// The methods that keep their own label.
    private static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
    ]

    /// `http.request.method`, `url.scheme`, `server.address` (as the host policy allows) and
    /// `server.port` of `request`.
    func of(_ request: HTTPRequest) -> [(String, String)] {
        let method = request.method.rawValue
        var dimensions = [("http.request.method", Self.knownMethods.contains(method) ? method : "_OTHER")]
        let url = request.url
        if let scheme = url.scheme { dimensions.append(("url.scheme", scheme)) }
        let host = request.unixSocketPath.map { "unix:\($0)" } ?? url.host ?? ""
        if let label = hosts.label(for: host) {
            dimensions.append(("server.address", label))
            if let port = url.port ?? Self.defaultPort(url.scheme) { dimensions.append(("server.port", String(port))) }
        }
        return dimensions
    }

    /// `dimensions` (a request's, from `of(request)`) with the response's status, labelled as
    /// configured.
    func adding(status: Int, to dimensions: [(String, String)]) -> [(String, String)] {
        var dimensions = dimensions
        switch statusLabel {
        case .code: dimensions.append(("http.response.status_code", String(status)))
        case .statusClass: dimensions.append(("http.response.status_class", "\(status / 100)xx"))
        }
        return dimensions
    }

    /// `of(request)` with the failure's bounded name (`error.type`).
    func of(_ request: HTTPRequest, error: WickError) -> [(String, String)] {
        of(request) + [("error.type", error.typeName)]
    }

    /// The port a URL without one reaches.
    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme {
        case "https": 443
        case "http": 80
        default: nil
        }
    }
}
