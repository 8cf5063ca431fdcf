// One command-line word (or short-option group member) after scanning, before it means anything.

/// What the scanner made of the command line: an option with its value, a switch turned on or
/// off, or a URL.
public enum ScannedArgument: Equatable, Sendable {
    /// An option that takes a value, and the value given.
    case option(CurlOption, String)
    /// A switch: `-L` and `--location` turn it on, `--no-location` off.
    case toggle(CurlOption, Bool)
    /// A word that is not an option: a URL.
    case url(String)
}
