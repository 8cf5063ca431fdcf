// Request encoder: an origin-form target and Host value checked once, when their destination was
// read, are not checked again; only pairs that pass every check are vetted, the form must still
// suit the method, and any change to the head clears the mark.
import Testing
import WickCore

@testable import WickHTTP1

@Suite struct HTTPRequestEncoderVettedOriginTests {
    @Test func aVettedOriginIsWrittenAsTheSameOriginChecked() throws {
        #expect(HTTPRequestEncoder.isVettedOrigin(target: "/a/b?c=d", host: "example.com:8080"))
        let head = HTTPRequestHead(method: .get, target: .origin("/a/b?c=d"), host: "example.com:8080")
        var checked: [UInt8] = []
        var vetted: [UInt8] = []
        try HTTPRequestEncoder.encodeHead(head, into: &checked)
        try HTTPRequestEncoder.encodeHead(head, vettedOriginTargetAndHost: true, into: &vetted)
        #expect(vetted == checked)
    }

    @Test(arguments: [
        ("/a b", "h"), ("/a\r\nX: 1", "h"), ("a", "h"), ("", "h"), ("/a\u{0}", "h"), ("/", "h\r\nX: 1"),
        ("/", "h\u{7F}"),
    ])
    func anOriginTheEncoderWouldRefuseIsNotVetted(target: String, host: String) {
        #expect(!HTTPRequestEncoder.isVettedOrigin(target: target, host: host))
        var buffer: [UInt8] = []
        #expect(throws: HTTPRequestEncodingError.self) {
            try HTTPRequestEncoder.encodeHead(
                HTTPRequestHead(method: .get, target: .origin(target), host: host), into: &buffer)
        }
    }

    @Test func theFormMustStillSuitTheMethod() {
        var buffer: [UInt8] = []
        #expect(throws: HTTPRequestEncodingError.targetFormMismatch(method: .connect)) {
            try HTTPRequestEncoder.encodeHead(
                HTTPRequestHead(method: .connect, target: .origin("/"), host: "h"), vettedOriginTargetAndHost: true,
                into: &buffer)
        }
    }

    @Test func onlyAnOriginFormTargetIsTakenAsVetted() {
        // The mark speaks of an origin-form target; an absolute one (a proxy's) is checked.
        var buffer: [UInt8] = []
        #expect(throws: HTTPRequestEncodingError.self) {
            try HTTPRequestEncoder.encodeHead(
                HTTPRequestHead(method: .get, target: .absolute("http://h/a b"), host: "h"),
                vettedOriginTargetAndHost: true, into: &buffer)
        }
    }

    @Test func aChangedHeadIsCheckedAgain() {
        var request = HTTP1ConnectionRequest(head: HTTPRequestHead(method: .get, target: .origin("/"), host: "h"))
        request.hasVettedOriginTargetAndHost = true
        request.head.target = .origin("/a b")
        #expect(!request.hasVettedOriginTargetAndHost)
        var machine = HTTP1ConnectionStateMachine()
        guard case .finishRequest(let completion) = machine.startRequest(request) else {
            Issue.record("a head with a space in its target was written")
            return
        }
        guard case .requestHeadRefused = completion.failure else {
            Issue.record("refused for another reason: \(String(describing: completion.failure))")
            return
        }
    }
}
