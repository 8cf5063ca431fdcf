// Runs an HTTP1ConnectionDriver over a loopback connection and records what it reports.
import Synchronization
import WickCore
import WickHTTP1
import WickPool
import WickReactor
import WickTLS

@testable import WickTransport

/// What one request on the driver produced.
struct DriverOutcome: Sendable {
    var status: Int?
    var body: [UInt8] = []
    var trailers: HTTPHeaders?
    var requestSent = false
    var pausedReading = false
    var responseStarted = false
    var failure: HTTP1ConnectionError?
    var facts: HTTP1ExchangeFacts?
    var bodySourceFailed = false
    /// `responseReadComplete` calls, and `responseBody` calls not followed by one yet.
    var readCompletes = 0
    var bodyPartsSinceReadComplete = 0
    /// `responseBody` calls whose bytes lay in the memory `responseBodyDestination` lent.
    var inPlaceParts = 0
    /// The body as the consumer's `CollectedBody` holds it, when it lent memory to reads.
    var collected: [UInt8]?
}

/// Collects one request's response on the driver's loop and hands it over when it finishes.
final class RecordingConsumer: HTTP1ResponseConsumer, @unchecked Sendable {
    // Loop-confined: every call comes from the driver on its loop; `deliver` hands the outcome
    // across threads once.
    private var outcome = DriverOutcome()
    private let deliver: @Sendable (DriverOutcome) -> Void
    /// Cancel the request once this many body bytes arrived.
    private let cancelAfterBodyBytes: Int?
    /// Say the consumer is full once this many body bytes arrived, and take more after `pause`.
    private let pauseAfterBodyBytes: Int?
    private let pause: Duration
    private var hasPaused = false
    /// Lends memory to reads when set, as `TransportExchange` does.
    private let readsInPlace: Bool
    private var landing = CollectedBody()
    private var lentAt: UnsafeMutableRawPointer?
    weak var driver: HTTP1ConnectionDriver?

    init(
        cancelAfterBodyBytes: Int?, pauseAfterBodyBytes: Int?, pause: Duration, inPlaceCapacity: Int? = nil,
        deliver: @escaping @Sendable (DriverOutcome) -> Void
    ) {
        self.cancelAfterBodyBytes = cancelAfterBodyBytes
        self.pauseAfterBodyBytes = pauseAfterBodyBytes
        self.pause = pause
        self.deliver = deliver
        readsInPlace = inPlaceCapacity != nil
        if let inPlaceCapacity { landing.reserveCapacity(inPlaceCapacity) }
    }

    func responseBodyDestination(maximum: Int) -> UnsafeMutableRawBufferPointer? {
        guard readsInPlace else { return nil }
        let lent = landing.spareCapacity(maximum: maximum)
        lentAt = lent?.baseAddress
        return lent
    }

    func requestSent() { outcome.requestSent = true }
    func responseStarted() { outcome.responseStarted = true }
    func responseHead(_ head: HTTPResponseHead, isBodyDecoded: Bool) { outcome.status = head.status.rawValue }
    func responseBody(_ bytes: UnsafeRawBufferPointer) {
        if readsInPlace {
            if let lentAt, bytes.baseAddress == UnsafeRawPointer(lentAt) { outcome.inPlaceParts += 1 }
            lentAt = nil
            landing.append(bytes)
        }
        outcome.body += bytes
        outcome.bodyPartsSinceReadComplete += 1
        if let limit = cancelAfterBodyBytes, outcome.body.count >= limit { driver?.cancelRequest() }
        if let limit = pauseAfterBodyBytes, outcome.body.count >= limit, !hasPaused, let driver {
            hasPaused = true
            outcome.pausedReading = true
            driver.consumerBecameFull()
            driver.channel.loop.schedule(after: pause) { driver.consumerWantsMore() }
        }
    }
    func responseReadComplete() {
        outcome.readCompletes += 1
        outcome.bodyPartsSinceReadComplete = 0
    }
    func responseTrailers(_ fields: HTTPFieldList) { outcome.trailers = fields.headers }
    func requestBodyFailed(_ error: any Error) {
        outcome.bodySourceFailed = true
        driver?.cancelRequest()
    }
    func requestFinished(failure: HTTP1ConnectionError?, facts: HTTP1ExchangeFacts) {
        outcome.failure = failure
        outcome.facts = facts
        if readsInPlace { outcome.collected = Array(landing.take()) }
        deliver(outcome)
    }
}

