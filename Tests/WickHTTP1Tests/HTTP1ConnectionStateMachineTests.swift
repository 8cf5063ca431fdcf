// The connection state machine's rules, one test each, played against the mock driver; response
// paths run under every delivery of the response bytes.
import Testing
import WickCore
import WickTestSupport

@testable import WickHTTP1

@Suite struct HTTP1ConnectionStateMachineTests {
    /// Runs a fresh connection per delivery of `response`: `setUp` starts the request, every
    /// piece is read (then EOF if asked) until the connection closes, and `check` looks at the
    /// result.
    static func everyDelivery(
        of response: [UInt8],
        thenEOF: Bool = false,
        setUp: (MockConnectionDriver) -> Void,
        check: (MockConnectionDriver, Delivery) -> Void
    ) {
        for delivery in Delivery.all(of: response) {
            let driver = MockConnectionDriver()
            setUp(driver)
            // A driver stops reading once it has closed the connection.
            for piece in delivery.pieces where !driver.isClosed { driver.read(piece) }
            if thenEOF && !driver.isClosed { driver.eof() }
            #expect(driver.violations.isEmpty, "\(delivery): \(driver.violations)")
            check(driver, delivery)
        }
    }

    static func failure(_ driver: MockConnectionDriver) -> HTTP1ConnectionError? {
        driver.lastCompletion?.failure
    }

    // MARK: Rule 1: one request at a time; release after a complete response

    @Test func getIsWrittenAndItsResponseReleasesTheConnection() {
        Self.everyDelivery(of: Wire.ok, setUp: { $0.start(Wire.get("/a")) }) { driver, delivery in
            #expect(driver.requestWire == Wire.bytes("GET /a HTTP/1.1\r\nHost: example.com\r\n\r\n"), "\(delivery)")
            #expect(driver.head?.status == .ok, "\(delivery)")
            #expect(driver.bodyText == "hello", "\(delivery)")
            #expect(driver.completions.count == 1, "\(delivery)")
            #expect(driver.lastCompletion?.failure == nil, "\(delivery)")
            #expect(driver.lastCompletion?.connection == .release(resumeReading: false), "\(delivery)")
            #expect(driver.isMachineIdle, "\(delivery)")
        }
    }

    @Test func aReleasedConnectionCarriesTheNextRequestAsReused() {
        let driver = MockConnectionDriver()
        driver.start(Wire.get())
        #expect(driver.currentFacts?.connectionWasReused == false)
        driver.read(Wire.ok)
        driver.start(Wire.get("/second"))
        #expect(driver.currentFacts?.connectionWasReused == true)
        driver.read(Wire.bytes("HTTP/1.1 204 No Content\r\n\r\n"))
        #expect(driver.violations.isEmpty)
        #expect(driver.releases == 2)
        #expect(driver.lastCompletion?.facts.connectionWasReused == true)
    }

    @Test func bodyBytesAreRangesOfTheReadBufferWithoutDecoding() {
        let driver = MockConnectionDriver()
        driver.start(Wire.get())
        let response = Wire.ok
        response.withUnsafeBytes { buffer in
            var ranges: [Range<Int>] = []
            while let action = driver.machine.bytesRead(buffer) {
                if case .forwardResponseBody(.inReadBuffer(let range)) = action { ranges.append(range) }
            }
            #expect(ranges == [(response.count - 5)..<response.count])
        }
    }

