// The frame parser and encoder: every frame type round trip under every delivery pattern, and
// each rule of RFC 9113 §4–§6 a frame's own bytes can break, with its error's scope and code.
import Testing
import WickTestSupport

@testable import WickHTTP2

@Suite struct HTTP2FrameTests {
    static let everyFrame: [HTTP2Frame] = [
        HTTP2Frame(
            streamID: HTTP2StreamID(1),
            payload: .data(bytes: Array("hello".utf8)[...], endStream: false, paddingLength: nil)
        ),
        HTTP2Frame(streamID: HTTP2StreamID(1), payload: .data(bytes: [], endStream: true, paddingLength: nil)),
        HTTP2Frame(streamID: HTTP2StreamID(3), payload: .data(bytes: [1, 2, 3], endStream: true, paddingLength: 7)),
        HTTP2Frame(streamID: HTTP2StreamID(3), payload: .data(bytes: [], endStream: false, paddingLength: 0)),
        HTTP2Frame(
            streamID: HTTP2StreamID(5),
            payload: .headers(HTTP2HeadersFrame(fieldBlockFragment: [0x82, 0x86], endStream: true, endHeaders: true))),
        HTTP2Frame(
            streamID: HTTP2StreamID(5),
            payload: .headers(
                HTTP2HeadersFrame(
                    fieldBlockFragment: [0x88], endStream: false, endHeaders: false,
                    priority: HTTP2Priority(exclusive: true, dependency: HTTP2StreamID(3), weight: 200),
                    paddingLength: 4))),
        HTTP2Frame(
            streamID: HTTP2StreamID(7),
            payload: .priority(HTTP2Priority(exclusive: false, dependency: HTTP2StreamID(0), weight: 15))),
        HTTP2Frame(streamID: HTTP2StreamID(7), payload: .rstStream(.cancel)),
        HTTP2Frame(streamID: HTTP2StreamID(7), payload: .rstStream(HTTP2ErrorCode(rawValue: 0xDEAD))),
        HTTP2Frame(
            streamID: .connection,
            payload: .settings([
                HTTP2Setting(.headerTableSize, 0), HTTP2Setting(.enablePush, 0),
                HTTP2Setting(.maxConcurrentStreams, 100),
                HTTP2Setting(.initialWindowSize, 0x7FFF_FFFF), HTTP2Setting(.maxFrameSize, 16_777_215),
                HTTP2Setting(.maxHeaderListSize, 0xFFFF_FFFF),
            ])),
        HTTP2Frame(streamID: .connection, payload: .settings([])),
        HTTP2Frame(streamID: .connection, payload: .settingsAck),
        HTTP2Frame(
            streamID: HTTP2StreamID(1),
            payload: .pushPromise(promisedStreamID: HTTP2StreamID(2), fieldBlockFragment: [0x82], endHeaders: true)),
        HTTP2Frame(streamID: .connection, payload: .ping(opaqueData: 0x0102_0304_0506_0708, ack: false)),
        HTTP2Frame(streamID: .connection, payload: .ping(opaqueData: .max, ack: true)),
        HTTP2Frame(
            streamID: .connection,
            payload: .goAway(lastStreamID: HTTP2StreamID(9), errorCode: .enhanceYourCalm, debugData: Array("calm".utf8))
        ),
        HTTP2Frame(streamID: .connection, payload: .windowUpdate(increment: 1)),
        HTTP2Frame(streamID: HTTP2StreamID(9), payload: .windowUpdate(increment: 0x7FFF_FFFF)),
        HTTP2Frame(streamID: HTTP2StreamID(5), payload: .continuation(fieldBlockFragment: [0x84], endHeaders: true)),
        HTTP2Frame(streamID: HTTP2StreamID(5), payload: .continuation(fieldBlockFragment: [], endHeaders: false)),
        HTTP2Frame(streamID: HTTP2StreamID(11), payload: .unknown(type: 0xFA, length: 3)),
    ]

