// Header fields still held as the bytes they were parsed from, read only when asked for.

/// Parsed header fields that `HTTPHeaders` reads on demand instead of copying into strings.
///
/// A response head becomes `HTTPHeaders` for every request, yet most callers never read it: a
/// source lets the list stay bytes until someone does, so an unread head costs no strings.
///
/// An implementation must be immutable (the same position always gives the same field) and
/// safe to read from any thread: `HTTPHeaders` is `Sendable` on that promise. It is a class so
/// that copying a list of headers costs one retain (and so that a `ManagedBuffer`, which cannot
/// be declared `Sendable`, can conform).
public protocol HTTPFieldSource: AnyObject {
    /// How many fields there are.
    var fieldCount: Int { get }
    /// The field at `position` (`0..<fieldCount`), names as sent.
    func field(at position: Int) -> HTTPHeader
    /// The value of the field at `position` (`0..<fieldCount`).
    func value(at position: Int) -> String
    /// Whether the field at `position` (`0..<fieldCount`) is named `name`, comparing ASCII
    /// letters without case. Does not allocate.
    func hasName(_ name: String, at position: Int) -> Bool
    /// The position of the first field named `name` (ASCII letters compared without case), or
    /// nil. Does not allocate. The default asks `hasName` at each position in turn; a source that
    /// can compare lengths before bytes should do better, as every response's lookups of
    /// `Set-Cookie` and `Strict-Transport-Security` go through it.
    func firstPosition(ofName name: String) -> Int?
}

extension HTTPFieldSource {
    /// The first position whose field `hasName(name, at:)`, or nil.
    public func firstPosition(ofName name: String) -> Int? {
        (0..<fieldCount).first { hasName(name, at: $0) }
    }
}