    @Test func headResponseEndsAtItsHead() {
        let response = Wire.bytes("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
        Self.everyDelivery(of: response, setUp: { $0.start(Wire.get(method: .head)) }) { driver, delivery in
            #expect(driver.head?.framing == HTTPBodyFraming.none, "\(delivery)")
            #expect(driver.body.isEmpty, "\(delivery)")
            #expect(driver.lastCompletion?.connection == .release(resumeReading: false), "\(delivery)")
        }
    }

    @Test func chunkedResponseTrailersAreForwarded() {
        let response = Wire.bytes(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\nX-Sum: 5\r\n\r\n")
        Self.everyDelivery(of: response, setUp: { $0.start(Wire.get()) }) { driver, delivery in
            #expect(driver.bodyText == "abcde", "\(delivery)")
            #expect(driver.trailers?.value(for: "X-Sum") == "5", "\(delivery)")
            #expect(driver.lastCompletion?.connection == .release(resumeReading: false), "\(delivery)")
        }
    }

    /// RFC 9112 §5.2 ("A user agent that receives an obs-fold in a response message ... MUST
    /// replace each received obs-fold with one or more SP octets prior to interpreting the field
    /// value") applies to the trailer section as well (§7.1.2): a folded trailer after a body
    /// that arrived whole completes the response and releases the connection.
    @Test func foldedTrailerCompletesAWholeBody() {
        let response = Wire.bytes(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Sum: 1\r\n\t2\r\n\r\n")
        Self.everyDelivery(of: response, setUp: { $0.start(Wire.get()) }) { driver, delivery in
            #expect(driver.bodyText == "abc", "\(delivery)")
            #expect(driver.trailers?.value(for: "X-Sum") == "1   2", "\(delivery)")
            #expect(driver.lastCompletion?.connection == .release(resumeReading: false), "\(delivery)")
        }
    }

    // MARK: Rule 2: unsolicited bytes and closes while idle

    @Test func bytesWhileIdleCloseTheConnection() {
        let driver = MockConnectionDriver()
        driver.read(Wire.bytes("HTTP/1.1 200 OK\r\n"))
        #expect(driver.closeReason == .unsolicitedBytes)
        #expect(driver.isMachineClosed)
        #expect(driver.violations.isEmpty)

        let afterRequest = MockConnectionDriver()
        afterRequest.start(Wire.get())
        afterRequest.read(Wire.ok)
        afterRequest.read([0x48])
        #expect(afterRequest.closeReason == .unsolicitedBytes)
        #expect(afterRequest.violations.isEmpty)
    }

    @Test func anEmptyReadWhileIdleIsNothing() {
        let driver = MockConnectionDriver()
        driver.read([UInt8]())
        #expect(!driver.isClosed)
        #expect(driver.isMachineIdle)
    }

    @Test func eofOrAnErrorWhileIdleCloseTheConnection() {
        let eof = MockConnectionDriver()
        eof.eof()
        #expect(eof.closeReason == .closedByServer)
        let error = MockConnectionDriver()
        error.failConnection()
        #expect(error.closeReason == .transportFailed)
        #expect(eof.violations.isEmpty && error.violations.isEmpty)
    }

    // MARK: Rule 3: the request body

    @Test func contentLengthBodyIsWrittenAsIs() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(7)))
        #expect(driver.producer == .producing)
        driver.offer(Wire.bytes("abc"))
        driver.offer([])
        driver.offer(Wire.bytes("defg"))
        driver.endBody()
        #expect(
            driver.requestWire
                == Wire.bytes("POST /upload HTTP/1.1\r\nHost: example.com\r\nContent-Length: 7\r\n\r\nabcdefg"))
        driver.read(Wire.ok)
        #expect(driver.lastCompletion?.connection == .release(resumeReading: false))
        #expect(driver.violations.isEmpty)
    }

    @Test func chunkedBodyIsFramedAndEndsWithTrailers() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.chunked))
        driver.offer(Wire.bytes("hello world, seventeen"))
        driver.offer(Wire.bytes("!"))
        driver.endBody(trailers: ["X-Checksum": "42"])
        let expected =
            "POST /upload HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "16\r\nhello world, seventeen\r\n1\r\n!\r\n0\r\nX-Checksum: 42\r\n\r\n"
        #expect(driver.requestWire == Wire.bytes(expected))
        driver.read(Wire.ok)
        #expect(driver.releases == 1)
        #expect(driver.violations.isEmpty)
    }

    @Test func aBodyLongerThanItsContentLengthFails() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(3)))
        driver.offer(Wire.bytes("ab"))
        driver.offer(Wire.bytes("cd"))
        guard case .requestBodyTooLong(declared: 3, offered: 4) = Self.failure(driver) else {
            Issue.record("expected requestBodyTooLong, got \(String(describing: Self.failure(driver)))")
            return
        }
        #expect(driver.lastCompletion?.stopRequestBody == true)
        #expect(driver.closeReason == .requestFailed)
        #expect(driver.violations.isEmpty)
    }

    @Test func aBodyShorterThanItsContentLengthFails() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(3)))
        driver.offer(Wire.bytes("ab"))
        driver.endBody()
        guard case .requestBodyTooShort(declared: 3, sent: 2) = Self.failure(driver) else {
            Issue.record("expected requestBodyTooShort, got \(String(describing: Self.failure(driver)))")
            return
        }
        #expect(driver.closeReason == .requestFailed)
        #expect(driver.violations.isEmpty)
    }

    @Test func trailersNeedAChunkedBody() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(1)))
        driver.offer([0x61])
        driver.endBody(trailers: ["X-A": "1"])
        guard case .trailersNeedChunkedBody = Self.failure(driver) else {
            Issue.record("expected trailersNeedChunkedBody, got \(String(describing: Self.failure(driver)))")
            return
        }
        #expect(driver.closeReason == .requestFailed)
    }

    @Test func refusedTrailersFailAndClose() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.chunked))
        driver.offer([0x61])
        driver.endBody(trailers: ["Content-Length": "1"])
        guard case .requestTrailersRefused(.forbiddenTrailer(index: 0)) = Self.failure(driver) else {
            Issue.record("expected requestTrailersRefused, got \(String(describing: Self.failure(driver)))")
            return
        }
        #expect(driver.closeReason == .requestFailed)
        #expect(driver.violations.isEmpty)
    }

    @Test func aRefusedHeadFailsAndReleasesTheConnectionUnwritten() {
        let driver = MockConnectionDriver()
        driver.start(Wire.get(headers: ["X-Bad": "a\r\nInjected: 1"]))
        guard
            case .requestHeadRefused(.invalidByte(0x0D, field: .headerValue(index: 0), offset: 1)) = Self.failure(
                driver)
        else {
            Issue.record("expected requestHeadRefused, got \(String(describing: Self.failure(driver)))")
            return
        }
        #expect(driver.wire.isEmpty)
        #expect(driver.lastCompletion?.connection == .release(resumeReading: false))
        #expect(driver.isMachineIdle)
        driver.start(Wire.get())
        driver.read(Wire.ok)
        #expect(driver.releases == 2)
        #expect(driver.violations.isEmpty)
    }

    @Test func theProducerFollowsWritability() {
        let driver = MockConnectionDriver(isWritable: false)
        driver.start(Wire.post(.contentLength(4)))
        #expect(driver.producer == .notStarted)
        driver.setWritable(true)
        #expect(driver.producer == .producing)
        driver.offer(Wire.bytes("ab"))
        driver.setWritable(false)
        #expect(driver.producer == .paused)
        driver.offer(Wire.bytes("c"))  // in flight when the pause came: still written
        driver.setWritable(false)
        driver.setWritable(true)
        #expect(driver.producer == .producing)
        driver.offer(Wire.bytes("d"))
        driver.endBody()
        #expect(driver.requestWire.suffix(4) == Wire.bytes("abcd")[...])
        driver.read(Wire.ok)
        #expect(driver.releases == 1)
        #expect(driver.violations.isEmpty)
    }

    @Test func writabilityWithoutABodyIsNothing() {
        let driver = MockConnectionDriver()
        driver.setWritable(false)
        driver.start(Wire.get())
        driver.setWritable(true)
        #expect(driver.producer == .notStarted)
        driver.read(Wire.ok)
        #expect(driver.violations.isEmpty)
    }

    // MARK: Rule 4: Expect: 100-continue

    @Test func continueReleasesTheBody() {
        // 100 and the final 200 arrive before the producer offers anything: the body is
        // released at 100, the 2xx lets it continue, and the response ends before it went out.
        Self.everyDelivery(
            of: Wire.continue100 + Wire.ok,
            setUp: { driver in
                driver.start(Wire.post(.contentLength(2), expectContinue: true))
            }
        ) { driver, delivery in
            #expect(driver.timersScheduled == 1 && driver.timersCancelled == 1, "\(delivery)")
            #expect(driver.bodyText == "hello", "\(delivery)")
            #expect(driver.lastCompletion?.stopRequestBody == true, "\(delivery)")
            #expect(driver.closeReason == .requestBodyUnsent, "\(delivery)")
        }

        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(2), expectContinue: true))
        #expect(
            driver.requestWire
                == Wire.bytes(
                    "POST /upload HTTP/1.1\r\nHost: example.com\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"))
        #expect(driver.producer == .notStarted)
        #expect(driver.isTimerScheduled)
        for byte in Wire.continue100 { driver.read([byte]) }
        #expect(!driver.isTimerScheduled)
        #expect(driver.producer == .producing)
        driver.offer(Wire.bytes("hi"))
        driver.endBody()
        driver.read(Wire.ok)
        #expect(driver.lastCompletion?.connection == .release(resumeReading: false))
        #expect(driver.violations.isEmpty)
    }

    @Test func continueWhileNotWritableCancelsTheTimerAndWaits() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.chunked, expectContinue: true))
        driver.setWritable(false)
        driver.read(Wire.continue100)
        #expect(!driver.isTimerScheduled && driver.producer == .notStarted)
        driver.setWritable(true)
        #expect(driver.producer == .producing)
        driver.endBody()
        driver.read(Wire.ok)
        #expect(driver.releases == 1)
        #expect(driver.violations.isEmpty)
    }

    @Test func theTimerSendsTheBodyAnyway() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(2), expectContinue: true))
        driver.fireTimer()
        #expect(driver.producer == .producing)
        driver.offer(Wire.bytes("hi"))
        driver.endBody()
        driver.read(Wire.continue100 + Wire.ok)  // a late 100 is skipped
        #expect(driver.lastCompletion?.connection == .release(resumeReading: false))
        #expect(driver.violations.isEmpty)

        let unwritable = MockConnectionDriver(isWritable: false)
        unwritable.start(Wire.post(.contentLength(2), expectContinue: true))
        unwritable.fireTimer()
        #expect(unwritable.producer == .notStarted)
        unwritable.setWritable(true)
        #expect(unwritable.producer == .producing)
    }

    @Test func aFinalResponseBefore100MeansTheBodyIsNeverSent() {
        let response = Wire.bytes("HTTP/1.1 417 Expectation Failed\r\nContent-Length: 2\r\n\r\nno")
        Self.everyDelivery(
            of: response,
            setUp: { driver in
                driver.start(Wire.post(.contentLength(2), expectContinue: true))
            }
        ) { driver, delivery in
            #expect(driver.head?.status.rawValue == 417, "\(delivery)")
            #expect(driver.bodyText == "no", "\(delivery)")
            #expect(driver.producer == .stopped, "\(delivery)")
            #expect(driver.timersCancelled == 1, "\(delivery)")
            #expect(driver.lastCompletion?.failure == nil, "\(delivery)")
            #expect(driver.closeReason == .requestBodyUnsent, "\(delivery)")
        }
    }

    @Test func expectContinueIsIgnoredWithoutABody() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(0), expectContinue: true))
        #expect(!driver.isTimerScheduled)
        #expect(!driver.requestWire.starts(with: Wire.bytes("Expect")))
        #expect(!String(decoding: driver.requestWire, as: UTF8.self).contains("Expect"))
        driver.read(Wire.ok)
        #expect(driver.releases == 1)
    }

    @Test func otherInterimResponsesAreSkipped() {
        let response = Wire.bytes("HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n") + Wire.ok
        Self.everyDelivery(of: response, setUp: { $0.start(Wire.get()) }) { driver, delivery in
            #expect(driver.head?.status == .ok, "\(delivery)")
            #expect(driver.bodyText == "hello", "\(delivery)")
            #expect(driver.releases == 1, "\(delivery)")
        }
    }

    // MARK: Rule 5: early final responses

    @Test func anEarlyErrorResponseStopsTheBodyAndCloses() {
        let response = Wire.bytes("HTTP/1.1 413 Content Too Large\r\nContent-Length: 3\r\n\r\nbig")
        Self.everyDelivery(
            of: response,
            setUp: { driver in
                driver.start(Wire.post(.contentLength(100)))
                driver.offer(Array(repeating: 0x61, count: 10))
            }
        ) { driver, delivery in
            #expect(driver.head?.status.rawValue == 413, "\(delivery)")
            #expect(driver.producer == .stopped, "\(delivery)")
            #expect(driver.bodyText == "big", "\(delivery)")
            #expect(driver.lastCompletion?.failure == nil, "\(delivery)")
            #expect(driver.closeReason == .requestBodyUnsent, "\(delivery)")
        }
    }

    @Test func anEarly2xxHeadLetsTheBodyContinue() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.chunked))
        driver.offer(Wire.bytes("ab"))
        driver.read(Wire.bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n"))
        #expect(driver.producer == .producing)
        driver.offer(Wire.bytes("cd"))
        driver.endBody()
        driver.read(Wire.bytes("2\r\ncd\r\n0\r\n\r\n"))
        #expect(driver.bodyText == "abcd")
        #expect(driver.lastCompletion?.connection == .release(resumeReading: false))
        #expect(driver.violations.isEmpty)
    }

    @Test func a2xxResponseThatEndsBeforeTheBodyStopsItAndCloses() {
        Self.everyDelivery(
            of: Wire.ok,
            setUp: { driver in
                driver.start(Wire.post(.chunked))
                driver.offer(Wire.bytes("ab"))
            }
        ) { driver, delivery in
            #expect(driver.bodyText == "hello", "\(delivery)")
            #expect(driver.lastCompletion?.stopRequestBody == true, "\(delivery)")
            #expect(driver.lastCompletion?.failure == nil, "\(delivery)")
            #expect(driver.closeReason == .requestBodyUnsent, "\(delivery)")
        }
    }

    // MARK: Rule 6: reuse

    @Test(arguments: [
        (
            "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello",
            HTTP1CloseReason.serverRequestedClose
        ),
        ("HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello", .serverRequestedClose),
    ])
    func aResponseThatForbidsReuseCloses(response: String, reason: HTTP1CloseReason) {
        Self.everyDelivery(of: Wire.bytes(response), setUp: { $0.start(Wire.get()) }) { driver, delivery in
            #expect(driver.bodyText == "hello", "\(delivery)")
            #expect(driver.lastCompletion?.failure == nil, "\(delivery)")
            #expect(driver.closeReason == reason, "\(delivery)")
        }
    }

    @Test func anErrorResponseAfterTheWholeBodyIsReleased() {
        // A 401 to a request sent in full leaves the connection in step: the retry with
        // credentials can reuse it.
        let response = Wire.bytes("HTTP/1.1 401 Unauthorized\r\nContent-Length: 6\r\n\r\nwho?!!")
        Self.everyDelivery(
            of: response,
            setUp: { driver in
                driver.start(Wire.post(.contentLength(3)))
                driver.offer(Wire.bytes("abc"))
                driver.endBody()
            }
        ) { driver, delivery in
            #expect(driver.head?.status == .unauthorized, "\(delivery)")
            #expect(driver.lastCompletion?.connection == .release(resumeReading: false), "\(delivery)")
        }
    }

    @Test func http10WithKeepAliveIsReleased() {
        let response = Wire.bytes("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 5\r\n\r\nhello")
        Self.everyDelivery(of: response, setUp: { $0.start(Wire.get()) }) { driver, delivery in
            #expect(driver.lastCompletion?.connection == .release(resumeReading: false), "\(delivery)")
        }
    }

    @Test func aCloseDelimitedBodyEndsAtEOFAndCloses() {
        let response = Wire.bytes("HTTP/1.1 200 OK\r\n\r\nuntil the end")
        Self.everyDelivery(of: response, thenEOF: true, setUp: { $0.start(Wire.get()) }) { driver, delivery in
            #expect(driver.bodyText == "until the end", "\(delivery)")
            #expect(driver.lastCompletion?.failure == nil, "\(delivery)")
            #expect(driver.closeReason == .closeDelimitedBody, "\(delivery)")
        }
    }

    @Test func bytesAfterTheResponseClose() {
        let response = Wire.ok + Wire.bytes("HTTP/1.1 200 OK\r\n")
        let driver = MockConnectionDriver()
        driver.start(Wire.get())
        driver.read(response)
        #expect(driver.bodyText == "hello")
        #expect(driver.lastCompletion?.failure == nil)
        #expect(driver.closeReason == .bytesAfterResponse)
        #expect(driver.violations.isEmpty)
    }

    // MARK: Rule 7: failures close

    @Test func aParseErrorFailsAndCloses() {
        let response = Wire.bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello")
        Self.everyDelivery(of: response, setUp: { $0.start(Wire.get()) }) { driver, delivery in
            guard case .invalidResponse(let error) = Self.failure(driver) else {
                Issue.record("\(delivery): expected invalidResponse, got \(String(describing: Self.failure(driver)))")
                return
            }
            #expect(error.kind == .conflictingContentLengths, "\(delivery)")
            #expect(driver.closeReason == .requestFailed, "\(delivery)")
            #expect(driver.lastCompletion?.facts.endedBeforeAnyResponseByte == false, "\(delivery)")
        }
    }

    @Test func aTruncatedBodyFailsAndCloses() {
        let response = Wire.bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello")
        Self.everyDelivery(of: response, thenEOF: true, setUp: { $0.start(Wire.get()) }) { driver, delivery in
            guard case .invalidResponse(let error) = Self.failure(driver) else {
                Issue.record("\(delivery): expected invalidResponse, got \(String(describing: Self.failure(driver)))")
                return
            }
            #expect(error.kind == .unexpectedEOF, "\(delivery)")
            #expect(driver.bodyText == "hello", "\(delivery)")
            #expect(driver.closeReason == .requestFailed, "\(delivery)")
        }
    }

    @Test func aProtocolSwitchFailsAndCloses() {
        let response = Wire.bytes("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n")
        Self.everyDelivery(of: response, setUp: { $0.start(Wire.get()) }) { driver, delivery in
            guard case .unexpectedProtocolSwitch(status: 101) = Self.failure(driver) else {
                Issue.record(
                    "\(delivery): expected unexpectedProtocolSwitch, got \(String(describing: Self.failure(driver)))")
                return
            }
            #expect(driver.closeReason == .requestFailed, "\(delivery)")
        }
    }

    @Test func cancellingMidBodyOrMidResponseCloses() {
        let midBody = MockConnectionDriver()
        midBody.start(Wire.post(.contentLength(10)))
        midBody.offer(Wire.bytes("abc"))
        midBody.cancel()
        guard case .cancelled = Self.failure(midBody) else {
            Issue.record("expected cancelled, got \(String(describing: Self.failure(midBody)))")
            return
        }
        #expect(midBody.producer == .stopped)
        #expect(midBody.closeReason == .requestFailed)

        let awaitingContinue = MockConnectionDriver()
        awaitingContinue.start(Wire.post(.contentLength(10), expectContinue: true))
        awaitingContinue.cancel()
        #expect(awaitingContinue.timersCancelled == 1)

        let midResponse = MockConnectionDriver()
        midResponse.start(Wire.get())
        midResponse.read(Wire.ok.prefix(Wire.ok.count - 2))
        midResponse.cancel()
        #expect(midResponse.closeReason == .requestFailed)

        let afterEnd = MockConnectionDriver()
        afterEnd.start(Wire.get())
        afterEnd.read(Wire.ok)
        afterEnd.cancel()  // lost the race with the end: nothing happens
        #expect(afterEnd.completions.count == 1 && afterEnd.releases == 1 && !afterEnd.isClosed)
        for driver in [midBody, awaitingContinue, midResponse, afterEnd] {
            #expect(driver.violations.isEmpty, "\(driver.violations)")
        }
    }

    @Test func aDeadlineMidResponseFailsAndCloses() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(4), expectContinue: true))
        driver.read(Wire.bytes("HTTP/1.1 103 Early Hints\r\n\r\n"))
        driver.perform(driver.machine.requestTimedOut())
        guard case .timedOut = Self.failure(driver) else {
            Issue.record("expected timedOut, got \(String(describing: Self.failure(driver)))")
            return
        }
        #expect(driver.lastCompletion?.cancelContinueTimer == true && driver.lastCompletion?.stopRequestBody == true)
        #expect(driver.lastCompletion?.facts.endedBeforeAnyResponseByte == false)
        #expect(driver.closeReason == .requestFailed)

        let late = MockConnectionDriver()
        late.start(Wire.get())
        late.read(Wire.ok)
        late.perform(late.machine.requestTimedOut())
        #expect(late.releases == 1 && !late.isClosed)
        #expect(driver.violations.isEmpty && late.violations.isEmpty)
    }

    @Test func aConnectionFailureFailsTheRequest() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.chunked))
        driver.read(Wire.bytes("HTTP/1.1 200 OK\r\n"))
        driver.failConnection()
        guard case .connectionFailed(let error as MockTransportError) = Self.failure(driver) else {
            Issue.record("expected connectionFailed, got \(String(describing: Self.failure(driver)))")
            return
        }
        #expect(error.name == "ECONNRESET")
        #expect(driver.lastCompletion?.stopRequestBody == true)
        #expect(driver.closeReason == .requestFailed)
        #expect(driver.violations.isEmpty)
    }

    // MARK: Rule 8: write failures

    @Test func aWriteFailureBeforeAnyResponseByteFailsAtOnce() {
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(10)))
        driver.flush()
        driver.failWrite()
        guard case .writeFailed(let error as MockTransportError) = Self.failure(driver) else {
            Issue.record("expected writeFailed, got \(String(describing: Self.failure(driver)))")
            return
        }
        #expect(error.name == "EPIPE")
        #expect(driver.lastCompletion?.facts.endedBeforeAnyResponseByte == true)
        #expect(driver.lastCompletion?.facts.requestBytesWritten == driver.requestWire.count)
        #expect(driver.closeReason == .requestFailed)
        #expect(driver.violations.isEmpty)
    }

    @Test func aWriteFailureAfterAResponseByteLetsTheResponseFinish() {
        let response = Wire.bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(10)))
        driver.read(response.prefix(20))
        driver.failWrite()
        #expect(driver.producer == .stopped)
        #expect(driver.completions.isEmpty)
        driver.read(response.dropFirst(20))
        #expect(driver.bodyText == "hello")
        #expect(driver.lastCompletion?.failure == nil)
        #expect(driver.closeReason == .transportFailed)
        #expect(driver.violations.isEmpty)

        let bodySent = MockConnectionDriver()
        bodySent.start(Wire.get())
        bodySent.read(response.prefix(1))
        bodySent.failWrite()  // the tail of the head's write
        bodySent.read(response.dropFirst(1))
        #expect(bodySent.closeReason == .transportFailed)
        #expect(bodySent.violations.isEmpty)
    }

    @Test func aWriteFailureWhileIdleCloses() {
        let driver = MockConnectionDriver()
        driver.start(Wire.get())
        driver.read(Wire.ok)
        driver.failWrite()
        #expect(driver.closeReason == .transportFailed)
        #expect(driver.violations.isEmpty)
    }

    // MARK: Rule 9: facts for ReplayPolicy

    @Test func eofBeforeAnyResponseByteOnAReusedConnectionIsReported() {
        let driver = MockConnectionDriver()
        driver.start(Wire.get())
        driver.read(Wire.ok)
        driver.start(Wire.get("/again"))
        driver.flush()
        driver.eof()
        guard case .closedBeforeResponse = Self.failure(driver) else {
            Issue.record("expected closedBeforeResponse, got \(String(describing: Self.failure(driver)))")
            return
        }
        let facts = driver.lastCompletion?.facts
        #expect(facts?.connectionWasReused == true)
        #expect(facts?.endedBeforeAnyResponseByte == true)
        #expect(facts?.requestBytesWritten == Wire.bytes("GET /again HTTP/1.1\r\nHost: example.com\r\n\r\n").count)
        #expect(driver.closeReason == .requestFailed)
        #expect(driver.violations.isEmpty)
    }

    @Test func responseBytesAreCountedAcrossInterimResponses() {
        let response = Wire.continue100 + Wire.bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhel")
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(1), expectContinue: true))
        driver.read(response)
        #expect(driver.currentFacts?.responseBytesReceived == response.count)
        #expect(driver.currentFacts?.requestBytesWritten == 0)
        driver.flush()
        #expect(driver.currentFacts?.requestBytesWritten == driver.requestWire.count)
    }

    // MARK: Rule 10: reading backpressure

    @Test func theConsumerPausesAndResumesReading() {
        let driver = MockConnectionDriver()
        driver.start(Wire.get())
        driver.read(Wire.ok.prefix(40))
        driver.consumerFull()
        #expect(driver.isReadingPaused)
        driver.consumerFull()
        driver.demandMore()
        #expect(!driver.isReadingPaused)
        driver.demandMore()
        driver.read(Wire.ok.dropFirst(40))
        #expect(driver.releases == 1)

        // The consumer fills up while the buffer that ends the response is being processed:
        // the release says to read again.
        let pausedAtEnd = MockConnectionDriver()
        pausedAtEnd.whenBodyArrives = { $0.consumerFull() }
        pausedAtEnd.start(Wire.get())
        pausedAtEnd.read(Wire.ok)
        #expect(pausedAtEnd.bodyText == "hello")
        #expect(pausedAtEnd.lastCompletion?.connection == .release(resumeReading: true))
        #expect(!pausedAtEnd.isReadingPaused)
        #expect(pausedAtEnd.violations.isEmpty && driver.violations.isEmpty)
    }

    // MARK: Rule 11: decoding

    static func gzipResponse(_ text: String, extraHeaders: String = "") -> (response: [UInt8], body: [UInt8]) {
        let body = Deflater.compress(Wire.bytes(text), .gzip)
        let head = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\(extraHeaders)Content-Length: \(body.count)\r\n\r\n"
        return (Wire.bytes(head) + body, body)
    }

    @Test func aGzipBodyIsDecodedWhenAskedFor() {
        let text = String(repeating: "decoded text, ", count: 40)
        let (response, encoded) = Self.gzipResponse(text)
        Self.everyDelivery(of: response, setUp: { $0.start(Wire.post(.contentLength(0), decoding: .default)) }) {
            driver, delivery in
            #expect(driver.isBodyDecoded, "\(delivery)")
            #expect(driver.bodyText == text, "\(delivery)")
            #expect(driver.releases == 1, "\(delivery)")
        }
        let raw = MockConnectionDriver()
        raw.start(Wire.get())
        raw.read(response)
        #expect(!raw.isBodyDecoded)
        #expect(raw.body == encoded)
    }

    @Test func aCloseDelimitedGzipBodyIsCheckedAtEOF() {
        let encoded = Deflater.compress(Wire.bytes("until the end"), .gzip)
        let head = Wire.bytes("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n")
        Self.everyDelivery(
            of: head + encoded, thenEOF: true,
            setUp: {
                $0.start(Wire.post(.contentLength(0), decoding: .default))
            }
        ) { driver, delivery in
            #expect(driver.bodyText == "until the end", "\(delivery)")
            #expect(driver.lastCompletion?.failure == nil, "\(delivery)")
            #expect(driver.closeReason == .closeDelimitedBody, "\(delivery)")
        }
        let cut = MockConnectionDriver()
        cut.start(Wire.post(.contentLength(0), decoding: .default))
        cut.read(head + encoded.dropLast(3))
        cut.eof()
        guard case .undecodableBody(.truncated) = Self.failure(cut) else {
            Issue.record("expected undecodableBody(truncated), got \(String(describing: Self.failure(cut)))")
            return
        }
        #expect(cut.closeReason == .requestFailed)
        #expect(cut.violations.isEmpty)
    }

    @Test func anUnsupportedCodingPassesThrough() {
        let response = Wire.bytes("HTTP/1.1 200 OK\r\nContent-Encoding: compress\r\nContent-Length: 5\r\n\r\nhello")
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(0), decoding: .default))
        driver.read(response)
        #expect(!driver.isBodyDecoded)
        #expect(driver.bodyText == "hello")
        #expect(driver.releases == 1)
    }

    @Test func aCorruptGzipBodyFailsAndCloses() {
        var (response, _) = Self.gzipResponse("some text to corrupt")
        response[response.count - 20] ^= 0xFF
        response[response.count - 21] ^= 0xFF
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(0), decoding: .default))
        driver.read(response)
        guard case .undecodableBody = Self.failure(driver) else {
            Issue.record("expected undecodableBody, got \(String(describing: Self.failure(driver)))")
            return
        }
        #expect(driver.closeReason == .requestFailed)
        #expect(driver.violations.isEmpty)
    }

    @Test func aGzipStreamCutShortFailsEvenWhenTheFramingIsComplete() {
        let encoded = Deflater.compress(Wire.bytes(String(repeating: "abc", count: 100)), .gzip)
        let cut = encoded.prefix(encoded.count - 4)
        let response =
            Wire.bytes("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(cut.count)\r\n\r\n") + cut
        Self.everyDelivery(of: response, setUp: { $0.start(Wire.post(.contentLength(0), decoding: .default)) }) {
            driver, delivery in
            guard case .undecodableBody(.truncated) = Self.failure(driver) else {
                Issue.record(
                    "\(delivery): expected undecodableBody(truncated), got \(String(describing: Self.failure(driver)))")
                return
            }
            #expect(driver.closeReason == .requestFailed, "\(delivery)")
        }
    }

    @Test func tooManyCodingsFailBeforeTheHead() {
        let response = Wire.bytes(
            "HTTP/1.1 200 OK\r\nContent-Encoding: gzip, gzip, gzip, gzip\r\nContent-Length: 1\r\n\r\nx")
        let driver = MockConnectionDriver()
        driver.start(Wire.post(.contentLength(0), decoding: .default))
        driver.read(response)
        guard case .undecodableBody(.tooManyCodings(count: 4, limit: 3)) = Self.failure(driver) else {
            Issue.record("expected tooManyCodings, got \(String(describing: Self.failure(driver)))")
            return
        }
        #expect(driver.head == nil)
        #expect(driver.closeReason == .requestFailed)
    }

    @Test func theDecoderIsReusedAcrossResponses() {
        let driver = MockConnectionDriver()
        for round in 0..<3 {
            let (response, _) = Self.gzipResponse("round \(round)")
            driver.start(Wire.post(.contentLength(0), decoding: .default))
            driver.read(response)
            #expect(driver.bodyText == "round \(round)")
        }
        let first = driver.decoderIdentity
        let (response, _) = Self.gzipResponse("again")
        driver.start(Wire.post(.contentLength(0), decoding: .default))
        driver.read(response)
        #expect(driver.decoderIdentity == first)
        #expect(driver.releases == 4)
        #expect(driver.violations.isEmpty)
    }

    // MARK: Steady state

    @Test func theEncodeBufferIsReusedAcrossRequests() {
        let driver = MockConnectionDriver()
        driver.start(Wire.get())
        driver.read(Wire.ok)
        let address = driver.encodeBufferAddress
        for _ in 0..<5 {
            driver.start(Wire.post(.chunked))
            driver.offer(Wire.bytes("part"))
            driver.endBody()
            driver.read(Wire.ok)
            #expect(driver.encodeBufferAddress == address)
        }
        #expect(driver.releases == 6)
    }
}

