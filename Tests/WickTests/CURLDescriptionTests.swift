// cURLDescription: the command's arguments as a POSIX shell parses them (curl stubbed), and
// the command run through the real curl against httpbin and nginx, compared with what Wick sent.
import Foundation
import Testing
import WickTestSupport

@testable import Wick

/// Runs `script` with `/bin/sh -c`; stdin is empty, stderr discarded. Bounded: the script's curl
/// calls carry `--max-time`, and the process is killed after 30 s.
func runShell(_ script: String) throws -> (output: Data, status: Int32) {
    let (output, status) = try runCommandCapturingStatus(
        "/bin/sh", ["-c", script], discardingStandardError: true, timeout: .seconds(30))
    return (Data(output), status)
}

/// The arguments curl would get from `command`, and the bytes on its stdin (hex), from a shell
/// function standing in for curl.
func curlArguments(of command: String) throws -> (arguments: [String], stdin: String) {
    let stub = #"curl() { for a in "$@"; do printf '%s\0' "$a"; done; printf 'STDIN:'; od -An -tx1 | tr -d ' \n'; }"#
    let (output, status) = try runShell(stub + "\n" + command)
    #expect(status == 0)
    let text = String(decoding: output, as: UTF8.self)
    let parts = text.components(separatedBy: "STDIN:")
    let arguments = parts[0].split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
    return (arguments, parts.count > 1 ? parts[1] : "")
}

private func request(
    _ method: HTTPMethod = .get, _ url: String = "http://example.com/a?b=c", headers: HTTPHeaders = [:],
    body: Data? = nil, unixSocketPath: String? = nil
) -> HTTPRequest {
    HTTPRequest(method: method, url: URL(string: url)!, headers: headers, body: body, unixSocketPath: unixSocketPath)
}

