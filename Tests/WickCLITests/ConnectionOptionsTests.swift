// --resolve, --connect-to, --interface and --local-port: read into the session's name-resolution
// rules and source binding, each malformed value refused with curl's exit code.
import Testing
import Wick
import WickCLI

struct ConnectionOptionsTests {
    @Test func overridesAndBindingReachTheSession() throws {
        let options = try TransferOptions.parsing([
            "--resolve", "a.test:443:127.0.0.1", "--resolve", "b.test:80:[::1]", "--connect-to",
            "c.test:443:d.test:8443",
            "--interface", "127.0.0.2", "--local-port", "4000-4009", "u",
        ])
        let configuration = try options.sessionConfiguration()
        #expect(
            configuration.nameResolution.resolveOverrides.map(\.description) == [
                "a.test:443:127.0.0.1", "b.test:80:[::1]",
            ])
        #expect(configuration.nameResolution.connectToOverrides.map(\.description) == ["c.test:443:d.test:8443"])
        #expect(configuration.sourceBinding == (try SourceBinding(address: "127.0.0.2", ports: 4000...4009)))
        #expect(try TransferOptions.parsing(["u"]).sessionConfiguration().sourceBinding == nil)
    }

    @Test func malformedValuesAreRefusedWithCurlsExitCodes() throws {
        let badResolve = try TransferOptions.parsing(["--resolve", "a.test:443:nowhere", "u"])
        do {
            _ = try badResolve.sessionConfiguration()
            Issue.record("a --resolve address that is a name must be refused")
        } catch {
            #expect(error.code == .optionSyntaxError)
        }
        let badConnectTo = try TransferOptions.parsing(["--connect-to", "a.test:443:b.test:x", "u"])
        do {
            _ = try badConnectTo.sessionConfiguration()
            Issue.record("a --connect-to port that is not a number must be refused")
        } catch {
            #expect(error.code == .optionSyntaxError)
        }
        let badInterface = try TransferOptions.parsing(["--interface", "eth0", "u"])
        do {
            _ = try badInterface.sessionConfiguration()
            Issue.record("an interface name must be refused")
        } catch {
            #expect(error.code == .interfaceFailed)
        }
        #expect(throws: CommandFailure.usage("option --local-port: is badly used here")) {
            try TransferOptions.parsing(["--local-port", "9-3", "u"])
        }
    }
}
