// A list that keeps its last element inline, so that the usual one element costs no array.

/// An append-only list, in order, whose latest element is stored inline and the earlier ones in
/// an array: a request's sent requests, its exchanges' metrics and its waiters are almost always
/// one, and a one-element array would be an allocation per request.
struct InlineList<Element> {
    /// The latest element.
    private(set) var last: Element?
    /// The ones before it, in order.
    private(set) var earlier: [Element] = []

    /// Whether the list has no element.
    var isEmpty: Bool { last == nil }

    /// Adds `element` at the end. Both values move: a large element (a `TransactionMetrics`)
    /// copied in here cost its value witnesses' copy and destroy, once per request.
    mutating func append(_ element: consuming Element) {
        if let previous = last.take() { earlier.append(previous) }
        last = consume element
    }

    /// Every element, in order (an array: only for readers that need one).
    var all: [Element] {
        guard let last else { return [] }
        return earlier + [last]
    }

    /// Calls `body` with every element, in order.
    func forEach(_ body: (Element) -> Void) {
        for element in earlier { body(element) }
        if let last { body(last) }
    }
}

extension InlineList: Sendable where Element: Sendable {}
