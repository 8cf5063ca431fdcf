// The loops-as-global-executor opt-in, in a child process (`wick get --loops-as-global-executor`):
// installing it is process-wide and for good, so it must not happen in the test process.
import Foundation
import Testing
import WickTestSupport

@Suite struct GlobalExecutorTests {
    /// The `wick` executable beside this test bundle (`swift build --build-tests` builds both).
    static var wickExecutable: String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("wick").path
    }

    @Test(.enabled(if: TestEnvironment.wantsNginx, "nginx is started by Scripts/test"))
    func anOrdinaryTaskResumesOnTheSessionsLoop() throws {
        let nginx = try TestEnvironment.nginx()
        let (output, status) = try runCommandCapturingStatus(
            Self.wickExecutable, ["get", "\(nginx.httpBase)/bytes/1k", "--loops-as-global-executor"],
            discardingStandardError: false, timeout: .seconds(30))
        let text = String(decoding: output, as: UTF8.self)
        #expect(status == 0, "\(text)")
        #expect(text.contains("HTTP/1.1 200"), "\(text)")
        // Without the opt-in the task would resume on one of Swift's pool threads.
        #expect(text.contains("task resumed on thread wick-loop-0"), "\(text)")
    }
}
