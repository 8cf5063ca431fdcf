// `wick get URL`: one request through a Session, printed in full.
import FoundationEssentials
import Wick
import WickCLI

/// Fetches one URL and prints the response head, body, timings and connection.
struct GetCommand {
    let url: String
    let headers: HTTPHeaders
    let caFile: String?
    let pin: String?
    /// Run the command's tasks on the session's loops (`Session.unsafeInstallLoopsAsGlobalExecutor`).
    let loopsAsGlobalExecutor: Bool

    /// Parses `URL [-H "Name: value"]... [--ca FILE] [--pin sha256//BASE64] [--loops-as-global-executor]`.
    /// - Throws: `UsageError`.
    init(arguments: [String]) throws {
        var url: String?
        var headers = HTTPHeaders()
        var caFile: String?
        var pin: String?
        var loopsAsGlobalExecutor = false
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "-H", "--header":
                guard let field = iterator.next(), case .set(let name, let value)? = HeaderArgument(line: field) else {
                    throw UsageError("-H takes \"Name: value\"")
                }
                headers.add(name: name, value: value)
            case "--ca":
                guard let value = iterator.next() else { throw UsageError("--ca takes a PEM file") }
                caFile = value
            case "--pin":
                guard let value = iterator.next() else { throw UsageError("--pin takes sha256//BASE64") }
                pin = value
            case "--loops-as-global-executor":
                loopsAsGlobalExecutor = true
            default:
                guard url == nil else { throw UsageError("one URL at a time") }
                url = argument
            }
        }
        guard let url else { throw UsageError("wick get needs a URL") }
        self.url = url
        self.headers = headers
        self.caFile = caFile
        self.pin = pin
        self.loopsAsGlobalExecutor = loopsAsGlobalExecutor
    }

    /// Runs the request and prints the response, or the failure; returns whether it succeeded.
    /// - Throws: `UsageError` for an unreadable CA file or pin.
    func run() async throws -> Bool {
        var configuration = Session.Configuration()
        if let caFile { configuration.trustRoots = try trustRoots(pemFile: caFile) }
        var trustManager: ServerTrustManager?
        if let pin {
            let host = try url.asURL().host() ?? ""
            trustManager = ServerTrustManager(evaluators: [
                host: PublicKeysTrustEvaluator(keys: [try PublicKey(pin: pin)])
            ])
        }
        let session = Session(configuration: configuration, serverTrustManager: trustManager)
        if loopsAsGlobalExecutor {
            guard session.unsafeInstallLoopsAsGlobalExecutor() else {
                throw UsageError("the loops could not become the global executor")
            }
            print("GET \(url)")
            // A task made now starts on the loops (this one began on Swift's pool, before the
            // install), so it is on a loop after the request whether or not it had to wait.
            let (response, thread) = await Task {
                let response = await session.request(url, headers: headers)
                    .serializingData(emptyResponseCodes: Set(100..<600)).response
                return (response, currentThreadName())
            }.value
            print("task resumed on thread \(thread)")
            ExchangeReport.print(response, bodyPreview: 0, hexPreview: 0)
            // Never shut down: the loops serve every task of the process from now on.
            return response.error == nil
        }
        print("GET \(url)")
        let response = await session.request(url, headers: headers).serializingData(emptyResponseCodes: Set(100..<600))
            .response
        let type = response.response?.headers["Content-Type"] ?? ""
        let isText = type.hasPrefix("text/") || type.contains("json") || type.contains("xml")
        ExchangeReport.print(response, bodyPreview: isText ? 600 : 0, hexPreview: isText ? 0 : 16)
        await session.shutdown()
        return response.error == nil
    }
}

/// The certificates in a PEM file, as trust roots.
/// - Throws: `UsageError` if the file cannot be read or holds no certificate.
func trustRoots(pemFile: String) throws -> TrustRoots {
    guard let roots = TrustRoots.certificates(inPEMFile: pemFile) else {
        throw UsageError("no certificate could be read from \(pemFile)")
    }
    return roots
}

/// The calling thread's name (`top -H` shows it), e.g. `wick-loop-0`, from `/proc/thread-self/comm`.
func currentThreadName() -> String {
    guard let data = try? Data(contentsOf: URL(filePath: "/proc/thread-self/comm")) else { return "?" }
    return String(decoding: data.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
}
