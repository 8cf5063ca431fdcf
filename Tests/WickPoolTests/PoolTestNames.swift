// Short names for the identifiers and setups the rule tests use, so a test reads like its rule.
import WickCore
import WickPool
import WickPoolChecking

let C1 = PoolConnectionID(1)
let C2 = PoolConnectionID(2)
let C3 = PoolConnectionID(3)
let C4 = PoolConnectionID(4)
let R1 = PoolRequestID(1)
let R2 = PoolRequestID(2)
let R3 = PoolRequestID(3)
let R4 = PoolRequestID(4)

extension PoolWorld {
    /// A world whose pool has the default settings changed by `configure`.
    static func with(_ configure: (inout PoolSettings) -> Void) -> PoolWorld {
        var settings = PoolSettings()
        configure(&settings)
        return PoolWorld(settings: settings)
    }

    /// Request `request` arrives and the connection it causes is established, so it holds a
    /// fresh connection, which the caller names.
    mutating func leaseNewConnection(to request: UInt64, at origin: String = "a") throws {
        let created = try arrive(request, at: origin).compactMap { action -> PoolConnectionID? in
            if case .createConnection(let id, _) = action { return id }
            return nil
        }
        guard let id = created.first else { throw WorldViolation("R\(request) started no connection") }
        try establish(id)
    }

    /// Leases `connection` to a new request `request` and finishes it, so it carries one more use.
    mutating func use(_ connection: PoolConnectionID, for request: UInt64) throws {
        let actions = try arrive(request, at: connections[connection]!.origin)
        guard actions.contains(where: { if case .leaseConnection(connection, _, _) = $0 { true } else { false } })
        else {
            throw WorldViolation("R\(request) did not get \(connection): \(actions)")
        }
        try finish(connection)
    }

    func state(of request: PoolRequestID) -> RequestState? { requests[request] }
}
