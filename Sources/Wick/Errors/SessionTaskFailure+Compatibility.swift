// The shapes SessionTaskFailure's cases had before they carried Wick's own failure values, kept
// as constructors so that code building these failures (test doubles, adapters) still compiles.

extension SessionTaskFailure {
    /// A lost connection described only by text: its cause is `other`.
    @available(*, deprecated, message: "use .connectionLost(ConnectionLoss(cause:reason:requestMayHaveBeenProcessed:))")
    public static func connectionLost(reason: String, requestMayHaveBeenProcessed: Bool) -> SessionTaskFailure {
        .connectionLost(
            ConnectionLoss(cause: .other, reason: reason, requestMayHaveBeenProcessed: requestMayHaveBeenProcessed))
    }

    /// A body that could not be decoded, described only by text: its kind is `other`.
    @available(*, deprecated, message: "use .contentDecodingFailed(ContentDecodingFailure(kind:reason:))")
    public static func contentDecodingFailed(reason: String) -> SessionTaskFailure {
        .contentDecodingFailed(ContentDecodingFailure(kind: .other, reason: reason))
    }
}
