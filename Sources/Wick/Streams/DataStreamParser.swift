// Turning a stream's chunks into the elements its reader gets: raw Data, text, or decoded lines.
import FoundationEssentials

/// Turns the chunks of one response body, in order, into elements. Stateful: a parser carries
/// what a chunk boundary cut (a partial UTF-8 character, a partial line) into the next chunk.
/// A parser runs on its reader's side (a handler's queue, the task iterating a sequence), never
/// on an event loop.
protocol DataStreamParser<Element>: Sendable {
    associatedtype Element: Sendable

    /// The elements `chunk` completes, in order.
    mutating func parse(_ chunk: Data) -> [Element]
    /// The elements left once the body has ended (what the last chunk left incomplete).
    mutating func finish() -> [Element]
    /// Forgets what was carried: a new response body starts (a retried request).
    mutating func reset()
}

/// Hands every chunk over as it is.
struct PassthroughStreamParser: DataStreamParser {
    func parse(_ chunk: Data) -> [Data] { [chunk] }
    func finish() -> [Data] { [] }
    func reset() {}
}
