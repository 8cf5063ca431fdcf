// `-v`: the exchanges as curl traces them on standard error: `*` for what happened,
// `>` for the request head, `<` for the response head.
import FoundationEssentials
import Wick

/// The `-v` lines of a transfer's exchanges.
enum VerboseTrace {
    /// The trace, each line ending in a newline (head lines in CRLF, as curl shows them).
    static func text(of exchanges: [ExchangeRecorder.Exchange]) -> String {
        var text = ""
        for exchange in exchanges {
            if let connection = exchange.connection {
                text += connectionLines(connection, host: exchange.request.url.host() ?? "localhost")
            }
            if let trust = exchange.trust { text += trustLines(trust) }
            for line in HeadText.lines(of: exchange.request) { text += "> \(line)\r\n" }
            if let response = exchange.response {
                for line in HeadText.lines(of: response) { text += "< \(line)\r\n" }
            }
        }
        return text
    }

    /// `*   Trying ...`, `* Connected to ...` and the TLS parameters, or the reuse.
    private static func connectionLines(_ connection: ConnectionInfo, host: String) -> String {
        let address = connection.remoteAddress
        if connection.isReused { return "* Re-using existing connection with host \(host)\n" }
        var text = "*   Trying \(address)...\n"
        if let colon = address.lastIndex(of: ":"), !address.hasPrefix("/") {
            let ip = String(address[..<colon].filter { $0 != "[" && $0 != "]" })
            text += "* Connected to \(host) (\(ip)) port \(address[address.index(after: colon)...])\n"
        } else {
            text += "* Connected to \(address)\n"
        }
        if let version = connection.tlsVersion {
            text += "* SSL connection using \(version) / \(connection.tlsCipherSuite ?? "?")\n"
        }
        return text
    }

    /// The server certificate's subject, dates and issuer, and the trust decision.
    private static func trustLines(_ evaluation: ServerTrustEvaluation) -> String {
        var text = ""
        if let leaf = evaluation.presentedChain.first {
            text += "* Server certificate:\n"
            text += "*  subject: \(leaf.subject)\n"
            text += "*  start date: \(leaf.notValidBefore)\n"
            text += "*  expire date: \(leaf.notValidAfter)\n"
            text += "*  issuer: \(leaf.issuer)\n"
        }
        switch evaluation.result {
        case .success: text += "*  SSL certificate verify ok (\(evaluation.evaluator)).\n"
        case .failure(let error): text += "*  SSL certificate problem: \(error.reason)\n"
        }
        return text
    }
}