@Suite struct HTTP1ConnectionRaceTests {
    @Test func aRequestStartedOnAClosedConnectionFailsUnwritten() {
        var machine = HTTP1ConnectionStateMachine()
        _ = machine.startRequest(Wire.get())
        Wire.ok.withUnsafeBytes { buffer in
            while machine.bytesRead(buffer) != nil {}
        }
        guard case .closeConnection(.closedByServer) = machine.eofRead() else {
            Issue.record("EOF while idle should close")
            return
        }
        guard case .finishRequest(let completion) = machine.startRequest(Wire.get()) else {
            Issue.record("expected finishRequest")
            return
        }
        guard case .connectionClosedBeforeRequest = completion.failure else {
            Issue.record("expected connectionClosedBeforeRequest, got \(String(describing: completion.failure))")
            return
        }
        #expect(
            completion.facts
                == HTTP1ExchangeFacts(connectionWasReused: true, requestBytesWritten: 0, responseBytesReceived: 0))
        #expect(completion.connection == .close(.requestFailed))
        #expect(!completion.stopRequestBody && !completion.cancelContinueTimer)
    }
}

@Suite struct HTTP1ConnectionReadLoopTests {
    /// A driver may hand the released connection to the next request from inside its read loop
    /// (the pool leases it at once): the loop then ends cleanly and the new request is unharmed.
    @Test func theNextRequestMayStartInsideTheReadLoop() {
        var machine = HTTP1ConnectionStateMachine()
        _ = machine.startRequest(Wire.get())
        var started = false
        Wire.ok.withUnsafeBytes { buffer in
            while let action = machine.bytesRead(buffer) {
                if case .finishRequest(let end) = action, end.connection == .release(resumeReading: false) {
                    guard case .writeRequestHead = machine.startRequest(Wire.get("/next")) else {
                        Issue.record("the next request did not start")
                        return
                    }
                    started = true
                }
            }
        }
        #expect(started)
        var status: HTTPStatus?
        Wire.bytes("HTTP/1.1 204 No Content\r\n\r\n").withUnsafeBytes { buffer in
            while let action = machine.bytesRead(buffer) {
                if case .forwardResponseHead(let head, _, _, _) = action { status = head.status }
            }
        }
        let isIdle = machine.isIdle
        #expect(status == .noContent)
        #expect(isIdle)
    }

