// A mock connection driver that plays the world for the connection state machine and rejects
// every action a real driver could not perform (writing after close, releasing twice, ...).
import Testing
import WickCore
import WickTestSupport

@testable import WickHTTP1

/// A transport error for the failure inputs.
struct MockTransportError: Error, Equatable, Sendable {
    let name: String
}

/// Performs `HTTP1ConnectionStateMachine`'s actions on a pretend socket, producer, timer and
/// consumer. Every action that a real driver could not perform in the current world is recorded
/// in `violations`; tests expect it empty.
final class MockConnectionDriver {
    enum Producer: Equatable {
        case notStarted, producing, paused, stopped, finished
    }

    var machine: HTTP1ConnectionStateMachine
    /// nil while open.
    var closeReason: HTTP1CloseReason?
    var isRequestActive = false
    var requestsStarted = 0
    /// Every byte written, in order, across requests.
    var wire: [UInt8] = []
    /// Where the current request's bytes start in `wire`.
    var requestWireStart = 0
    /// Bytes written but not yet reported with `requestBytesWritten`.
    var unflushed = 0
    var producer = Producer.notStarted
    var isTimerScheduled = false
    var timersScheduled = 0
    var timersCancelled = 0
    var timersFired = 0
    var isReadingPaused = false
    var head: HTTPResponseHead?
    var isBodyDecoded = false
    var body: [UInt8] = []
    var trailers: HTTPHeaders?
    var isRequestFullySent = false
    var completions: [HTTP1RequestCompletion] = []
    var releases = 0
    var violations: [String] = []
    /// Called after each body piece is handed over, as a consumer reacting synchronously would.
    var whenBodyArrives: ((MockConnectionDriver) -> Void)?

    init(isWritable: Bool = true, parserConfiguration: HTTPParserConfiguration = .strict) {
        machine = HTTP1ConnectionStateMachine(parserConfiguration: parserConfiguration, isWritable: isWritable)
    }

    var isClosed: Bool { closeReason != nil }
    // The machine is noncopyable, so `#expect` cannot look into it; these read it for tests.
    var isMachineIdle: Bool { machine.isIdle }
    var isMachineClosed: Bool { machine.isClosed }
    var currentFacts: HTTP1ExchangeFacts? { machine.currentFacts }
    var decoderIdentity: ObjectIdentifier? { machine.decoder.map(ObjectIdentifier.init) }
    var encodeBufferAddress: UnsafePointer<UInt8>? { machine.encodeBuffer.withUnsafeBufferPointer { $0.baseAddress } }
    var lastCompletion: HTTP1RequestCompletion? { completions.last }
    /// The current (or last) request's bytes on the wire.
    var requestWire: [UInt8] { Array(wire[requestWireStart...]) }
    var bodyText: String { String(decoding: body, as: UTF8.self) }

    func reject(_ message: String) {
        violations.append(message)
    }

    // MARK: Events

    func start(_ request: HTTP1ConnectionRequest) {
        if isClosed || isRequestActive { reject("start on a connection that is closed or busy") }
        flush()  // the previous request's bytes went out before this one
        isRequestActive = true
        requestsStarted += 1
        requestWireStart = wire.count
        producer = .notStarted
        head = nil
        isBodyDecoded = false
        body = []
        trailers = nil
        isRequestFullySent = false
        perform(machine.startRequest(request))
    }

    func offer(_ part: [UInt8]) {
        if producer != .producing && producer != .paused { reject("offer while the producer is \(producer)") }
        perform(machine.requestBodyPartAvailable(byteCount: part.count), part: part)
    }

    func endBody(trailers: HTTPHeaders = HTTPHeaders()) {
        if producer != .producing && producer != .paused { reject("end while the producer is \(producer)") }
        perform(machine.requestBodyEnded(trailers: trailers))
    }

    func read(_ bytes: some Collection<UInt8>) {
        if isClosed { reject("read after close") }
        if isReadingPaused { reject("read while reading is paused") }
        Array(bytes).withUnsafeBytes { buffer in
            var steps = 0
            while let action = machine.bytesRead(buffer) {
                perform(action, buffer: buffer)
                steps += 1
                precondition(steps <= 10_000, "bytesRead never returned nil")
            }
        }
    }

