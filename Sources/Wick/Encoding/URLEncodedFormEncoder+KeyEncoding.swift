// How URLEncodedFormEncoder rewrites keys: snake_case, kebab-case, capitalised, upper or lower case.

extension URLEncodedFormEncoder {
    /// How keys are rewritten before escaping. Applied to each pair's whole key as composed
    /// (`parentKey[childKey]`), as Alamofire does.
    public enum KeyEncoding: Sendable {
        /// The keys as the types encode them (the default).
        case useDefaultKeys
        /// `oneTwoThree` → `one_two_three`, `myURLValue` → `my_url_value`: words split where
        /// lower case turns upper, and before the last capital of a run of capitals followed by
        /// lower case; then lower-cased.
        case convertToSnakeCase
        /// As `convertToSnakeCase`, joined with `-`: `one-two-three`.
        case convertToKebabCase
        /// The first character upper-cased: `oneTwoThree` → `OneTwoThree`.
        case capitalized
        /// Every letter upper-cased: `ONETWOTHREE`.
        case uppercased
        /// Every letter lower-cased: `onetwothree`.
        case lowercased
        /// As the closure rewrites it.
        case custom(@Sendable (String) -> String)

        /// `key` rewritten.
        func encode(_ key: String) -> String {
            switch self {
            case .useDefaultKeys: key
            case .convertToSnakeCase: Self.words(of: key).joined(separator: "_")
            case .convertToKebabCase: Self.words(of: key).joined(separator: "-")
            case .capitalized: key.prefix(1).uppercased() + key.dropFirst()
            case .uppercased: key.uppercased()
            case .lowercased: key.lowercased()
            case .custom(let encoding): encoding(key)
            }
        }

        /// The lower-cased words of a camel-case `key`. A boundary falls before an upper-case
        /// character that follows one that is not upper case (`oneTwo`), and before the last
        /// upper-case character of a run when lower case follows it (`URLValue` → `URL`, `Value`).
        private static func words(of key: String) -> [String] {
            let characters = Array(key)
            var words: [String] = []
            var start = 0
            for index in characters.indices.dropFirst() where characters[index].isUppercase {
                let afterNonUpper = !characters[index - 1].isUppercase
                let endsUpperRun = index + 1 < characters.count && characters[index + 1].isLowercase
                if afterNonUpper || endsUpperRun {
                    words.append(String(characters[start..<index]).lowercased())
                    start = index
                }
            }
            words.append(String(characters[start...]).lowercased())
            return words
        }
    }
}
