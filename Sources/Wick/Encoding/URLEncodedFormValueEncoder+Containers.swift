// The keyed, unkeyed and single-value containers of URLEncodedFormValueEncoder.
import FoundationEssentials

extension URLEncodedFormValueEncoder {
    /// Writes members of an object node; every value goes through a `SingleValueContainer` on
    /// the member's node, so dates, data and nested values are handled in one place.
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: URLEncodedFormNode
        let codingPath: [any CodingKey]
        let options: Options

        mutating func encodeNil(forKey key: Key) throws {
            guard let value = options.nilEncoding.encodeNil() else { return }
            node.member(forKey: key.stringValue).setString(value)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            var container = SingleValueContainer(
                node: node.member(forKey: key.stringValue), codingPath: codingPath + [key], options: options)
            try container.encode(value)
        }

        // The standard library's `encodeIfPresent` skips nil; these route nil through
        // `NilEncoding` instead, so `.dropValue` and `.null` apply to optional properties.
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            try encodeOptional(value, key)
        }

        private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = node.member(forKey: key.stringValue)
            child.makeObject()
            return KeyedEncodingContainer(
                KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key], options: options))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = node.member(forKey: key.stringValue)
            child.makeArray()
            return UnkeyedContainer(node: child, codingPath: codingPath + [key], options: options)
        }

        /// An encoder for this same object, so a superclass's members join the subclass's (as
        /// Alamofire does).
        mutating func superEncoder() -> any Encoder {
            URLEncodedFormValueEncoder(node: node, codingPath: codingPath, options: options)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            URLEncodedFormValueEncoder(
                node: node.member(forKey: key.stringValue), codingPath: codingPath + [key], options: options)
        }
    }

    /// Appends elements to an array node. A nil dropped by `NilEncoding.dropKey` appends nothing.
    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: URLEncodedFormNode
        let codingPath: [any CodingKey]
        let options: Options

        var count: Int { node.elements.count }

        private var nextCodingPath: [any CodingKey] { codingPath + [URLEncodedFormIndexKey(index: count)] }

        mutating func encodeNil() throws {
            guard let value = options.nilEncoding.encodeNil() else { return }
            node.appendElement().setString(value)
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let path = nextCodingPath
            var container = SingleValueContainer(node: node.appendElement(), codingPath: path, options: options)
            try container.encode(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let path = nextCodingPath
            let child = node.appendElement()
            child.makeObject()
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: path, options: options))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = nextCodingPath
            let child = node.appendElement()
            child.makeArray()
            return UnkeyedContainer(node: child, codingPath: path, options: options)
        }

        mutating func superEncoder() -> any Encoder {
            let path = nextCodingPath
            return URLEncodedFormValueEncoder(node: node.appendElement(), codingPath: path, options: options)
        }
    }

    /// Writes one value into its node: a string for scalars, dates and data (per the settings),
    /// or whatever the value's own `encode(to:)` makes.
    struct SingleValueContainer: SingleValueEncodingContainer {
        let node: URLEncodedFormNode
        let codingPath: [any CodingKey]
        let options: Options
        /// A single-value container takes one value; a second is an `EncodingError`.
        private var hasEncoded = false

        init(node: URLEncodedFormNode, codingPath: [any CodingKey], options: Options) {
            self.node = node
            self.codingPath = codingPath
            self.options = options
        }

        mutating func encodeNil() throws {
            try claim(nil)
            if let value = options.nilEncoding.encodeNil() { node.setString(value) }
        }

        mutating func encode(_ value: Bool) throws { try write(value, options.boolEncoding.encode(value)) }
        mutating func encode(_ value: String) throws { try write(value, value) }
        mutating func encode(_ value: Double) throws { try write(value, String(value)) }
        mutating func encode(_ value: Float) throws { try write(value, String(value)) }
        mutating func encode(_ value: Int) throws { try write(value, String(value)) }
        mutating func encode(_ value: Int8) throws { try write(value, String(value)) }
        mutating func encode(_ value: Int16) throws { try write(value, String(value)) }
        mutating func encode(_ value: Int32) throws { try write(value, String(value)) }
        mutating func encode(_ value: Int64) throws { try write(value, String(value)) }
        mutating func encode(_ value: UInt) throws { try write(value, String(value)) }
        mutating func encode(_ value: UInt8) throws { try write(value, String(value)) }
        mutating func encode(_ value: UInt16) throws { try write(value, String(value)) }
        mutating func encode(_ value: UInt32) throws { try write(value, String(value)) }
        mutating func encode(_ value: UInt64) throws { try write(value, String(value)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            switch value {
            case let date as Date:
                if let text = try options.dateEncoding.encode(date) { return try write(value, text) }
            case let data as Data:
                if let text = try options.dataEncoding.encode(data) { return try write(value, text) }
            case let decimal as Decimal:
                // Decimal encodes itself as a keyed container of its parts; its text is what a form wants.
                return try write(value, decimal.description)
            case let url as URL:
                // URL encodes itself as `relative` and `base` members; a form wants the address.
                return try write(value, url.absoluteString)
            default:
                break
            }
            try claim(value)
            try value.encode(to: URLEncodedFormValueEncoder(node: node, codingPath: codingPath, options: options))
        }

        private mutating func write(_ value: some Encodable, _ text: String) throws {
            try claim(value)
            node.setString(text)
        }

        private mutating func claim(_ value: Any?) throws {
            guard !hasEncoded else {
                throw EncodingError.invalidValue(
                    value as Any,
                    EncodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "a single value container was asked to encode a second value"))
            }
            hasEncoded = true
        }
    }
}
