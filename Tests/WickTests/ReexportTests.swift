// `import Wick` alone gives a user the shared vocabulary.
import Testing
import Wick

@Suite struct ReexportTests {
    @Test func sharedVocabularyIsVisibleThroughWick() {
        let headers: HTTPHeaders = ["Accept": "*/*"]
        #expect(HTTPMethod.get.isSafe && headers["accept"] == "*/*")
    }
}
