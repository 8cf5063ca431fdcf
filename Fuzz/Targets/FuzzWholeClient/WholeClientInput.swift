// The fuzz input read as a run: the requests the client makes and the server's script.
//
// Layout:
//   byte 0: bits 0-1 requests - 1 (1 to 4); bit 2 decode bodies; bit 3 one connection per origin
//           (else 4); bits 4-5 read size (4096, 64, 7, 1); bits 6-7 write mode (all, 5 bytes a
//           call, would-block every other call, 1 byte a call)
//   byte 1: two bits per request: GET, HEAD, POST (3-byte body), DELETE
//   byte 2: bits 0-3 origin per request (a.test or b.test); bit 4 no automatic gates
//   byte 3: n = entries (0 to 31), then n (advance, action) pairs: the action happens at the
//           stream offset advanced so far: 0 split the read there, 1 gate (what follows waits for
//           one more request head on the connection), 2 end the connection there with EOF, 3 with
//           a reset (what follows goes to the next connection the pool dials)
//   the rest: the server's byte stream, responses back to back as in the golden fixtures.
//
// Automatic gates (unless bit 4 of byte 2): the reference reader finds where each response of
// the stream ends, taking the requests' methods in order, and puts a gate there, so that
// keep-alive reuse happens without the input having to place them.

/// One request the run makes.
struct PlannedRequest {
    let method: String
    let url: String
    let body: [UInt8]?
}

/// The input as a run.
struct WholeClientInput {
    let requests: [PlannedRequest]
    let decodesBodies: Bool
    let oneConnectionPerOrigin: Bool
    let server: ServerPlan

    /// Nil when the input is shorter than its fixed bytes.
    init?(_ input: [UInt8]) {
        guard input.count >= 4 else { return nil }
        let (config, methods, origins) = (input[0], input[1], input[2])
        let methodNames = ["GET", "HEAD", "POST", "DELETE"]
        requests = (0...Int(config & 3)).map { index in
            let method = methodNames[Int(methods >> (2 * index) & 3)]
            let host = origins >> index & 1 == 0 ? "a.test" : "b.test"
            return PlannedRequest(
                method: method, url: "http://\(host)/r\(index)", body: method == "POST" ? Array("x=1".utf8) : nil)
        }
        decodesBodies = config & 4 != 0
        oneConnectionPerOrigin = config & 8 != 0
        let entryCount = Int(input[3] & 31)
        let streamStart = min(input.count, 4 + 2 * entryCount)
        let stream = input[streamStart...]
        var actions: [(offset: Int, action: UInt8)] = []
        var offset = 0
        var index = 4
        while index + 1 < streamStart {
            offset = min(stream.count, offset + Int(input[index]))
            actions.append((offset, input[index + 1] & 3))
            index += 2
        }
        if origins & 16 == 0 {
            actions += Self.responseEnds(in: Array(stream), methods: requests.map(\.method)).map { ($0, 1) }
        }
        server = ServerPlan(
            readSize: [4096, 64, 7, 1][Int(config >> 4 & 3)], writeMode: Int(config >> 6),
            scripts: Self.scripts(Array(stream), actions: actions.sorted { $0.offset < $1.offset }))
    }

    /// Where each response ends when the stream is read as the responses to `methods`, in order,
    /// as far as the reference reader is sure.
    private static func responseEnds(in stream: [UInt8], methods: [String]) -> [Int] {
        let reader = ReferenceResponseReader(bytes: stream, endedWithEOF: true)
        var ends: [Int] = []
        var start = 0
        for method in methods {
            guard let response = reader.response(to: method, at: start), response.isComplete,
                !response.closesConnection, response.end < stream.count
            else { break }
            ends.append(response.end)
            start = response.end
        }
        return ends
    }

    /// Cuts the stream into the connections' scripts at the actions' offsets.
    private static func scripts(_ stream: [UInt8], actions: [(offset: Int, action: UInt8)]) -> [ConnectionScript] {
        var scripts: [ConnectionScript] = []
        var current = ConnectionScript()
        var gate = 1
        var start = 0
        func cut(at offset: Int) {
            if offset > start { current.chunks.append(.init(bytes: stream[start..<offset], gate: gate)) }
            start = offset
        }
        for (offset, action) in actions {
            cut(at: offset)
            switch action {
            case 1: gate += 1
            case 2, 3:
                current.ending = action == 2 ? .endOfFile : .reset
                current.endGate = gate
                scripts.append(current)
                current = ConnectionScript()
                gate = 1
            default: break
            }
        }
        cut(at: stream.count)
        current.endGate = gate
        scripts.append(current)
        return scripts
    }
}