    /// A consumer that cancels while a body piece is being delivered ends the loop: the rest of
    /// the buffer is dropped with the connection.
    @Test func aCancelInsideTheReadLoopEndsIt() {
        let driver = MockConnectionDriver()
        driver.whenBodyArrives = { $0.cancel() }
        driver.start(Wire.get())
        driver.read(Wire.bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n1\r\nb\r\n0\r\n\r\n"))
        #expect(driver.bodyText == "a")
        guard case .cancelled = driver.lastCompletion?.failure else {
            Issue.record("expected cancelled, got \(String(describing: driver.lastCompletion?.failure))")
            return
        }
        #expect(driver.closeReason == .requestFailed)
        #expect(driver.violations.isEmpty)
    }
}

/// Rule 12: a driver that reports an impossible event is stopped at once.
@Suite struct HTTP1ConnectionTrapTests {
    @Test func aSecondRequestWhileOneIsInProgressTraps() async {
        await #expect(processExitsWith: .failure) {
            var machine = HTTP1ConnectionStateMachine()
            _ = machine.startRequest(Wire.get())
            _ = machine.startRequest(Wire.get())
        }
    }

    @Test func aBodyPartNobodyAskedForTraps() async {
        await #expect(processExitsWith: .failure) {
            var machine = HTTP1ConnectionStateMachine()
            _ = machine.startRequest(Wire.post(.contentLength(3), expectContinue: true))
            _ = machine.requestBodyPartAvailable(byteCount: 3)
        }
        await #expect(processExitsWith: .failure) {
            var machine = HTTP1ConnectionStateMachine()
            _ = machine.startRequest(Wire.get())
            _ = machine.requestBodyEnded()
        }
    }

    @Test func aTimerThatIsNotScheduledTraps() async {
        await #expect(processExitsWith: .failure) {
            var machine = HTTP1ConnectionStateMachine()
            _ = machine.startRequest(Wire.post(.contentLength(3)))
            _ = machine.continueTimerFired()
        }
    }

    @Test func readingAfterTheCloseTraps() async {
        await #expect(processExitsWith: .failure) {
            var machine = HTTP1ConnectionStateMachine()
            _ = machine.eofRead()
            _ = machine.eofRead()
        }
        await #expect(processExitsWith: .failure) {
            var machine = HTTP1ConnectionStateMachine()
            _ = machine.connectionFailed(MockTransportError(name: "reset"))
            _ = Wire.ok.withUnsafeBytes { machine.bytesRead($0) }
        }
    }

    @Test func writtenBytesBeyondWhatWasHandedOutTrap() async {
        await #expect(processExitsWith: .failure) {
            var machine = HTTP1ConnectionStateMachine()
            guard case .writeRequestHead(let head, _, _) = machine.startRequest(Wire.get()) else { return }
            machine.requestBytesWritten(head.count + 1)
        }
    }
}