struct CURLDescriptionTests {
    @Test func quotingSurvivesTheShellByteForByte() throws {
        let nasty = #"it's "$HOME" `id` \n \ ; & | * ~ 'x'"#
        var headers = HTTPHeaders()
        headers.add(name: "X-Nasty", value: nasty)
        headers.add(name: "X-Empty", value: "")
        headers.add(.contentType("text/plain"))
        let body = "line 1\nit's $PATH\n'"
        let command = Request.cURLCommand(
            for: request(.post, headers: headers, body: Data(body.utf8)), credential: nil)
        let (arguments, stdin) = try curlArguments(of: command)
        #expect(
            arguments == [
                "-v", "-X", "POST", "--http1.1", "-H", "X-Nasty: \(nasty)", "-H", "X-Empty;", "-H",
                "Content-Type: text/plain",
                "-H", "Accept:", "-H", "User-Agent:", "-H", "Expect:", "--data-raw", body, "http://example.com/a?b=c",
            ])
        #expect(stdin.isEmpty)
        #expect(command.hasPrefix("curl -v \\\n\t-X POST \\\n\t--http1.1"))
    }

    @Test func aBinaryBodyIsPipedFromPrintf() throws {
        let bytes: [UInt8] = [0, 1, 0x27, 0x25, 0x5C, 0x7F, 0x80, 0xFF, 0x0A]
        let command = Request.cURLCommand(for: request(.put, body: Data(bytes)), credential: nil)
        let (arguments, stdin) = try curlArguments(of: command)
        #expect(Array(arguments.suffix(3)) == ["--data-binary", "@-", "http://example.com/a?b=c"])
        #expect(arguments.contains("Content-Type:"))
        #expect(stdin == "000127255c7f80ff0a")
    }

    @Test func headUsesHeadAndDefaultsAreNotRemovedWhenSent() throws {
        let headers: HTTPHeaders = [.accept("application/json"), .userAgent("me/1"), .defaultAcceptEncoding]
        let (arguments, _) = try curlArguments(
            of: Request.cURLCommand(for: request(.head, headers: headers), credential: nil))
        #expect(
            arguments == [
                "-v", "--head", "--http1.1", "-H", "Accept: application/json", "-H", "User-Agent: me/1", "-H",
                "Accept-Encoding: gzip, deflate, br, zstd", "--compressed", "http://example.com/a?b=c",
            ])
        let (other, _) = try curlArguments(
            of: Request.cURLCommand(for: request(headers: [.acceptEncoding("br")]), credential: nil))
        #expect(!other.contains("--compressed"))
    }

    @Test func unixSocketsUseUnixSocket() throws {
        let (perRequest, _) = try curlArguments(
            of: Request.cURLCommand(for: request(unixSocketPath: "/run/it's.sock"), credential: nil))
        #expect(Array(perRequest[4...5]) == ["--unix-socket", "/run/it's.sock"])
        #expect(perRequest.last == "http://example.com/a?b=c")
        let (socketURL, _) = try curlArguments(
            of: Request.cURLCommand(for: request(.get, "https+unix://%2Frun%2Fapp.sock/x/y?z=1"), credential: nil))
        #expect(Array(socketURL[4...5]) == ["--unix-socket", "/run/app.sock"])
        #expect(socketURL.last == "https://localhost/x/y?z=1")
        let (bare, _) = try curlArguments(
            of: Request.cURLCommand(for: request(.get, "unix:///tmp/s.sock"), credential: nil))
        #expect(bare.last == "http://localhost/")
    }

    @Test func aCredentialIsAnsweredByCurlAndTheChallengeAnswerLeftOut() throws {
        let headers: HTTPHeaders = [.authorization(username: "u", password: "p"), .accept("*/*")]
        let (arguments, _) = try curlArguments(
            of: Request.cURLCommand(
                for: request(headers: headers), credential: HTTPCredential(user: "u'1", password: "p:w")))
        #expect(Array(arguments[4...6]) == ["--anyauth", "-u", "u'1:p:w"])
        #expect(!arguments.contains { $0.hasPrefix("Authorization") })
        let (plain, _) = try curlArguments(of: Request.cURLCommand(for: request(headers: headers), credential: nil))
        #expect(plain.contains("Authorization: Basic dTpw"))
    }

    @Test func aRequestThatCouldNotBeBuiltSaysSo() async throws {
        let session = Session()
        let bad = session.request("gopher://x/")
        _ = await bad.serializingData().result
        #expect(bad.cURLCommand().hasPrefix("curl command could not be created: invalid URL"))
        #expect(bad.cURLDescription() == "$ curl command could not be created")
        // The handler is called too, at once, as Alamofire's is when its URLRequest cannot be made.
        let described = await withCheckedContinuation { continuation in
            bad.cURLDescription { continuation.resume(returning: $0) }
        }
        #expect(described == "$ curl command could not be created")
        await session.shutdown()
    }

    /// Alamofire calls the handler once the `URLRequest` exists, before the request runs; with
    /// no adapter that could change it, so does Wick, even for a request never started.
    @Test func theHandlerRunsWhenTheRequestExistsNotWhenItStarts() async {
        let session = Session(startRequestsImmediately: false)
        let request = session.request("http://example.com/path")
        let described = await withCheckedContinuation { continuation in
            request.cURLDescription { continuation.resume(returning: $0) }
        }
        #expect(described.hasPrefix("$ curl -v"))
        #expect(described.hasSuffix(#""http://example.com/path""#))
        #expect(request.state == .initialized)
        await session.shutdown()
    }

    /// Alamofire's format, which logs and tests written for Alamofire compare against.
    @Test func theDescriptionIsInAlamofiresFormat() {
        let headers: HTTPHeaders = [
            HTTPHeader(name: "X-Quote", value: #"say "hi""#), HTTPHeader(name: "Cookie", value: "a=b"),
            .contentType("application/json"),
        ]
        let described = Request.alamofireCURLDescription(
            of: request(.post, headers: headers, body: Data(#"{"a":"b\"c"}"#.utf8)), credential: nil, cookies: "a=b")
        let expected = [
            "$ curl -v", "-X POST", #"-b "a=b""#, #"-H "X-Quote: say \"hi\"""#, #"-H "Content-Type: application/json""#,
            #"-d "{\"a\":\"b\\\"c\"}""#, #""http://example.com/a?b=c""#,
        ]
        #expect(described == expected.joined(separator: " \\\n\t"))
        let authenticated = Request.alamofireCURLDescription(
            of: request(.get), credential: HTTPCredential(user: "u", password: "p"), cookies: nil)
        #expect(authenticated.contains("-u u:p"))
    }
}
