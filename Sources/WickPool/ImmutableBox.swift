// A value behind a reference, for a large field that is rarely set in a value that is moved often.

/// An immutable value behind a reference: 8 bytes in place of the value in a struct that is
/// copied often (an origin's pool state moves out of its slot and back on every pool event).
/// The box never changes, so the struct keeps value semantics: setting the field makes a new box.
@usableFromInline final class ImmutableBox<Value: Sendable>: Sendable {
    @usableFromInline let value: Value

    @inlinable init(_ value: Value) {
        self.value = value
    }
}
