// Looking through `Optional` inside `Any`, for the encodings of a `Parameters` dictionary.

/// Lets a value of unknown type held as `Any` be asked whether it is an `Optional`, and which.
private protocol OptionalParameter {
    /// The wrapped value, itself looked through; nil for `.none` at any depth.
    var unwrappedParameter: Any? { get }
}

extension Optional: OptionalParameter {
    fileprivate var unwrappedParameter: Any? {
        switch self {
        case .none: nil
        case .some(let wrapped): unwrappedParameterValue(wrapped)
        }
    }
}

/// `value` with any `Optional` layers removed; nil when one of them is `.none`.
func unwrappedParameterValue(_ value: Any) -> Any? {
    if let optional = value as? any OptionalParameter { return optional.unwrappedParameter }
    return value
}
