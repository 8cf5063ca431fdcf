// How long each step of making a new connection took.
import WickCore

/// The steps of one new connection: name resolution, the connect (TCP, or the Unix socket;
/// through a proxy, the proxy's connect and the CONNECT exchange), and for https the TLS
/// handshake with trust evaluation.
struct ConnectionTimings: Sendable {
    /// Resolving the host name (the proxy's, through a proxy); nil for a numeric address or a
    /// Unix socket, which are not resolved.
    var resolve: Duration?
    /// From the end of resolution (or the start, without one) to the connected socket.
    var connect: Duration
    /// The TLS handshake and trust evaluation; nil for http.
    var tlsHandshake: Duration?

    /// The timings of a connection started at `started`, resolved in `resolve`, connected at
    /// `connected`.
    init(started: Deadline, resolve: Duration?, connected: Deadline, tlsHandshake: Duration?) {
        self.resolve = resolve
        connect = connected - started - (resolve ?? .zero)
        self.tlsHandshake = tlsHandshake
    }
}
