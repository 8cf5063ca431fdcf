// Turning a stream's chunks into the elements its reader gets: raw Data, text, or decoded lines.
import FoundationEssentials

/// Turns the chunks of one response body, in order, into elements. Stateful: a parser carries
/// what a chunk boundary cut (a partial UTF-8 character, a partial line) into the next chunk.
/// A parser runs on its reader's side (a handler's queue, the task iterating a sequence), never
/// on an event loop.
protocol DataStreamParser<Element>: Sendable {
    associatedtype Element: Sendable

    /// Appends the elements `chunk` completes, in order, to `elements` (the reader's list,
    /// reused from chunk to chunk, so a chunk costs no list of its own).
    mutating func parse(_ chunk: Data, into elements: inout [Element])
    /// Appends the elements left once the body has ended (what the last chunk left incomplete).
    mutating func finish(into elements: inout [Element])
    /// Forgets what was carried: a new response body starts (a retried request).
    mutating func reset()
}

/// Hands every chunk over as it is.
struct PassthroughStreamParser: DataStreamParser {
    func parse(_ chunk: Data, into elements: inout [Data]) { elements.append(chunk) }
    func finish(into elements: inout [Data]) {}
    func reset() {}
}
