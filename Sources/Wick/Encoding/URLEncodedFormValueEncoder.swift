// The `Encoder` URLEncodedFormEncoder hands to values: it writes them into a URLEncodedFormNode.
import FoundationEssentials

/// The `Encoder` a value's `encode(to:)` sees. It and its containers write into `node`: a keyed
/// container makes it an object, an unkeyed one an array, a single-value one a string. Bools,
/// dates and data are written through the encoder's settings; `Decimal` and `URL` as their text.
struct URLEncodedFormValueEncoder: Encoder {
    /// The settings that shape values (the rest are the serializer's).
    struct Options {
        let boolEncoding: URLEncodedFormEncoder.BoolEncoding
        let dataEncoding: URLEncodedFormEncoder.DataEncoding
        let dateEncoding: URLEncodedFormEncoder.DateEncoding
        let nilEncoding: URLEncodedFormEncoder.NilEncoding
    }

    let node: URLEncodedFormNode
    let codingPath: [any CodingKey]
    let options: Options

    /// No user info: the encoder takes none.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath, options: options))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedContainer(node: node, codingPath: codingPath, options: options)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath, options: options)
    }
}

/// A coding key for array positions in coding paths.
struct URLEncodedFormIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }

    init(index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