    func eof() {
        if isClosed { reject("EOF after close") }
        perform(machine.eofRead())
    }

    func setWritable(_ writable: Bool) {
        perform(machine.channelWritabilityChanged(isWritable: writable))
    }

    func fireTimer() {
        if !isTimerScheduled { reject("timer fired but none is scheduled") }
        isTimerScheduled = false
        timersFired += 1
        perform(machine.continueTimerFired())
    }

    func flush() {
        machine.requestBytesWritten(unflushed)
        unflushed = 0
    }

    func cancel() { perform(machine.requestCancelled()) }
    func failWrite() { perform(machine.writeFailed(MockTransportError(name: "EPIPE"))) }
    func failConnection() { perform(machine.connectionFailed(MockTransportError(name: "ECONNRESET"))) }
    func consumerFull() { perform(machine.responseConsumerBecameFull()) }
    func demandMore() { perform(machine.demandMoreResponseBody()) }

    // MARK: Actions

    func write(_ bytes: some Collection<UInt8>) {
        if isClosed { reject("write after close") }
        if !isRequestActive { reject("write with no request in progress") }
        wire.append(contentsOf: bytes)
        unflushed += bytes.count
    }

    func cancelTimer() {
        if !isTimerScheduled { reject("cancel of a timer that is not scheduled") }
        isTimerScheduled = false
        timersCancelled += 1
    }

    func stopProducer() {
        if producer == .stopped || producer == .finished { reject("stop of a producer that is \(producer)") }
        producer = .stopped
    }

    func perform(_ action: HTTP1ConnectionAction, part: [UInt8]? = nil, buffer: UnsafeRawBufferPointer? = nil) {
        if isClosed, case .none = action {} else if isClosed { reject("\(action) after close") }
        switch action {
        case .none:
            break
        case .writeRequestHead(let bytes, let startBody, let scheduleContinueTimer):
            write(bytes)
            if startBody { producer = .producing }
            if scheduleContinueTimer {
                if isTimerScheduled { reject("timer scheduled twice") }
                isTimerScheduled = true
                timersScheduled += 1
            }
            if !startBody && !scheduleContinueTimer && machine.isRequestHandedOver { isRequestFullySent = true }
        case .writeRequestBodyPart(let before, let after):
            guard let part else { return reject("writeRequestBodyPart without a part offered") }
            write(before)
            write(part)
            write(after)
        case .writeRequestEnd(let bytes):
            write(bytes)
            producer = .finished
            isRequestFullySent = true
        case .produceRequestBody(let cancelContinueTimer):
            if cancelContinueTimer { cancelTimer() }
            if producer != .notStarted && producer != .paused { reject("produce while the producer is \(producer)") }
            producer = .producing
        case .pauseRequestBody:
            if producer != .producing { reject("pause while the producer is \(producer)") }
            producer = .paused
        case .stopRequestBody(let cancelContinueTimer):
            if cancelContinueTimer { cancelTimer() }
            stopProducer()
        case .cancelContinueTimer:
            cancelTimer()
        case .forwardResponseHead(let head, let isBodyDecoded, let stopRequestBody, let cancelContinueTimer):
            if cancelContinueTimer { cancelTimer() }
            if stopRequestBody { stopProducer() }
            if self.head != nil { reject("second response head") }
            if !isRequestActive { reject("response head with no request") }
            self.head = head
            self.isBodyDecoded = isBodyDecoded
        case .forwardResponseBody(let bytes):
            if head == nil { reject("body before head") }
            switch bytes {
            case .inReadBuffer(let range):
                guard let buffer else { return reject("inReadBuffer outside a read") }
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[range]))
            case .decoded(let slice):
                body.append(contentsOf: slice)
            }
            whenBodyArrives?(self)
        case .forwardResponseTrailers(let fields):
            if head == nil || trailers != nil { reject("trailers out of place") }
            trailers = fields.headers
        case .pauseReading:
            if isReadingPaused { reject("pause reading twice") }
            isReadingPaused = true
        case .resumeReading:
            if !isReadingPaused { reject("resume reading that is not paused") }
            isReadingPaused = false
        case .finishRequest(let completion):
            finish(completion)
        case .closeConnection(let reason):
            if isRequestActive { reject("closeConnection while a request is in progress") }
            closeReason = reason
        }
    }

    func finish(_ completion: HTTP1RequestCompletion) {
        if !isRequestActive { reject("a request finished twice (or never started)") }
        isRequestActive = false
        completions.append(completion)
        if completion.cancelContinueTimer { cancelTimer() }
        if completion.stopRequestBody { stopProducer() }
        if isTimerScheduled { reject("request finished with the continue timer still scheduled") }
        if producer == .producing || producer == .paused { reject("request finished with the producer running") }
        switch completion.connection {
        case .release(let resumeReading):
            if completion.failure == nil && (head == nil || !isRequestFullySent) {
                reject("released without a complete response and a fully sent request")
            }
            if let head,
                head.framing == .untilClose || head.fields.firstValue(forName: "Connection", equals: "close")
                    || (head.version.minor == 0 && !head.fields.firstValue(forName: "Connection", equals: "keep-alive"))
            {
                reject("released after a response that forbids reuse")
            }
            if resumeReading != isReadingPaused {
                reject("release resumeReading \(resumeReading), paused \(isReadingPaused)")
            }
            isReadingPaused = false
            releases += 1
        case .close(let reason):
            closeReason = reason
        }
    }
}

