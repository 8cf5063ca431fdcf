// Emptying a scratch list on a request's path without the general emptying's code.

extension Array {
    /// Removes every element and keeps the storage, as `removeAll(keepingCapacity: true)`. One
    /// element, the usual count of the per-iteration lists a request passes through (its loop
    /// task, its completion, its flush), goes by `removeLast()`: the general emptying is a
    /// range replacement, a function of its own for each element type, and those are lines of
    /// code a request would run through for nothing.
    @inlinable package mutating func removeAllKeepingCapacity() {
        if count == 1 {
            removeLast()
        } else {
            removeAll(keepingCapacity: true)
        }
    }
}
