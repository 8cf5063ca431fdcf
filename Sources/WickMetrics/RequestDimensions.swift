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

    /// What a request's dimensions are made of.
    struct Values {
        /// The method, or `_OTHER`.
        let method: String
        let scheme: String?
        /// The host's label, nil when the policy leaves it out.
        let host: String?
        /// The port, explicit or the scheme's, when the host is labelled.
        let port: Int?
    }

    /// The values of `request`'s dimensions.
    func values(of request: HTTPRequest) -> Values {
        let method = request.method.rawValue
        let url = request.url
        let scheme = url.scheme
        let host = hosts.label(for: request.unixSocketPath.map { "unix:\($0)" } ?? url.host ?? "")
        return Values(
            method: Self.knownMethods.contains(method) ? method : "_OTHER", scheme: scheme, host: host,
            port: host == nil ? nil : url.port ?? Self.defaultPort(scheme))
    }

    /// `http.request.method`, `url.scheme`, `server.address` (as the host policy allows) and
    /// `server.port` of values.
    func dimensions(_ values: Values) -> [(String, String)] {
        var dimensions = [("http.request.method", values.method)]
        if let scheme = values.scheme { dimensions.append(("url.scheme", scheme)) }
        if let host = values.host {
            dimensions.append(("server.address", host))
            if let port = values.port { dimensions.append(("server.port", String(port))) }
        }
        return dimensions
    }

    /// `http.request.method`, `url.scheme`, `server.address` (as the host policy allows) and
    /// `server.port` of `request`.
    func of(_ request: HTTPRequest) -> [(String, String)] {
        dimensions(values(of: request))
    }

    /// What the status dimension says of `status`: the code, or its class's first digit.
    func statusValue(_ status: Int) -> Int {
        switch statusLabel {
        case .code: status
        case .statusClass: status / 100
        }
    }

    /// The response's status dimension, labelled as configured.
    func statusDimension(_ status: Int) -> (String, String) {
        switch statusLabel {
        case .code: ("http.response.status_code", String(status))
        case .statusClass: ("http.response.status_class", "\(status / 100)xx")
        }
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
