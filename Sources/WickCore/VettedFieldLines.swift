// The wire form of a field list the request encoder checked once, kept with the list.

/// The field lines of a vetted list (`HTTPHeaders.vettedLines`), `name: value` CR LF each, in
/// the list's order: what the request encoder writes for the list, made once when it vetted it.
/// Immutable, so shared by every copy of the list and every request it goes with.
package final class VettedFieldLines: Sendable {
    /// The encoded lines.
    package let bytes: [UInt8]

    /// Lines already encoded.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}
