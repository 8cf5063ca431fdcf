// The content decoders' fuzz oracle, shared by FuzzContentDecoder, FuzzBrotliDecoder and
// FuzzZstdDecoder: any body under any coding list and limits must decode or throw, never trap,
// never hand out a piece above the piece size or bytes past the size limit, and give the same result
// whole, with a fresh decoder, as in pieces, with a decoder reused (`reset`) from earlier inputs.
//
// Input: byte 0 picks the codings from the target's list, byte 1 the limits, byte 2 the piece size
// of the split delivery; the rest is the body.
public import WickCore
public import WickHTTP1

/// Checks one fuzz input against the decoder; traps on any broken rule.
public func checkContentDecoder(_ input: [UInt8], codingLists: [[String]]) {
    guard input.count >= 3 else { return }
    let codings = ContentCoding.list(fromFieldValues: codingLists[Int(input[0]) % codingLists.count])
    let body = input[3...]
    let whole = decode(body, codings: codings, limitsByte: input[1], reuse: false, pieceSize: max(body.count, 1))
    let split = decode(body, codings: codings, limitsByte: input[1], reuse: true, pieceSize: Int(input[2]) + 1)

    switch (whole, split) {
    case (.success(let a), .success(let b)):
        precondition(a == b, "whole and split decodes differ")
    case (.failure, .failure):
        break
    case (.failure(let error), .success), (.success, .failure(let error)):
        // Only the ratio, measured against the bytes read so far, may depend on the cut.
        guard case .expansionRatioLimitExceeded = error else {
            preconditionFailure("whole and split disagree: \(whole) vs \(split)")
        }
    }
}

private func limits(from byte: UInt8) -> ContentDecoderLimits {
    let pieceSizes = [1, 7, 4096, 64 * 1024]
    let sizes = [64, 4096, 1 << 20, ContentDecoderLimits.default.maximumDecodedSize]
    let ratios = [1, 10, 100, ContentDecoderLimits.default.maximumExpansionRatio]
    let floors = [0, 256, 4096, ContentDecoderLimits.default.expansionRatioFloor]
    return ContentDecoderLimits(
        maximumDecodedSize: sizes[Int(byte >> 2 & 3)],
        maximumExpansionRatio: ratios[Int(byte >> 4 & 3)],
        expansionRatioFloor: floors[Int(byte >> 6 & 3)],
        outputPieceSize: pieceSizes[Int(byte & 3)]
    )
}

/// Decoders kept across inputs, one per limits byte, to exercise `reset`. libFuzzer calls the
/// entry point from one thread only, which is what makes this unsynchronised global sound.
nonisolated(unsafe) private var reusedDecoders: [UInt8: ContentDecoder] = [:]

/// A fresh decoder, or the one kept for `limitsByte` reset to `codings`.
private func makeDecoder(codings: [ContentCoding], limitsByte: UInt8, reuse: Bool) throws(ContentDecodingError)
    -> ContentDecoder
{
    guard reuse, let kept = reusedDecoders[limitsByte] else {
        let fresh = try ContentDecoder(codings: codings, limits: limits(from: limitsByte))
        if reuse { reusedDecoders[limitsByte] = fresh }
        return fresh
    }
    try kept.reset(codings: codings)
    return kept
}

/// The decoded bytes, or the error; traps if a piece or the total breaks a limit, or if an
/// undecoded body comes out changed.
private func decode(_ body: ArraySlice<UInt8>, codings: [ContentCoding], limitsByte: UInt8, reuse: Bool, pieceSize: Int)
    -> Result<[UInt8], ContentDecodingError>
{
    let limits = limits(from: limitsByte)
    let decoder: ContentDecoder
    do {
        decoder = try makeDecoder(codings: codings, limitsByte: limitsByte, reuse: reuse)
    } catch {
        return .failure(error)
    }
    var output: [UInt8] = []
    var failure: ContentDecodingError?
    do {
        var start = body.startIndex
        while start < body.endIndex {
            let end = min(start + pieceSize, body.endIndex)
            try decoder.decode(body[start..<end]) { piece in
                if decoder.decodesBody {
                    precondition(piece.count <= limits.outputPieceSize, "piece of \(piece.count) bytes")
                }
                output += piece
            }
            start = end
        }
        try decoder.finish()
    } catch {
        failure = error
    }
    if decoder.decodesBody {
        precondition(output.count <= limits.maximumDecodedSize, "handed out \(output.count) bytes past the limit")
    } else {
        precondition(output.elementsEqual(body), "an undecoded body was changed")
    }
    return failure.map { .failure($0) } ?? .success(output)
}