extension HTTP1ConnectionStateMachine {
    /// Whether the request in progress has been handed to the driver in full.
    var isRequestHandedOver: Bool {
        guard case .exchanging(let exchange) = state, case .sent = exchange.request else { return false }
        return true
    }
}

// MARK: - Request and response builders shared by the connection tests

enum Wire {
    static func get(_ path: String = "/", headers: HTTPHeaders = HTTPHeaders(), method: HTTPMethod = .get)
        -> HTTP1ConnectionRequest
    {
        HTTP1ConnectionRequest(
            head: HTTPRequestHead(method: method, target: .origin(path), host: "example.com", headers: headers))
    }

    static func post(
        _ framing: HTTPRequestFraming,
        expectContinue: Bool = false,
        decoding: ContentDecoderLimits? = nil
    ) -> HTTP1ConnectionRequest {
        HTTP1ConnectionRequest(
            head: HTTPRequestHead(method: .post, target: .origin("/upload"), host: "example.com", framing: framing),
            expectContinue: expectContinue,
            decoding: decoding
        )
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let ok = bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
    static let continue100 = bytes("HTTP/1.1 100 Continue\r\n\r\n")
}

@Suite struct HTTP1ConnectionMockTests {
    @Test func mockRejectsWritingAfterClose() {
        let driver = MockConnectionDriver()
        driver.perform(.closeConnection(.closedByServer))
        driver.perform(.writeRequestEnd([1, 2][...]))
        #expect(driver.violations.contains { $0.contains("after close") })
    }

    @Test func mockRejectsReleasingTwice() {
        let driver = MockConnectionDriver()
        driver.start(Wire.get())
        driver.read(Wire.ok)
        #expect(driver.violations.isEmpty)
        driver.perform(.finishRequest(driver.completions[0]))
        #expect(driver.violations.contains { $0.contains("finished twice") })
    }

    @Test func mockRejectsAReleaseWithoutAResponse() {
        let driver = MockConnectionDriver()
        driver.start(Wire.get())
        let completion = HTTP1RequestCompletion(
            stopRequestBody: false,
            cancelContinueTimer: false,
            failure: nil,
            facts: HTTP1ExchangeFacts(connectionWasReused: false, requestBytesWritten: 0, responseBytesReceived: 0),
            connection: .release(resumeReading: false)
        )
        driver.perform(.finishRequest(completion))
        #expect(driver.violations.contains { $0.contains("without a complete response") })
    }
}
