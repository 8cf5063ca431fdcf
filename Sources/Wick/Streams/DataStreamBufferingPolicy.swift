// How many bytes a data stream's reader may fall behind before the socket stops being read.

extension DataStreamRequest {
    /// The bound on what one reader of a stream (a handler, or an async sequence) may hold
    /// unhandled: bytes received from the socket and not yet handled by the reader.
    ///
    /// Above `highWaterMark` the connection stops reading the socket (TCP flow control then
    /// slows the server); once the reader is back down to `lowWaterMark` reading resumes. The
    /// bytes of the socket read in progress are still delivered after the pause, so a reader may
    /// hold up to `highWaterMark` plus one read buffer (64 KiB by default; more when a gzip or
    /// deflate body is decoded, bounded by the decoder's expansion ratio).
    public struct BufferingPolicy: Sendable, Equatable {
        /// Above this many bytes held, reading stops. At least 1.
        public let highWaterMark: Int
        /// At or below this many bytes held, reading resumes. From 0 to `highWaterMark - 1`.
        public let lowWaterMark: Int

        /// 1 MiB high, 256 KiB low.
        public static let `default` = BufferingPolicy(highWaterMark: 1 << 20, lowWaterMark: 1 << 18)

        /// A policy with both marks. Traps unless `1 <= highWaterMark` and
        /// `0 <= lowWaterMark < highWaterMark`: a bound that cannot be met is a programming error.
        public init(highWaterMark: Int, lowWaterMark: Int) {
            precondition(highWaterMark >= 1, "BufferingPolicy: highWaterMark \(highWaterMark) must be at least 1")
            precondition(
                lowWaterMark >= 0 && lowWaterMark < highWaterMark,
                "BufferingPolicy: lowWaterMark \(lowWaterMark) must be in 0..<\(highWaterMark)")
            self.highWaterMark = highWaterMark
            self.lowWaterMark = lowWaterMark
        }

        /// At most `limit` bytes held (`highWaterMark`), reading resuming at a quarter of it.
        public static func bytes(_ limit: Int) -> BufferingPolicy {
            BufferingPolicy(highWaterMark: limit, lowWaterMark: limit / 4)
        }
    }
}
