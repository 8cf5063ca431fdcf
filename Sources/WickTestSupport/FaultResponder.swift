// A fault server's answer chosen per request: the request read whole, then the steps it asks for.
import WickCore

/// One request a fault server read (`FaultStep.answer(_:)`): its request line, fields and body.
public struct FaultRequest: Sendable {
    /// The method, e.g. `POST`.
    public let method: String
    /// The request target, e.g. `/soak/17`.
    public let target: String
    /// The header fields in order, as sent.
    public let fields: [(name: String, value: String)]
    /// The body as it came on the wire (a chunked body keeps its framing).
    public let body: [UInt8]

    /// The first field named `name` (case-insensitive), if any.
    public func field(_ name: String) -> String? {
        fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }
}

/// Chooses a fault server's steps per request, from the request read whole: a soak or a test
/// can answer by what the request asks for, and count requests by a field it tags them with (a
/// non-idempotent request that arrives twice was sent twice).
///
/// The chooser runs on the connection's thread; it must return quickly. Compared by identity,
/// so a script holding one stays `Equatable`.
public final class FaultResponder: Sendable, Equatable {
    private let choose: @Sendable (FaultRequest) -> [FaultStep]

    /// A responder: `choose` gets each request and returns the steps that answer it.
    public init(_ choose: @escaping @Sendable (FaultRequest) -> [FaultStep]) {
        self.choose = choose
    }

    /// The steps for `request`.
    func steps(for request: FaultRequest) -> [FaultStep] {
        choose(request)
    }

    /// Whether the two are the same responder.
    public static func == (lhs: FaultResponder, rhs: FaultResponder) -> Bool { lhs === rhs }
}