    @Test func everyFrameTypeRoundTripsUnderEveryDelivery() {
        var input: [UInt8] = []
        for frame in Self.everyFrame { HTTP2FrameEncoder.encode(frame, into: &input) }
        let (outcome, disagreements) = parseUnderEveryDelivery(input)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3))")
        #expect(outcome.frames == Self.everyFrame)
        #expect(outcome.connectionError == nil && outcome.leftover == 0)
    }

    @Test func aLongSeededFrameStreamParsesTheSameInRandomPieces() {
        var random = SeededRandom(seed: 9113)
        let frames = (0..<400).map { _ in Self.everyFrame.randomElement(using: &random)! }
        var input: [UInt8] = []
        for frame in frames { HTTP2FrameEncoder.encode(frame, into: &input) }
        let (outcome, disagreements) = parseUnderEveryDelivery(input, randomCuts: 50)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(1))")
        #expect(outcome.frames == frames)
    }

    @Test func aTrailingPartialFrameStaysBuffered() {
        var input: [UInt8] = []
        HTTP2FrameEncoder.encode(Self.everyFrame[0], into: &input)
        let partial = rawFrame(type: 0x0, stream: 1, payload: [1, 2, 3]).dropLast()
        let (outcome, disagreements) = parseUnderEveryDelivery(input + partial)
        #expect(disagreements.isEmpty)
        #expect(outcome.frames == [Self.everyFrame[0]] && outcome.leftover == partial.count)
    }

    @Test func theFrameSizeLimitAcceptsNAndRejectsNPlusOneFromTheHeaderAlone() {
        let atLimit = rawFrame(type: 0x0, stream: 1, payload: Array(repeating: 7, count: 16_384))
        #expect(parse([atLimit[...]]).frames.count == 1)
        let overLimitHeader = rawFrame(type: 0x0, stream: 1, length: 16_385)
        #expect(parse([overLimitHeader[...]]).connectionError == .connection(.frameTooLarge, code: .frameSizeError))
        let larger = rawFrame(type: 0x0, stream: 1, payload: Array(repeating: 7, count: 20_000))
        #expect(parse([larger[...]], maxFrameSize: 20_000).frames.count == 1)
    }

    @Test(
        "fixed-size frames of the wrong size",
        arguments: [
            (rawFrame(type: 0x3, stream: 1, payload: [0, 0, 0]), "RST_STREAM of 3"),
            (rawFrame(type: 0x3, stream: 1, payload: [0, 0, 0, 0, 0]), "RST_STREAM of 5"),
            (rawFrame(type: 0x4, payload: [0, 1, 0, 0, 0]), "SETTINGS of 5"),
            (rawFrame(type: 0x4, flags: 0x1, payload: [0, 1, 0, 0, 0, 0]), "SETTINGS ACK with a payload"),
            (rawFrame(type: 0x6, payload: Array(repeating: 0, count: 7)), "PING of 7"),
            (rawFrame(type: 0x6, payload: Array(repeating: 0, count: 9)), "PING of 9"),
            (rawFrame(type: 0x7, payload: Array(repeating: 0, count: 7)), "GOAWAY of 7"),
            (rawFrame(type: 0x8, payload: [0, 0, 1]), "WINDOW_UPDATE of 3"),
            (rawFrame(type: 0x8, stream: 1, payload: [0, 0, 0, 1, 0]), "WINDOW_UPDATE of 5"),
            (rawFrame(type: 0x0, flags: 0x8, stream: 1), "PADDED DATA without a pad length"),
            (rawFrame(type: 0x1, flags: 0x20 | 0x4, stream: 1, payload: [0, 0, 0, 0]), "HEADERS with PRIORITY of 4"),
            (
                rawFrame(type: 0x1, flags: 0x28 | 0x4, stream: 1, payload: [0, 0, 0, 0, 0]),
                "PADDED HEADERS with PRIORITY of 5"
            ),
            (rawFrame(type: 0x5, flags: 0x4, stream: 1, payload: [0, 0, 0]), "PUSH_PROMISE of 3"),
        ])
    func fixedSizeFramesOfTheWrongSizeAreConnectionErrors(input: [UInt8], label: String) {
        #expect(
            parse([input[...]]).connectionError == .connection(.invalidFrameSize, code: .frameSizeError), "\(label)")
    }

    @Test func aPriorityFrameOfTheWrongSizeIsAStreamErrorAndParsingGoesOn() {
        let input =
            rawFrame(type: 0x2, stream: 3, payload: [0, 0, 0, 1])
            + rawFrame(type: 0x6, payload: Array(repeating: 0, count: 8))
        let outcome = parse([input[...]])
        #expect(outcome.items.count == 2)
        #expect(
            outcome.items.first.flatMap { if case .failure(let error) = $0 { error } else { nil } }
                == .stream(HTTP2StreamID(3), .invalidFrameSize, code: .frameSizeError))
    }

    @Test func paddingUpToThePayloadIsAcceptedAndOneMoreIsAProtocolError() {
        // DATA: pad length byte + 2 data bytes + 5 padding bytes = 8; pad length 7 would leave -1.
        let fits = rawFrame(type: 0x0, flags: 0x8, stream: 1, payload: [7] + Array(repeating: 0, count: 7))
        #expect(
            parse([fits[...]]).frames == [
                HTTP2Frame(streamID: HTTP2StreamID(1), payload: .data(bytes: [], endStream: false, paddingLength: 7))
            ])
        let over = rawFrame(type: 0x0, flags: 0x8, stream: 1, payload: [8] + Array(repeating: 0, count: 7))
        #expect(parse([over[...]]).connectionError == .connection(.invalidPadding, code: .protocolError))
        // HEADERS with PRIORITY: 1 + 5 fixed bytes, then padding must fit in the rest.
        let headersFits = rawFrame(type: 0x1, flags: 0x28 | 0x4, stream: 1, payload: [2, 0, 0, 0, 0, 15, 0, 0])
        #expect(parse([headersFits[...]]).frames.count == 1)
        let headersOver = rawFrame(type: 0x1, flags: 0x28 | 0x4, stream: 1, payload: [3, 0, 0, 0, 0, 15, 0, 0])
        #expect(parse([headersOver[...]]).connectionError == .connection(.invalidPadding, code: .protocolError))
    }

    @Test("frames that need a stream, on stream 0", arguments: [UInt8(0x0), 0x1, 0x2, 0x3, 0x5, 0x9])
    func streamFramesOnStreamZeroAreProtocolErrors(type: UInt8) {
        let payload: [UInt8] = type == 0x2 ? [0, 0, 0, 1, 0] : type == 0x3 || type == 0x5 ? [0, 0, 0, 1] : []
        #expect(
            parse([rawFrame(type: type, flags: 0x4, payload: payload)[...]]).connectionError
                == .connection(.frameRequiresStream, code: .protocolError))
    }

    @Test("connection frames on a stream", arguments: [UInt8(0x4), 0x6, 0x7])
    func connectionFramesOnAStreamAreProtocolErrors(type: UInt8) {
        let payload: [UInt8] = type == 0x4 ? [] : Array(repeating: 0, count: 8)
        #expect(
            parse([rawFrame(type: type, stream: 1, payload: payload)[...]]).connectionError
                == .connection(.frameRequiresConnection, code: .protocolError))
    }

    @Test func unknownSettingsAreIgnoredAndKnownOnesKeptInOrder() {
        let payload =
            [0x00, 0x03] + be32(10) + [0xFF, 0xFF] + be32(1) + [0x00, 0x08] + be32(1) + [0x00, 0x01] + be32(0)
        let frames = parse([rawFrame(type: 0x4, payload: payload)[...]]).frames
        #expect(
            frames == [
                HTTP2Frame(
                    streamID: .connection,
                    payload: .settings([HTTP2Setting(.maxConcurrentStreams, 10), HTTP2Setting(.headerTableSize, 0)]))
            ])
    }

    @Test(
        "SETTINGS values at and past their bounds",
        arguments: [
            (UInt16(0x2), UInt32(1), nil as HTTP2ErrorCode?),
            (0x2, 2, .protocolError),
            (0x4, 0x7FFF_FFFF, nil),
            (0x4, 0x8000_0000, .flowControlError),
            (0x5, 16_384, nil),
            (0x5, 16_383, .protocolError),
            (0x5, 16_777_215, nil),
            (0x5, 16_777_216, .protocolError),
        ])
    func settingValuesAreCheckedAtTheirBounds(identifier: UInt16, value: UInt32, error: HTTP2ErrorCode?) {
        let payload = [UInt8(identifier >> 8), UInt8(identifier & 0xFF)] + be32(value)
        let outcome = parse([rawFrame(type: 0x4, payload: payload)[...]])
        if let error {
            #expect(outcome.connectionError == .connection(.invalidSettingValue, code: error))
        } else {
            #expect(outcome.frames.count == 1 && outcome.connectionError == nil)
        }
    }

    @Test func aZeroWindowIncrementIsAConnectionErrorOnStreamZeroAndAStreamErrorElsewhere() {
        #expect(
            parse([rawFrame(type: 0x8, payload: be32(0))[...]]).connectionError
                == .connection(.zeroWindowIncrement, code: .protocolError))
        let outcome = parse([
            (rawFrame(type: 0x8, stream: 5, payload: be32(0x8000_0000)) + rawFrame(type: 0x8, payload: be32(1)))[...]
        ])
        #expect(outcome.items.count == 2 && outcome.connectionError == nil)
        #expect(
            outcome.items.first.flatMap { if case .failure(let error) = $0 { error } else { nil } }
                == .stream(HTTP2StreamID(5), .zeroWindowIncrement, code: .protocolError))
    }

    @Test func reservedBitsAreIgnored() {
        let input = rawFrame(type: 0x8, stream: 0x8000_0003, payload: be32(0x8000_0010))
        #expect(
            parse([input[...]]).frames == [
                HTTP2Frame(streamID: HTTP2StreamID(3), payload: .windowUpdate(increment: 16))
            ])
    }

    @Test func unknownFrameTypesAndFlagsAreIgnoredNotRejected() {
        let input =
            rawFrame(type: 0x20, flags: 0xFF, stream: 0, payload: [1, 2, 3, 4])
            + rawFrame(type: 0x6, flags: 0xFE, payload: Array(repeating: 0, count: 8))
        #expect(
            parse([input[...]]).frames == [
                HTTP2Frame(streamID: .connection, payload: .unknown(type: 0x20, length: 4)),
                HTTP2Frame(streamID: .connection, payload: .ping(opaqueData: 0, ack: false)),
            ])
    }
}
