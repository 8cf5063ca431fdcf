// Runs the response parser over a golden case's input, cut any way, and records its events.
public import WickCore
public import WickHTTP1

/// Feeds pieces to a fresh `HTTPResponseParser` and writes every event as a golden-file line
/// (the format of `Tests/WickHTTP1Tests/Fixtures/README.md`).
///
/// Body events are coalesced (their cut depends on the delivery), error offsets are made
/// absolute in the input (they are per exchange in the parser), and after the last expected
/// response the bytes left over are reported as `unconsumed N`. Tests and the fuzz target use
/// it as their oracle: every cut of the same input must produce the same `Outcome`.
public struct ResponseParserHarness: Sendable {
    /// The parser configuration the case's options describe.
    public let configuration: HTTPParserConfiguration
    /// The request methods of the responses, in order (one exchange each).
    public let methods: [HTTPMethod]
    /// Whether the server closes the connection after the input (`eof` option).
    public let closesAfterInput: Bool

    /// What one run produced.
    public struct Outcome: Equatable, Sendable {
        /// The recorded event lines.
        public var events: [String] = []
        /// Bytes of the input the parser consumed (0 after an error).
        public var consumed = 0
    }

    /// The harness a case's options describe.
    ///
    /// Options: `method=M` or `methods=M1,M2` (one response each, back to back), `eof` (the
    /// server closes after the input), the flags `allowBareLF`, `allowInvalidFieldBytes` and
    /// `rejectObsoleteLineFolding`, and any limit by its `HTTPParserConfiguration` name.
    ///
    /// - Throws: `HarnessError` for an unknown option or a limit that is not a number.
    public init(options: [String: String]) throws {
        var configuration = HTTPParserConfiguration()
        for (key, value) in options {
            switch key {
            case "method", "methods", "eof": continue
            case "allowBareLF": configuration.allowBareLF = true
            case "rejectObsoleteLineFolding": configuration.rejectObsoleteLineFolding = true
            case "allowInvalidFieldBytes": configuration.allowInvalidFieldBytes = true
            default:
                guard let limit = Int(value) else { throw HarnessError(description: "unknown option \(key)=\(value)") }
                switch key {
                case "maxStatusLineBytes": configuration.maxStatusLineBytes = limit
                case "maxFieldLineBytes": configuration.maxFieldLineBytes = limit
                case "maxHeadBytes": configuration.maxHeadBytes = limit
                case "maxFieldCount": configuration.maxFieldCount = limit
                case "maxChunkSizeDigits": configuration.maxChunkSizeDigits = limit
                case "maxChunkExtensionBytes": configuration.maxChunkExtensionBytes = limit
                case "maxTrailerBytes": configuration.maxTrailerBytes = limit
                case "initialHeadCapacity": configuration.initialHeadCapacity = limit
                default: throw HarnessError(description: "unknown option \(key)")
                }
            }
        }
        self.configuration = configuration
        let names = (options["methods"] ?? options["method"] ?? "GET").split(separator: ",")
        methods = names.map { HTTPMethod(rawValue: String($0)) }
        closesAfterInput = options["eof"] != nil
    }

    /// A bad option in a golden case.
    public struct HarnessError: Error, CustomStringConvertible {
        /// What is wrong.
        public let description: String

        /// An error with a description.
        public init(description: String) {
            self.description = description
        }
    }

