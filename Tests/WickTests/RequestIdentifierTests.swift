// Request identifiers: unique, and well-formed version 4 UUIDs.
import Foundation
import Testing
@testable import Wick

struct RequestIdentifierTests {
    @Test func identifiersAreUniqueVersion4Variant1UUIDs() {
        let identifiers = (0..<10_000).map { _ in RequestIdentifier.uuid(RequestIdentifier.nextSerial()) }
        #expect(Set(identifiers).count == identifiers.count)
        for identifier in identifiers.prefix(100) {
            let text = identifier.uuidString
            let version = text[text.index(text.startIndex, offsetBy: 14)]
            let variant = text[text.index(text.startIndex, offsetBy: 19)]
            #expect(version == "4")
            #expect("89AB".contains(variant))
        }
    }

    @Test func everyRequestHasItsOwnIdentifier() {
        let session = Session()
        let first = session.request("http://127.0.0.1:1/")
        let second = session.request("http://127.0.0.1:1/")
        #expect(first.id != second.id && first.serial != second.serial && first != second)
    }
}
