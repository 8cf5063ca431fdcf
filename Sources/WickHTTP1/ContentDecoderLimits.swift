// The bounds a content decoder enforces on untrusted compressed bodies, on by default.

/// Limits on decoding a compressed body, checked while streaming.
///
/// A decompression bomb (a small body that inflates to gigabytes) is stopped by whichever limit it
/// reaches first, before any output beyond the limit is handed out; memory stays bounded by
/// `outputPieceSize` per coding layer whatever the body holds. Tune them per request or per
/// session; `unlimited` only for trusted sources.
public struct ContentDecoderLimits: Hashable, Sendable {
    /// The most bytes a body may decode to (per coding layer). Default 256 MiB: far above any API
    /// response; raise it for large compressed downloads. zlib is never given room for more than
    /// one byte past it; a body that decodes to more throws
    /// `ContentDecodingError.decodedSizeLimitExceeded` after exactly this many bytes were handed out.
    public var maximumDecodedSize: Int

    /// The most decoded bytes per encoded byte received. Default 100: text and JSON compress 3–20×,
    /// a bomb of zeros about 1000×. Exceeding it throws
    /// `ContentDecodingError.expansionRatioLimitExceeded`. Checked only once the decoded size is
    /// above `expansionRatioFloor`.
    public var maximumExpansionRatio: Int

    /// Decoded sizes up to this many bytes are never flagged by the ratio, so that small, highly
    /// repetitive bodies (a page of spaces) decode. Default 1 MiB.
    public var expansionRatioFloor: Int

    /// The most codings applied on top of each other (`Content-Encoding: gzip, gzip`). Default 3;
    /// more throws `ContentDecodingError.tooManyCodings`. Identity entries do not count.
    public var maximumCodingLayers: Int

    /// The largest piece of decoded output handed out at once, and the size of each layer's
    /// output buffer. Default 64 KiB.
    public var outputPieceSize: Int

    /// Limits with the documented defaults unless given.
    public init(
        maximumDecodedSize: Int = 256 * 1024 * 1024,
        maximumExpansionRatio: Int = 100,
        expansionRatioFloor: Int = 1024 * 1024,
        maximumCodingLayers: Int = 3,
        outputPieceSize: Int = 64 * 1024
    ) {
        precondition(maximumDecodedSize >= 0, "maximumDecodedSize \(maximumDecodedSize) is negative")
        precondition(maximumExpansionRatio >= 1, "maximumExpansionRatio \(maximumExpansionRatio) is below 1")
        precondition(expansionRatioFloor >= 0, "expansionRatioFloor \(expansionRatioFloor) is negative")
        precondition(maximumCodingLayers >= 1, "maximumCodingLayers \(maximumCodingLayers) is below 1")
        precondition(
            (1...Int(UInt32.max)).contains(outputPieceSize),
            "outputPieceSize \(outputPieceSize) outside 1...UInt32.max"
        )
        self.maximumDecodedSize = maximumDecodedSize
        self.maximumExpansionRatio = maximumExpansionRatio
        self.expansionRatioFloor = expansionRatioFloor
        self.maximumCodingLayers = maximumCodingLayers
        self.outputPieceSize = outputPieceSize
    }

    /// The defaults.
    public static let `default` = ContentDecoderLimits()

    /// No size or ratio limit (the layer limit and piece size keep their defaults): only for bodies
    /// from a trusted source.
    public static let unlimited = ContentDecoderLimits(
        maximumDecodedSize: .max,
        maximumExpansionRatio: .max,
        expansionRatioFloor: .max
    )
}