    /// Runs a fresh parser over `pieces` in order and records what it reports.
    public func run(_ pieces: [ArraySlice<UInt8>]) -> Outcome {
        var parser = HTTPResponseParser(configuration: configuration)
        var recorder = Recorder()
        var methodIndex = 0
        var exchangeBase = 0
        var consumed = 0
        var stopped = false
        var switched = false
        var total = 0
        parser.expectResponse(to: methods[0])

        for piece in pieces {
            total += piece.count
            if stopped { continue }
            // SAFETY: `raw` is the piece's storage, valid inside this closure; used only grows by
            // step.consumed, which the parser keeps <= input.count, so raw[used...] stays inside it,
            // and the recorder copies body bytes out of `input` during `record`.
            piece.withUnsafeBytes { raw in
                var used = 0
                while true {
                    let input = UnsafeRawBufferPointer(rebasing: raw[used...])
                    let step: HTTPParseStep
                    do throws(HTTPParseError) {
                        step = try parser.parse(input)
                    } catch {
                        recorder.error(error, base: exchangeBase)
                        stopped = true
                        return
                    }
                    recorder.record(step.event, in: input)
                    used += step.consumed
                    consumed += step.consumed
                    switch step.event {
                    case .needMoreData:
                        return
                    case .end where methodIndex + 1 < methods.count:
                        methodIndex += 1
                        exchangeBase = consumed
                        parser.expectResponse(to: methods[methodIndex])
                    case .end:
                        stopped = true
                        return
                    case .switchingProtocols:
                        stopped = true
                        switched = true
                        return
                    default:
                        continue
                    }
                }
            }
        }
        if !stopped || (closesAfterInput && !recorder.failed && !switched) {
            if closesAfterInput {
                do throws(HTTPParseError) {
                    if let event = try parser.eofReceived() {
                        // SAFETY: an empty buffer (a nil start is valid with count 0): an event at EOF
                        // never carries a body range, so `record` reads nothing from it.
                        recorder.record(event, in: UnsafeRawBufferPointer(start: nil, count: 0))
                    } else {
                        recorder.lines.append("closed")
                    }
                } catch {
                    recorder.error(error, base: exchangeBase)
                    stopped = true
                }
            } else {
                recorder.flushBody()
                recorder.lines.append("incomplete")
            }
        } else if !recorder.failed && consumed < total {
            recorder.flushBody()
            recorder.lines.append("unconsumed \(total - consumed)")
        }
        recorder.flushBody()
        // After an error the bytes consumed depend on the cut; only the error itself must agree.
        return Outcome(events: recorder.lines, consumed: recorder.failed ? 0 : consumed)
    }

    /// Turns events into lines.
    private struct Recorder {
        var lines: [String] = []
        var body: [UInt8] = []
        var failed = false

        mutating func flushBody() {
            guard !body.isEmpty else { return }
            lines.append("body " + GoldenCase.escape(body))
            body = []
        }

        mutating func error(_ error: HTTPParseError, base: Int) {
            flushBody()
            failed = true
            lines.append("error=\(error.kind.rawValue) at=\(base + error.offset)")
        }

        mutating func record(_ event: HTTPParseEvent, in input: UnsafeRawBufferPointer) {
            switch event {
            case .needMoreData:
                return
            case .body(let range):
                precondition(!range.isEmpty, "the parser reported an empty body range")
                body += input[range]
                return
            default:
                break
            }
            flushBody()
            switch event {
            case .informationalHead(let head):
                recordHead(head, as: "informational")
            case .switchingProtocols(let head):
                recordHead(head, as: "switching")
            case .head(let head):
                recordHead(head, as: "head")
            case .trailers(let trailers):
                fields(trailers, as: "trailer")
            case .end(let reusable):
                lines.append(reusable ? "end reusable" : "end close")
            case .needMoreData, .body:
                preconditionFailure("handled above")
            }
        }

        private mutating func recordHead(_ head: HTTPResponseHead, as kind: String) {
            let framing: String
            switch head.framing {
            case .none: framing = "none"
            case .contentLength(let length): framing = "length:\(length)"
            case .chunked: framing = "chunked"
            case .untilClose: framing = "close"
            }
            var line = "\(kind) \(head.status.rawValue) \(head.version) \(framing)"
            head.withReasonPhraseBytes { reason in
                if !reason.isEmpty { line += " " + GoldenCase.escape(reason) }
            }
            lines.append(line)
            fields(head.fields, as: "field")
        }

        private mutating func fields(_ list: HTTPFieldList, as kind: String) {
            for position in list.indices {
                list.withBytes(at: position) { name, value in
                    let text = "\(kind) \(GoldenCase.escape(name)):"
                    lines.append(value.isEmpty ? text : text + " " + GoldenCase.escape(value))
                }
            }
        }
    }
}
