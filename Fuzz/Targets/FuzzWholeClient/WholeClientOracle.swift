// What must hold after a whole-client run, judged against what the scripted server really sent.
import FoundationEssentials
import Wick

/// The run's invariants. Each failure traps with a message naming the request and connection.
///
/// 1. Every request ended exactly once: its response handler ran once, the awaiting task got the
///    same response, and the session tracks no request after its shutdown.
/// 2. A response is reported only from a whole, correctly framed one: where the reference reader
///    is sure of the response on the connection that carried the request last written for it,
///    that response arrived whole, with the status reported and exactly the body reported
///    (unless the client decoded a Content-Encoding); and it came from that connection.
/// 3. A connection carries another request only after a whole response that lets it (no
///    `Connection: close`, HTTP/1.0 or close-delimited body), with no unread byte after it,
///    never after the server ended it, and never after a request failed on it.
/// 4. A request is replayed only as `ReplayPolicy` says: after its reused connection ended
///    before any response byte, not a POST, on a fresh connection.
/// 5. No body beyond the session's limit. (The rest of "bounded" and "no hang" is checked
///    elsewhere: the server's call budget, the run's waits, the session's release and the
///    descriptor count in `FuzzWholeClient.swift`.)
struct WholeClientOracle {
    let input: WholeClientInput
    let server: ScriptedServer
    let outcomes: RunOutcomes

    /// A written request's place: connection and position on it.
    private typealias Place = (connection: Int, index: Int)

    func check() {
        let readings = server.connections.map(referenceReadings)
        var lastPlace: [Int: Place] = [:]
        var sequenceOfUser: [Int: [Place]] = [:]
        for connection in server.connections {
            for (index, request) in connection.requests.enumerated() {
                sequenceOfUser[request.user, default: []].append((connection.number, index))
            }
        }
        for (user, places) in sequenceOfUser {
            let ordered = places.sorted { written($0).sequence < written($1).sequence }
            sequenceOfUser[user] = ordered
            lastPlace[user] = ordered.last
        }
        require(outcomes.unfinished == 0, "\(outcomes.unfinished) requests still tracked after the shutdown")
        for user in input.requests.indices {
            checkEndedOnce(user)
            checkResponse(user, last: lastPlace[user], readings: readings)
            checkReplays(user, places: sequenceOfUser[user] ?? [], readings: readings)
        }
        for connection in server.connections {
            checkReuse(connection, readings: readings[connection.number], lastPlace: lastPlace)
        }
    }

    private func written(_ place: Place) -> WrittenRequest {
        server.connections[place.connection].requests[place.index]
    }

    /// The reference's reading of each request's response on `connection`; nil once unsure.
    private func referenceReadings(_ connection: ScriptedConnection) -> [ReferenceResponse?] {
        let reader = ReferenceResponseReader(bytes: connection.delivered, endedWithEOF: connection.ended == .endOfFile)
        var readings: [ReferenceResponse?] = []
        var start: Int? = 0
        for request in connection.requests {
            let reading = start.flatMap { reader.response(to: request.method, at: $0) }
            readings.append(reading)
            start = reading.flatMap { $0.isComplete ? $0.end : nil }
        }
        return readings
    }

    // 1.
    private func checkEndedOnce(_ user: Int) {
        let handled = outcomes.handled[user]
        require(handled.count == 1, "request \(user) ended \(handled.count) times for its handler")
        guard let awaited = outcomes.awaited[user] else { fail("request \(user): no awaited response") }
        require(
            awaited.response?.statusCode == handled[0].response?.statusCode && awaited.data == handled[0].data,
            "request \(user): the awaiting task and the handler saw different responses")
    }

    // 2 and 5.
    private func checkResponse(_ user: Int, last: Place?, readings: [[ReferenceResponse?]]) {
        let response = outcomes.handled[user][0]
        guard let head = response.response else { return }
        let body = response.data.map { [UInt8]($0) } ?? []
        require(body.count <= bodyLimit, "request \(user): a body of \(body.count) bytes past the limit")
        guard let last else { fail("request \(user): status \(head.statusCode) but no request was written") }
        let remote = response.metrics?.last.remoteAddress
        require(
            remote == ScriptedServer.name(last.connection),
            "request \(user): the response came from \(remote ?? "nowhere"), its last request went to connection \(last.connection)"
        )
        guard let reference = readings[last.connection][last.index] else { return }
        require(
            reference.isComplete,
            "request \(user): status \(head.statusCode) reported from a response that did not arrive whole (connection \(last.connection), response \(last.index))"
        )
        require(
            head.statusCode == reference.status,
            "request \(user): status \(head.statusCode) reported, the server sent \(reference.status)")
        if input.decodesBodies && reference.isEncoded { return }
        require(
            body == reference.body,
            "request \(user): a body of \(body.count) bytes reported, the framed body has \(reference.body.count) (connection \(last.connection), response \(last.index))"
        )
    }

    // 3.
    private func checkReuse(
        _ connection: ScriptedConnection, readings: [ReferenceResponse?], lastPlace: [Int: Place]
    ) {
        for index in connection.requests.indices.dropFirst() {
            let request = connection.requests[index]
            let name = "connection \(connection.number): request \(index) (of request \(request.user))"
            require(!request.endedBefore, "\(name) written after the server ended the connection")
            let before = connection.requests[index - 1]
            if let place = lastPlace[before.user], place == (connection.number, index - 1),
                let error = outcomes.handled[before.user][0].error, Self.isConnectionFailure(error)
            {
                fail("\(name) written after request \(before.user) failed on it: \(error)")
            }
            guard let previous = readings[index - 1] else { continue }
            require(previous.isComplete, "\(name) written before the response to the one before arrived whole")
            require(!previous.closesConnection, "\(name) written after a response that closes the connection")
            require(
                request.deliveredBefore == previous.end,
                "\(name) written with \(request.deliveredBefore - previous.end) unread bytes after the response before")
        }
    }

    // 4.
    private func checkReplays(_ user: Int, places: [Place], readings: [[ReferenceResponse?]]) {
        for (earlier, later) in zip(places, places.dropFirst()) {
            // A later request after a response that did not arrive whole can only be a replay.
            guard let reading = readings[earlier.connection][earlier.index], !reading.isComplete else { continue }
            let connection = server.connections[earlier.connection]
            let replayed = written(earlier)
            let nextStart =
                earlier.index + 1 < connection.requests.count
                ? connection.requests[earlier.index + 1].deliveredBefore : connection.delivered.count
            let name = "request \(user): \(replayed.method) on connection \(earlier.connection) replayed"
            require(earlier.index > 0, "\(name) though the connection was fresh")
            require(nextStart == replayed.deliveredBefore, "\(name) after response bytes arrived")
            require(replayed.method != "POST", "\(name): a POST whose bytes were written")
            require(later.index == 0, "\(name) on a reused connection")
        }
    }

    /// Whether `error` says the connection the request was on failed (so it must not be reused).
    private static func isConnectionFailure(_ error: WickError) -> Bool {
        switch error {
        case .bodyTooLarge: return true
        case .sessionTaskFailed(let failure):
            switch failure {
            case .connectionLost, .contentDecodingFailed, .timedOut: return true
            default: return false
            }
        default: return false
        }
    }
}
