// Test helpers for frames: raw frames byte by byte, and the parser run over delivery patterns.
import WickTestSupport

@testable import WickHTTP2

/// A frame written by hand: Length (24) | Type (8) | Flags (8) | R + Stream Identifier (32) | payload.
func rawFrame(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, payload: [UInt8] = [], length: Int? = nil) -> [UInt8] {
    let length = length ?? payload.count
    return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
        + [UInt8(stream >> 24), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)] + payload
}

/// Big-endian bytes of a 32-bit value.
func be32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}

/// What the parser made of an input: frames and stream errors in order, then a connection error
/// if one ended it, and the bytes left unparsed.
struct ParseOutcome: Equatable, CustomStringConvertible {
    var items: [Result<HTTP2Frame, HTTP2ProtocolError>] = []
    var connectionError: HTTP2ProtocolError?
    var leftover = 0

    var frames: [HTTP2Frame] { items.compactMap { try? $0.get() } }

    var description: String {
        "\(items) error=\(connectionError.map(String.init(describing:)) ?? "none") leftover=\(leftover)"
    }

    static func == (lhs: ParseOutcome, rhs: ParseOutcome) -> Bool {
        lhs.description == rhs.description
    }
}

/// Feeds `pieces` to a fresh parser, draining frames after each piece.
func parse(_ pieces: [ArraySlice<UInt8>], maxFrameSize: Int = 16_384) -> ParseOutcome {
    var parser = HTTP2FrameParser(maxFrameSize: maxFrameSize)
    var outcome = ParseOutcome()
    for piece in pieces {
        parser.append(piece)
        while true {
            do {
                guard let frame = try parser.nextFrame() else { break }
                outcome.items.append(.success(frame))
            } catch {
                if error.isConnectionError {
                    outcome.connectionError = error
                    return outcome
                }
                outcome.items.append(.failure(error))
            }
        }
    }
    outcome.leftover = parser.bufferedByteCount
    return outcome
}

/// The parse of `input` whole, checked to be the same under every delivery pattern (byte at a
/// time, every split) and under `randomCuts` seeded random cuts.
func parseUnderEveryDelivery(_ input: [UInt8], maxFrameSize: Int = 16_384, randomCuts: Int = 20) -> (
    ParseOutcome, [String]
) {
    let whole = parse([input[...]], maxFrameSize: maxFrameSize)
    var disagreements: [String] = []
    var deliveries =
        input.count <= 2048 ? Delivery.all(of: input) : [Delivery.whole(input), Delivery.byteAtATime(input)]
    var random = SeededRandom(seed: UInt64(input.count))
    for cut in 0..<randomCuts {
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < input.count {
            let end = min(input.count, start + Int.random(in: 0...64, using: &random))
            pieces.append(input[start..<end])
            start = end
        }
        deliveries.append(Delivery(name: "random cut \(cut)", pieces: pieces))
    }
    for delivery in deliveries {
        let outcome = parse(delivery.pieces, maxFrameSize: maxFrameSize)
        if outcome != whole { disagreements.append("\(delivery): \(outcome)") }
    }
    return (whole, disagreements)
}
