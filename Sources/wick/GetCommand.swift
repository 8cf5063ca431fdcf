// `wick get URL`: one request over a new connection, printed in full.
import WickCore
import WickHTTP1
import WickReactor

/// Fetches one URL and prints the response head, body size and timings.
struct GetCommand {
    let target: Target
    let headers: HTTPHeaders

    /// Parses `URL [-H "Name: value"]... [--compressed]`.
    /// - Throws: `UsageError`.
    init(arguments: [String]) throws {
        var url: String?
        var headers = HTTPHeaders()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "-H", "--header":
                guard let field = iterator.next(), let colon = field.firstIndex(of: ":") else {
                    throw UsageError("-H takes \"Name: value\"")
                }
                headers.add(
                    name: String(field[..<colon]),
                    value: String(field[field.index(after: colon)...].drop { $0 == " " }))
            case "--compressed":
                headers.update(name: "Accept-Encoding", value: "gzip, deflate")
            default:
                guard url == nil else { throw UsageError("one URL at a time") }
                url = argument
            }
        }
        guard let url else { throw UsageError("wick get needs a URL") }
        target = try Target(url)
        self.headers = headers
    }

    /// Runs the request.
    /// - Throws: `UsageError` for https (until the TLS layer is wired in) and `LayerError`.
    func run() async throws {
        guard target.scheme == "http" else {
            throw UsageError("https is not wired into `wick get` yet (the TLS layer lands separately)")
        }
        let group = try EventLoopGroup(threadCount: 1)
        defer { group.shutdownGracefully() }
        let connection = try await LayerConnection.open(host: target.host, port: target.port, group: group)
        print("GET \(target)")
        let result = try await connection.exchange(
            HTTPRequestHead(method: .get, target: .origin(target.path), host: target.hostHeader, headers: headers))
        ExchangeReport.print(result, target: target, connection: connection, reused: false, bodyPreview: 600)
        await connection.close()
    }
}
