// Random keys and values, encoded into a query, must decode back to themselves and always make a valid URL.
import Foundation
import Testing
import Wick

struct FormRoundTripTests {
    /// SplitMix64: a small seeded generator, so a failure replays.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Characters drawn from ASCII (every byte but NUL), Latin, CJK and emoji.
    static let alphabet: [Character] =
        (1..<128).map { Character(Unicode.Scalar(UInt8($0))) } + ["é", "ß", "日", "本", "😃", "\u{301}"]

    static func randomString(_ generator: inout SeededGenerator) -> String {
        String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// 300 random flat forms through the default encoder: the query's items, decoded by
    /// `URLComponents`, are exactly the pairs, sorted by escaped key.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomPairsRoundTripThroughTheQuery(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        for _ in 0..<100 {
            var pairs: [String: String] = [:]
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                pairs[Self.randomString(&generator)] = Self.randomString(&generator)
            }
            let request = EncodingFixtures.request(.get, "https://example.com/p?x=1")
            let encoded = try URLEncodedFormParameterEncoder.default.encode(pairs, into: request)
            let items = try #require(URLComponents(url: encoded.url, resolvingAgainstBaseURL: false)?.queryItems)
            #expect(items.first == URLQueryItem(name: "x", value: "1"))
            let decoded = Dictionary(items.dropFirst().map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
            #expect(decoded == pairs)
            #expect(items.count == pairs.count + 1)
        }
    }

    /// With every query character allowed and `+` for spaces, the query may no longer split
    /// back into the same pairs, but it is always one a URL can hold.
    @Test func theWidestAllowedSetStillMakesAValidURL() throws {
        var generator = SeededGenerator(state: 42)
        let encoder = URLEncodedFormParameterEncoder(
            encoder: URLEncodedFormEncoder(spaceEncoding: .plusReplaced, allowedCharacters: .urlQueryAllowed))
        for _ in 0..<200 {
            let pairs = [Self.randomString(&generator): [Self.randomString(&generator)]]
            let encoded = try encoder.encode(pairs, into: EncodingFixtures.request())
            let query = try #require(encoded.url.query(percentEncoded: true))
            #expect(URL(string: encoded.url.absoluteString) == encoded.url)
            #expect(query.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") })
        }
    }
}
