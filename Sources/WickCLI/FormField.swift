// One `-F`/`--form` argument, as curl reads it: a text field, a file to upload, or a field
// whose text comes from a file.

/// One part of a multipart form.
public struct FormField: Equatable, Sendable {
    /// Where the part's content comes from.
    public enum Content: Equatable, Sendable {
        /// The text given.
        case text(String)
        /// `@path`: the file, uploaded with a file name (its own unless `filename=` names one).
        case file(path: String)
        /// `<path`: the file's bytes as the field's content, with no file name.
        case fileText(path: String)
    }

    /// The field's name (before the first `=`).
    public var name: String
    /// The content.
    public var content: Content
    /// `;type=`: the part's Content-Type.
    public var contentType: String?
    /// `;filename=`: the file name sent in place of the file's own.
    public var fileName: String?

    /// Parses `name=content[;type=T][;filename=F]` (`@file`, `<file`, or text). With `literal`
    /// (`--form-string`), the content is text as given: no `@`, `<` or `;` meaning.
    /// - Throws: `CommandFailure` (26, as curl's "illegally formatted input field") without `=`.
    public init(parsing argument: String, literal: Bool = false) throws(CommandFailure) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw CommandFailure(.readError, "Illegally formatted input field: \(argument)")
        }
        name = String(argument[..<equals])
        var rest = String(argument[argument.index(after: equals)...])
        contentType = nil
        fileName = nil
        guard !literal else {
            content = .text(rest)
            return
        }
        // Parameters are the `;key=value` pieces at the end whose key curl knows.
        var pieces = rest.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        while pieces.count > 1, let last = pieces.last {
            if last.hasPrefix("type=") {
                contentType = String(last.dropFirst(5))
            } else if last.hasPrefix("filename=") {
                fileName = String(last.dropFirst(9))
            } else {
                break
            }
            pieces.removeLast()
        }
        rest = pieces.joined(separator: ";")
        if rest.hasPrefix("@") {
            content = .file(path: String(rest.dropFirst()))
        } else if rest.hasPrefix("<") {
            content = .fileText(path: String(rest.dropFirst()))
        } else {
            content = .text(rest)
        }
    }
}
