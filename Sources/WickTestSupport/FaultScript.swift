// The steps a fault server plays on one connection: what to send, when, and how to end.

/// One step of a fault server's script. Steps run in order on an accepted connection; every
/// wait is bounded by the step's own limit and by the server's per-connection time limit.
public indirect enum FaultStep: Sendable, Equatable {
    /// Writes these bytes (all of them, or the connection ends with a send error in its log).
    case send([UInt8])
    /// Waits without reading or writing: to the client, a stall.
    case pause(Duration)
    /// Reads until the end of a request head (CRLF CRLF), or EOF, or `limit` bytes.
    case readRequestHead(limit: Int = 64 * 1024)
    /// Reads a whole request: its head, then a `Content-Length` body or a chunked body up to
    /// its last chunk. Good enough for scripted exchanges; not a conformant server parser.
    case readRequest
    /// Reads exactly `count` bytes, or until EOF.
    case read(count: Int)
    /// Reads HTTP/2 frames (after the client preface, if it comes first) through the first
    /// frame of `type` on `stream`, or `limit` bytes: a scripted HTTP/2 server that waits for a
    /// request's HEADERS (type 1) before it answers.
    case readHTTP2Frame(type: UInt8, stream: UInt32, limit: Int = 1 << 20)
    /// Reads and discards until the client closes, up to `limit`: a server that never answers.
    case waitForClientClose(limit: Duration)
    /// Shuts down the server's sending side (FIN) but keeps reading.
    case halfClose
    /// Aborts the connection with an RST (SO_LINGER 0, then close).
    case reset
    /// Closes the connection normally (FIN); any later steps are skipped.
    case close
    /// Plays `steps` `times` times in a row (e.g. keep-alive: read a request, answer it).
    case repeating([FaultStep], times: Int)
    /// Reads a whole request (as `readRequest`) and plays the steps `responder` chooses for it;
    /// the connection ends if the client closes first.
    case answer(FaultResponder)

    /// Sends the UTF-8 bytes of `text`; write `\r\n` explicitly.
    public static func send(_ text: String) -> FaultStep {
        .send(Array(text.utf8))
    }

    /// Reads a request head with the default limit.
    public static var readRequestHead: FaultStep { .readRequestHead() }

    /// A complete `200 OK` with a `Content-Length` body (keep-alive unless `close` is true).
    public static func respond(status: Int = 200, body: String = "", headers: [String] = [], close: Bool = false)
        -> FaultStep
    {
        var head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\nContent-Length: \(body.utf8.count)\r\n"
        for header in headers { head += header + "\r\n" }
        if close { head += "Connection: close\r\n" }
        return .send(head + "\r\n" + body)
    }
}

/// How a scripted connection ended, for tests that assert what the server saw.
public enum FaultConnectionEnd: Sendable, Equatable {
    /// Still running its script.
    case running
    /// Every step ran.
    case completed
    /// A read saw the client close before the step was satisfied.
    case clientClosed
    /// A socket call failed, e.g. `send: errno 104` when the client reset the connection.
    case failed(String)
    /// The server was stopped or the per-connection time limit ran out mid-script.
    case interrupted
}
