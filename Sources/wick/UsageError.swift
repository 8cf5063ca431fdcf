// A mistake on the command line of `wick get` or `wick demo`.

/// A mistake in the command line.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