/// A driver on a connection to `127.0.0.1:port`, playing its owner.
final class DriverHarness: HTTP1ConnectionDriverOwner, @unchecked Sendable {
    struct OwnerEvents: Sendable {
        var released = 0
        var keepAlive: KeepAliveHint?
        var closed = false
        var closeError: StreamChannelError?
    }

    let group: EventLoopGroup
    let loop: EventLoop
    /// Set once on the loop in `connect`; used only on the loop.
    private var driver: HTTP1ConnectionDriver?
    private let events = Locked(OwnerEvents())

    private init(group: EventLoopGroup) {
        self.group = group
        loop = group.loops[0]
    }

    static func connect(port: Int, settings: HTTP1ConnectionDriver.Settings = .init()) async throws -> DriverHarness {
        let group = try EventLoopGroup(threadCount: 1)
        let harness = DriverHarness(group: group)
        let channel = try await Connector(resolver: group.resolver).connect(
            host: "127.0.0.1", port: UInt16(port), on: harness.loop)
        try await harness.loop.submit {
            let driver = HTTP1ConnectionDriver(channel: channel, settings: settings, owner: harness)
            harness.driver = driver
            driver.start()
        }
        return harness
    }

    /// Runs one request and waits for its `requestFinished`.
    func run(
        _ method: HTTPMethod = .get, _ path: String = "/", headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]? = nil,
        expectContinue: Bool = false, deadline: Deadline = .distantFuture, cancelAfterBodyBytes: Int? = nil,
        pauseAfterBodyBytes: Int? = nil, pause: Duration = .zero, inPlaceCapacity: Int? = nil
    ) async -> DriverOutcome {
        let head = HTTPRequestHead(
            method: method, target: .origin(path), host: "127.0.0.1", headers: headers,
            framing: body.map { .contentLength($0.count) } ?? .none)
        let request = HTTP1ConnectionRequest(head: head, expectContinue: expectContinue)
        let box = Locked<DriverOutcome?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute { [self] in
                let consumer = RecordingConsumer(
                    cancelAfterBodyBytes: cancelAfterBodyBytes, pauseAfterBodyBytes: pauseAfterBodyBytes, pause: pause,
                    inPlaceCapacity: inPlaceCapacity
                ) { outcome in
                    box.withLock { $0 = outcome }
                    continuation.resume()
                }
                consumer.driver = driver
                driver!.execute(request, body: body ?? [], deadline: deadline, consumer: consumer)
            }
        }
        return box.withLock { $0! }
    }

    /// The owner's view so far.
    var ownerEvents: OwnerEvents { events.withLock { $0 } }

    /// Waits (bounded) until `condition` holds for the owner's view.
    func waitFor(_ condition: (OwnerEvents) -> Bool, timeout: Duration = .seconds(10)) async throws -> Bool {
        let end = Deadline.now() + timeout
        while !end.hasPassed(at: .now()) {
            if condition(ownerEvents) { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return condition(ownerEvents)
    }

    /// Closes the connection and stops the loop.
    func shutdown() async {
        _ = try? await loop.submit { [self] in driver?.close() }
        group.shutdownGracefully()
    }

    func connectionReleased(_ driver: HTTP1ConnectionDriver, keepAlive: KeepAliveHint?) {
        events.withLock {
            $0.released += 1
            $0.keepAlive = keepAlive
        }
    }

    func connectionClosed(_ driver: HTTP1ConnectionDriver, error: StreamChannelError?) {
        events.withLock {
            $0.closed = true
            $0.closeError = error
        }
    }
}
