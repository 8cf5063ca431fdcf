// The tree a URLEncodedFormEncoder builds: each node is empty, a string, an array or an object.

/// One value of the form being built. The value encoder's containers hold nodes and write into
/// them; `URLEncodedFormSerializer` then walks the tree. Nodes are objects so that a container
/// writes in place: appending an element or a member costs O(1), whatever the depth.
///
/// A container asking for a node of another kind replaces what the node held (an `Encodable`
/// that writes a key twice, or as two kinds of container, keeps the last). An empty node (a nil
/// dropped by `NilEncoding.dropKey`, an unused container) writes nothing.
final class URLEncodedFormNode {
    /// What the node holds.
    enum Kind {
        case empty
        case string
        case array
        case object
    }

    private(set) var kind = Kind.empty
    /// The value, when `kind == .string`.
    private(set) var string = ""
    /// The elements, in order, when `kind == .array`.
    private(set) var elements: [URLEncodedFormNode] = []
    /// The members, in the order first encoded, when `kind == .object`.
    private(set) var members: [(key: String, node: URLEncodedFormNode)] = []
    /// Where each key is in `members`.
    private var memberIndices: [String: Int] = [:]

    /// Holds `value`, replacing anything held.
    func setString(_ value: String) {
        become(.string)
        string = value
    }

    /// Becomes an object, keeping its members if it is one already.
    func makeObject() { become(.object) }

    /// Becomes an array, keeping its elements if it is one already.
    func makeArray() { become(.array) }

    /// The member for `key` (made empty if new), after making this node an object.
    func member(forKey key: String) -> URLEncodedFormNode {
        become(.object)
        if let index = memberIndices[key] { return members[index].node }
        let node = URLEncodedFormNode()
        memberIndices[key] = members.count
        members.append((key, node))
        return node
    }

    /// A new empty element at the end, after making this node an array.
    func appendElement() -> URLEncodedFormNode {
        become(.array)
        let node = URLEncodedFormNode()
        elements.append(node)
        return node
    }

    private func become(_ newKind: Kind) {
        guard kind != newKind else { return }
        kind = newKind
        string = ""
        elements = []
        members = []
        memberIndices = [:]
    }
}
