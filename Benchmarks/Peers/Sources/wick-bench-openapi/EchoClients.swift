// The generated client on each transport, sequential and concurrent, one configuration each.
import AsyncHTTPClient
import CAllocationCounter
import FoundationEssentials
import NIOCore
import NIOPosix
import OpenAPIAsyncHTTPClient
import Wick
import WickOpenAPI

/// The generated `Client` on Wick and on async-http-client, for sequential calls (a pool of one
/// connection) and concurrent ones (a pool of as many connections as lanes), made on first use
/// and kept across rounds; each side has one event-loop thread. And on `MemoryTransport`, for
/// the generated client's and the runtime's own cost.
final class EchoClients {
    let serverURL: URL
    /// async-http-client's event loop, shared by its clients.
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private var wickSessions: [Int: Session] = [:]
    private var ahcClients: [Int: HTTPClient] = [:]
    private var generated: [String: Client] = [:]

    /// The greeting every call sends and expects echoed.
    static let greeting = "hello"

    /// - Throws: `EchoError` when `serverURL` is not a URL.
    init(serverURL: String) throws {
        guard let url = URL(string: serverURL) else { throw EchoError("not a URL: \(serverURL)") }
        self.serverURL = url
    }

    /// Runs one command (see main.swift) and returns its answer's values.
    /// - Throws: `EchoError` for a malformed command or a wrong answer; the transport's error.
    func run(_ words: [Substring]) throws -> String {
        switch (words.first, words.count) {
        case ("self-test", 1):
            // A string past the 15 bytes stored inline, used afterwards: an allocation the
            // optimiser cannot remove.
            let before = bench_allocation_count()
            let text = words.joined(separator: " ") + String(repeating: "x", count: 64)
            return bench_allocation_count() > before && text.utf8.count > 64 ? "1" : "0"
        case ("seq", 3):
            let client = try self.client(String(words[1]), poolSize: 1)
            let count = try Self.positive(words[2])
            return try Round.measure {
                for _ in 0..<count { try await Self.call(client) }
            }.answer
        case ("conc", 4):
            let lanes = try Self.positive(words[2])
            let client = try self.client(String(words[1]), poolSize: lanes)
            let count = try Self.positive(words[3])
            return try Round.measure {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for lane in 0..<lanes {
                        let share = count / lanes + (lane < count % lanes ? 1 : 0)
                        group.addTask {
                            for _ in 0..<share { try await Self.call(client) }
                        }
                    }
                    try await group.waitForAll()
                }
            }.answer
        default:
            throw EchoError("unknown command: \(words.joined(separator: " "))")
        }
    }

    /// One `echoQuery` call; checks the echoed greeting.
    /// - Throws: `EchoError` when the answer is not the 200 the document describes or echoes
    ///   something else; the transport's or the decoder's error.
    static func call(_ client: Client) async throws {
        let output = try await client.echoQuery(query: .init(greeting: greeting))
        let echo = try output.ok.body.json
        guard echo.args.additionalProperties["greeting"] == greeting else {
            throw EchoError("echoQuery echoed \(echo.args.additionalProperties)")
        }
    }

    /// The generated client on `transport` ("wick" or "ahc", with a pool of `poolSize`; "memory",
    /// answering from memory).
    /// - Throws: `EchoError` for another transport name.
    private func client(_ transport: String, poolSize: Int) throws -> Client {
        let key = "\(transport) \(poolSize)"
        if let client = generated[key] { return client }
        let client: Client
        switch transport {
        case "wick":
            var configuration = Session.Configuration()
            configuration.maximumConnectionsPerHost = poolSize
            configuration.eventLoopCount = 1
            let session = Session(configuration: configuration)
            wickSessions[poolSize] = session
            client = Client(serverURL: serverURL, transport: WickClientTransport(session: session))
        case "ahc":
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool = .init(
                idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: poolSize)
            let http = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
            ahcClients[poolSize] = http
            client = Client(
                serverURL: serverURL, transport: AsyncHTTPClientTransport(configuration: .init(client: http)))
        case "memory":
            client = Client(serverURL: serverURL, transport: MemoryTransport())
        default:
            throw EchoError("unknown transport \(transport): wick, ahc or memory")
        }
        generated[key] = client
        return client
    }

    private static func positive(_ word: Substring) throws -> Int {
        guard let value = Int(word), value > 0 else { throw EchoError("not a positive count: \(word)") }
        return value
    }

    /// Shuts every session and client down.
    func shutdown() {
        let sessions = Array(wickSessions.values)
        let clients = Array(ahcClients.values)
        try? blocking {
            for session in sessions { await session.shutdown() }
            for client in clients { try await client.shutdown() }
        }
        try? group.syncShutdownGracefully()
    }
}

/// A malformed command or an unexpected answer.
struct EchoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
