// Writes a URLEncodedFormNode tree as `key=value` pairs joined by `&`, escaped and optionally sorted.

/// Turns the tree of `URLEncodedFormEncoder` into the form string. Each string leaf becomes one
/// pair whose key is the path from the root: nested object keys through the `KeyPathEncoding`,
/// array elements through the `ArrayEncoding`; the whole key goes through the `KeyEncoding`; key
/// and value are then percent-escaped. Empty nodes, empty arrays and empty objects write nothing.
struct URLEncodedFormSerializer {
    let encoder: URLEncodedFormEncoder

    /// The root object's pairs, joined by `&`.
    func serialize(_ root: URLEncodedFormNode) -> String {
        objectSegments(root, parentKey: nil).joined(separator: "&")
    }

    /// The pairs under `node`, whose key is `key`, joined by `&`; nil when there are none.
    private func segment(_ node: URLEncodedFormNode, key: String) -> String? {
        switch node.kind {
        case .empty:
            return nil
        case .string:
            let space = encoder.spaceEncoding.replacement
            let escapedKey = encoder.allowedCharacters.escape(encoder.keyEncoding.encode(key), space: space)
            return escapedKey + "=" + encoder.allowedCharacters.escape(node.string, space: space)
        case .array:
            let segments = node.elements.enumerated().compactMap { index, element in
                segment(element, key: encoder.arrayEncoding.encode(key, atIndex: index))
            }
            return segments.isEmpty ? nil : segments.joined(separator: "&")
        case .object:
            let segments = objectSegments(node, parentKey: key)
            return segments.isEmpty ? nil : segments.joined(separator: "&")
        }
    }

    /// One segment per non-empty member of `node`, sorted when `alphabetizeKeyValuePairs` is on.
    /// A member's key is `parentKey` plus its key through the `KeyPathEncoding`, or its bare key
    /// at the root (`parentKey` nil).
    private func objectSegments(_ node: URLEncodedFormNode, parentKey: String?) -> [String] {
        let segments = node.members.compactMap { member in
            let key = parentKey.map { $0 + encoder.keyPathEncoding.encodeKeyPath(member.key) } ?? member.key
            return segment(member.node, key: key)
        }
        return encoder.alphabetizeKeyValuePairs ? segments.sorted() : segments
    }
}
