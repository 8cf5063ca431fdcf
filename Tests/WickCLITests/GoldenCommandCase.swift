// One command line of the golden suite, and what of its two runs (curl, wick) must agree.
import Testing

/// A command line run through curl and `wick`, and how their outputs are compared. Arguments
/// may name the servers: `{httpbin}`, `{nginx}` (http), `{nginxs}` (https, localhost),
/// `{root}` (the test CA's PEM), `{www}` (nginx's document root), `{capath}` (a directory of it, hashed), `{sock}` (nginx's Unix socket), `{pin}` (nginx's key pin),
/// `{mtls}` (nginx's listener that requires a client certificate), `{clientchain}` and `{clientkey}` (the PKI's client identity),
/// `{refused}` (a URL whose port nothing listens on; `{refusedauthority}` its `host:port`),
/// `{socks}` and `{socksauth}` (microsocks' `host:port`, open and demanding `{socksuser}`), `{httpbinport}`, `{nginxport}`, `{nginxsport}` (the
/// ports alone, for `--resolve` and `--connect-to`), `{httpsproxy}` (an HTTPS proxy's URL, `https://localhost:PORT`, whose
/// certificate the test CA issued: an in-process `TestProxy` behind a `TLSFront`).
struct GoldenCommandCase: Sendable, CustomTestStringConvertible {
    /// How standard output is compared (exit status and written files always are, exactly).
    enum Comparison: Sendable {
        /// Line by line, with `Date:` lines (a second may tick between the runs) removed and
        /// status lines compared without case (see `GoldenCommandTests.comparable`).
        case exact
        /// As JSON (httpbin's echo), with these request header names (lowercase) removed from its
        /// `headers` object: the ones where curl and `wick` differ by design.
        case json(ignoringHeaders: Set<String>)
        /// `-w` output with every `0.000123`-style time replaced by `T`.
        case writeOut
        /// `%{json}`: every variable `wick` writes exists in curl's, and the stable ones agree.
        case writeOutJSON
        /// The `>` lines of `-v` on standard error (request line first, fields in any order),
        /// the `<` lines as `exact` compares them; standard output exactly.
        case verbose
        /// Not at all (only the status and files): the output is an error's or differs by design.
        case statusOnly
        /// Standard output exactly, and standard error's lines that start with `Warning:`.
        case warnings
        /// Standard output exactly; on standard error the progress meter's (or bar's) header
        /// exactly, and its last line's length and first 33 columns (percentages and sizes:
        /// the speeds and times after them depend on the clock).
        case progress
    }

    /// What the case shows.
    let name: String
    /// The arguments, with placeholders.
    let arguments: [String]
    /// How to compare standard output.
    let comparison: Comparison
    /// A fixture file given as standard input.
    var standardInput: String? = nil
    /// Files the run starts with: a name, the file (placeholders allowed) whose first bytes it
    /// holds, and how many (nil: all).
    var seeds: [Seed] = []

    /// A file a run starts with, copied from the first `length` bytes of `source`.
    struct Seed: Sendable {
        /// The file's name in the run's directory.
        let name: String
        /// The file copied, with placeholders.
        let source: String
        /// How many bytes of it (nil: all).
        let length: Int?
    }

    var testDescription: String { name }

    /// Every case.
    static let all: [GoldenCommandCase] = [
        // Requests and their bodies, as httpbin echoes them.
        .init(name: "GET", arguments: ["-s", "{httpbin}/get?a=1&b=two"], comparison: .json(ignoringHeaders: [])),
        .init(name: "-b literal cookies", arguments: ["-s", "-b", "a=1; b=2", "{httpbin}/cookies"], comparison: .exact),
        .init(name: "-b '' turns the engine on: a redirect and the next URL carry the cookie", arguments: ["-s", "-L", "-b", "", "{httpbin}/cookies/set?x=y", "{httpbin}/cookies"], comparison: .exact),
        .init(name: "no -b: no cookie engine", arguments: ["-s", "-L", "{httpbin}/cookies/set?x=y"], comparison: .exact),
        .init(name: "-d twice joins with &", arguments: ["-s", "-d", "x=1", "-d", "y=2", "{httpbin}/post"], comparison: .json(ignoringHeaders: [])),
        .init(name: "-d @file strips CR and LF", arguments: ["-s", "-d", "@data.txt", "{httpbin}/post"], comparison: .json(ignoringHeaders: [])),
        .init(name: "--data-binary @file keeps them", arguments: ["-s", "--data-binary", "@data.txt", "{httpbin}/post"], comparison: .json(ignoringHeaders: [])),
        .init(name: "--data-raw keeps @", arguments: ["-s", "--data-raw", "@data.txt", "{httpbin}/post"], comparison: .json(ignoringHeaders: [])),
        .init(name: "-d @missing after -s: no warning", arguments: ["-s", "-o", "/dev/null", "-d", "@missing", "{httpbin}/post"], comparison: .warnings),
        .init(name: "-d @missing before -s warns", arguments: ["-d", "@missing", "-s", "-o", "/dev/null", "{httpbin}/post"], comparison: .warnings),
        .init(name: "-d @- reads stdin", arguments: ["-s", "-d", "@-", "{httpbin}/post"], comparison: .json(ignoringHeaders: []), standardInput: "data.txt"),
        .init(
            name: "--data-urlencode forms",
            arguments: ["-s", "--data-urlencode", "a=b c&d", "--data-urlencode", "=x/y", "--data-urlencode", "f@data.txt", "--data-urlencode", "plain é", "{httpbin}/post"],
            comparison: .json(ignoringHeaders: [])),
        .init(name: "--json twice", arguments: ["-s", "--json", "{\"a\":1}", "--json", "@body.json", "{httpbin}/post"], comparison: .json(ignoringHeaders: [])),
        .init(name: "-d then --json: no &", arguments: ["-s", "-d", "a", "--json", "b", "-d", "c", "{httpbin}/post"], comparison: .json(ignoringHeaders: [])),
        .init(name: "-G puts data in the query", arguments: ["-s", "-G", "-d", "a=1", "--data-urlencode", "b=x y", "{httpbin}/get?z=0"], comparison: .json(ignoringHeaders: [])),
        .init(name: "-XPUT with data", arguments: ["-s", "-XPUT", "-d", "x", "{httpbin}/anything"], comparison: .json(ignoringHeaders: [])),
        .init(name: "-X DELETE", arguments: ["-s", "-X", "DELETE", "{httpbin}/anything"], comparison: .json(ignoringHeaders: [])),
        .init(
            name: "-F text, @file, <file, type and filename",
            arguments: ["-s", "-F", "a=1", "-F", "f=@data.txt", "-F", "g=<data.txt", "-F", "h=@body.json;type=application/json;filename=x.json", "--form-string", "s=@literal", "{httpbin}/post"],
            comparison: .json(ignoringHeaders: ["content-type", "content-length"])),
        .init(
            name: "-H set, remove, empty, @file",
            arguments: ["-s", "-H", "X-Custom: v", "-H", "Accept:", "-H", "X-Empty;", "-H", "@headers.txt", "-A", "agent/1", "-e", "http://ref.example/", "{httpbin}/headers"],
            comparison: .json(ignoringHeaders: [])),
        .init(name: "-H replaces the User-Agent", arguments: ["-s", "-H", "User-Agent: mine", "{httpbin}/headers"], comparison: .json(ignoringHeaders: [])),
        .init(name: "-u Basic", arguments: ["-s", "-u", "user:pass", "{httpbin}/basic-auth/user/pass"], comparison: .json(ignoringHeaders: [])),
        .init(name: "--digest", arguments: ["-s", "--digest", "-u", "user:pass", "{httpbin}/digest-auth/auth/user/pass"], comparison: .json(ignoringHeaders: [])),
        .init(name: "--digest with the wrong password", arguments: ["-s", "--digest", "-u", "user:nope", "-w", "%{http_code}", "{httpbin}/digest-auth/auth/user/pass"], comparison: .exact),
        .init(name: "--compressed with Accept-Encoding given", arguments: ["-s", "--compressed", "-H", "Accept-Encoding: gzip", "{httpbin}/gzip"], comparison: .json(ignoringHeaders: [])),
        .init(name: "--compressed", arguments: ["-s", "--compressed", "{httpbin}/gzip"], comparison: .json(ignoringHeaders: ["accept-encoding"])),
        .init(name: "-L follows", arguments: ["-sL", "{httpbin}/redirect/2"], comparison: .json(ignoringHeaders: [])),
        .init(name: "-K config file", arguments: ["-K", "wick.cfg", "{httpbin}/post"], comparison: .json(ignoringHeaders: [])),
        .init(name: "-K - reads stdin", arguments: ["--config", "-", "{httpbin}/post"], comparison: .json(ignoringHeaders: []), standardInput: "wick.cfg"),
        .init(name: "26 -K missing", arguments: ["-s", "-K", "missing.cfg", "{httpbin}/get"], comparison: .statusOnly),
        .init(name: "63 --max-filesize below the Content-Length: no file", arguments: ["-s", "--max-filesize", "1023", "-o", "out.bin", "{nginx}/bytes/1k"], comparison: .statusOnly),
        .init(name: "--max-filesize at the size", arguments: ["-s", "--max-filesize", "1k", "-o", "out.bin", "-w", "%{http_code} %{size_download}", "{nginx}/bytes/1k"], comparison: .writeOut),
        .init(name: "-x through a proxy", arguments: ["-s", "-x", "{nginx}", "http://example.invalid/index.html"], comparison: .exact),

        // SOCKS proxies (microsocks): the proxy resolves the name or wick does, http and https, credentials, each refusal.
        .init(name: "-x socks5h://", arguments: ["-s", "-x", "socks5h://{socks}", "{nginx}/index.html"], comparison: .exact),
        .init(name: "--socks5 resolves the name itself", arguments: ["-s", "--socks5", "{socks}", "http://localhost:{nginxport}/index.html"], comparison: .exact),
        .init(name: "--socks5-hostname, TLS to the origin inside", arguments: ["-s", "--cacert", "{root}", "--socks5-hostname", "{socks}", "{nginxs}/index.html"], comparison: .exact),
        .init(name: "--proxy-user for a SOCKS5 proxy", arguments: ["-s", "-x", "socks5://{socksauth}", "--proxy-user", "{socksuser}", "{nginx}/index.html"], comparison: .exact),
        .init(name: "97 a wrong SOCKS5 password", arguments: ["-s", "-x", "socks5h://{socksauth}", "-U", "wick:guess", "{nginx}/index.html"], comparison: .statusOnly),
        .init(name: "97 no credentials for a SOCKS5 proxy that wants them", arguments: ["-s", "--socks5-hostname", "{socksauth}", "{nginx}/index.html"], comparison: .statusOnly),
        .init(name: "97 the SOCKS5 proxy cannot connect", arguments: ["-s", "--socks5-hostname", "{socks}", "{refused}"], comparison: .statusOnly),
        .init(name: "7 the SOCKS5 proxy is not listening", arguments: ["-s", "-x", "socks5h://{refusedauthority}", "{nginx}/index.html"], comparison: .statusOnly),
        // HTTPS proxies: absolute form inside TLS to the proxy, TLS to the origin inside that, the proxy's own trust.
        .init(name: "-x https:// with --proxy-cacert", arguments: ["-s", "-x", "{httpsproxy}", "--proxy-cacert", "{root}", "{nginx}/index.html"], comparison: .exact),
        .init(name: "-x https:// to an https origin: TLS in TLS", arguments: ["-s", "-x", "{httpsproxy}", "--proxy-cacert", "{root}", "--cacert", "{root}", "{nginxs}/bytes/64k"], comparison: .exact),
        .init(name: "--proxy-insecure", arguments: ["-s", "-x", "{httpsproxy}", "--proxy-insecure", "{nginx}/index.html"], comparison: .exact),
        .init(name: "60 an HTTPS proxy the system store does not trust", arguments: ["-s", "-x", "{httpsproxy}", "{nginx}/index.html"], comparison: .statusOnly),
        .init(name: "60 --cacert is the origin's, not the proxy's", arguments: ["-s", "-x", "{httpsproxy}", "--cacert", "{root}", "{nginxs}/index.html"], comparison: .statusOnly),
        .init(name: "77 --proxy-cacert without certificates", arguments: ["-s", "-x", "{httpsproxy}", "--proxy-cacert", "data.txt", "{nginx}/index.html"], comparison: .statusOnly),

        // Name-resolution overrides: where connections go changes, the Host field and the name TLS verifies do not.
        .init(name: "--resolve keeps the Host field", arguments: ["-s", "--resolve", "golden.wick.test:{httpbinport}:127.0.0.1", "http://golden.wick.test:{httpbinport}/headers"], comparison: .json(ignoringHeaders: [])),
        .init(name: "--connect-to over TLS verifies the URL's host", arguments: ["-s", "--cacert", "{root}", "--connect-to", "localhost:1:127.0.0.1:{nginxsport}", "https://localhost:1/index.html"], comparison: .exact),
        .init(name: "--connect-to, -w the address really used", arguments: ["-s", "-o", "/dev/null", "-w", "%{remote_ip} %{remote_port} %{http_code}", "--connect-to", "wick.test:1:127.0.0.1:{nginxport}", "http://wick.test:1/index.html"], comparison: .writeOut),
        .init(name: "60 --resolve to a name the certificate lacks", arguments: ["-s", "--cacert", "{root}", "--resolve", "other.wick.test:{nginxsport}:127.0.0.1", "https://other.wick.test:{nginxsport}/index.html"], comparison: .statusOnly),
        .init(name: "49 --resolve with a name for an address", arguments: ["-s", "--resolve", "a.test:80:not-an-ip", "{nginx}/index.html"], comparison: .statusOnly),
        .init(name: "--interface with an address, -w the local address", arguments: ["-s", "-o", "/dev/null", "--interface", "127.0.0.1", "-w", "%{local_ip} %{http_code}", "{nginx}/index.html"], comparison: .writeOut),
        .init(name: "45 --interface that names no address", arguments: ["-s", "--interface", "no-such-if0", "{nginx}/index.html"], comparison: .statusOnly),
        .init(name: "45 --interface with another host's address", arguments: ["-s", "--interface", "192.0.2.1", "{nginx}/index.html"], comparison: .statusOnly),
        .init(name: "2 --local-port out of order", arguments: ["-s", "--local-port", "5-3", "{nginx}/index.html"], comparison: .statusOnly),
        .init(name: "49 --connect-to with a port that is not a number", arguments: ["-s", "--connect-to", "127.0.0.1:{nginxport}:localhost:x", "{nginx}/index.html"], comparison: .statusOnly),

        // Several URLs: one session (the second reuses the connection), outputs in order.
        .init(name: "two URLs, -w each", arguments: ["-s", "-w", "[%{http_code} %{num_connects}]\\n", "{nginx}/index.html", "{nginx}/bytes/1k"], comparison: .writeOut),
        .init(name: "-o serves the first URL", arguments: ["-s", "-o", "first.html", "{nginx}/index.html", "{httpbin}/get?x=1", "-A", "golden"], comparison: .exact),
        .init(name: "the last URL's exit code", arguments: ["-s", "{refused}", "{nginx}/index.html"], comparison: .exact),
        .init(name: "a failed last URL", arguments: ["-s", "{nginx}/index.html", "{refused}"], comparison: .exact),

        // -Z: each URL to its own -o; the exit code is the last failure's, not the last URL's.
        .init(name: "-Z to two files", arguments: ["-sZ", "-o", "a.html", "-o", "b.bin", "{nginx}/index.html", "{nginx}/bytes/64k"], comparison: .exact),
        .init(name: "-Z --parallel-max 1: -w in order", arguments: ["-sZ", "--parallel-max", "1", "-o", "/dev/null", "-o", "/dev/null", "-w", "[%{http_code} %{url_effective}]\\n", "{nginx}/index.html", "{httpbin}/status/418"], comparison: .writeOut),
        .init(name: "-Z keeps an earlier failure", arguments: ["-sZ", "--parallel-max", "1", "-o", "/dev/null", "{refused}", "{nginx}/index.html"], comparison: .exact),
        .init(name: "-Z: the later of two failures", arguments: ["-sfZ", "--parallel-max", "1", "{httpbin}/status/404", "{refused}"], comparison: .exact),
        .init(name: "-Z draws one meter for all", arguments: ["-Z", "-o", "a.html", "-o", "b.bin", "{nginx}/index.html", "{nginx}/bytes/64k"], comparison: .progress),
        .init(name: "-Z --parallel-immediate", arguments: ["-sZ", "--parallel-immediate", "-o", "x.html", "{nginx}/index.html"], comparison: .exact),

        // Heads and files.
        .init(name: "-i", arguments: ["-s", "-i", "{nginx}/index.html"], comparison: .exact),
        .init(name: "-i without -L shows the redirect", arguments: ["-si", "{nginx}/text"], comparison: .exact),
        .init(name: "-I", arguments: ["-sI", "{nginx}/index.html"], comparison: .exact),
        .init(name: "-iL shows every head", arguments: ["-siL", "{httpbin}/redirect-to?url=/status/204"], comparison: .exact),
        .init(name: "-o", arguments: ["-s", "-o", "out.html", "{nginx}/index.html"], comparison: .exact),
        .init(name: "-O --output-dir --create-dirs", arguments: ["-sO", "--output-dir", "a/b", "--create-dirs", "{nginx}/index.html"], comparison: .exact),
        .init(name: "-OJ names the file by Content-Disposition", arguments: ["-sOJ", "{httpbin}/response-headers?Content-Disposition=attachment%3B%20filename%3D%22../x.txt%22"], comparison: .exact),
        .init(name: "-OJ without Content-Disposition", arguments: ["-sOJ", "{nginx}/index.html"], comparison: .exact),
        .init(
            name: "-C - resumes a partial file", arguments: ["-s", "-C", "-", "-o", "partial.bin", "-w", "%{http_code} %{size_download}", "{nginx}/bytes/1k"],
            comparison: .writeOut, seeds: [.init(name: "partial.bin", source: "{www}/bytes/1k", length: 100)]),
        .init(
            name: "-C - on a complete file: 416, nothing written", arguments: ["-s", "-C", "-", "-o", "complete.bin", "-w", "%{http_code}", "{nginx}/bytes/64k"],
            comparison: .writeOut, seeds: [.init(name: "complete.bin", source: "{www}/bytes/64k", length: nil)]),
        .init(
            name: "33 -C on a server without ranges", arguments: ["-s", "-C", "-", "-o", "part.txt", "-w", "%{http_code}", "{httpbin}/get"],
            comparison: .writeOut, seeds: [.init(name: "part.txt", source: "{www}/index.html", length: 5)]),
        .init(name: "-C N to stdout", arguments: ["-s", "-C", "5", "{nginx}/index.html"], comparison: .exact),
        .init(name: "-o into a missing directory", arguments: ["-s", "-o", "no/such/out.html", "{nginx}/index.html"], comparison: .exact),
        .init(name: "-i -o", arguments: ["-si", "-o", "out.txt", "{httpbin}/status/204"], comparison: .exact),
        .init(name: "--unix-socket", arguments: ["-s", "--unix-socket", "{sock}", "http://localhost/index.html"], comparison: .exact),
        .init(name: "-v heads", arguments: ["-sv", "-A", "golden", "{nginx}/index.html"], comparison: .verbose),
        .init(name: "-v with a body", arguments: ["-sv", "-A", "golden", "-d", "a=b", "{httpbin}/post"], comparison: .verbose),

        // The progress meter and bar on standard error.
        .init(name: "-o draws the meter", arguments: ["-o", "out.html", "{nginx}/index.html"], comparison: .progress),
        .init(name: "a pipe draws the meter", arguments: ["{nginx}/bytes/64k"], comparison: .progress),
        .init(name: "-# draws the bar", arguments: ["-#", "-o", "out.bin", "{nginx}/bytes/64k"], comparison: .progress),
        .init(name: "--no-progress-meter draws nothing", arguments: ["--no-progress-meter", "-o", "out.html", "{nginx}/index.html"], comparison: .progress),
        .init(name: "the meter after a resume", arguments: ["-C", "-", "-o", "partial.bin", "{nginx}/bytes/1k"], comparison: .progress, seeds: [.init(name: "partial.bin", source: "{www}/bytes/1k", length: 100)]),

        // -w.
        .init(
            name: "-w variables",
            arguments: ["-s", "-o", "/dev/null", "-w", "%{http_code} %{response_code} %{size_download} %{num_connects} %{remote_ip} %{remote_port} %{method} %{scheme} %{content_type} %{num_redirects} %{url_effective} %{exitcode} %{http_version}\\n%{time_total} %{time_namelookup} %{time_connect} %{time_appconnect} %{time_starttransfer}\\n100%% %header{content-type} %header{server}\\n", "{nginx}/index.html"],
            comparison: .writeOut),
        .init(name: "-w after -L", arguments: ["-sL", "-o", "/dev/null", "-w", "%{http_code} %{num_redirects} %{url_effective}", "{httpbin}/redirect/2"], comparison: .writeOut),
        .init(name: "-w on a refused connect", arguments: ["-s", "-w", "[%{http_code}] %{exitcode}", "{refused}"], comparison: .writeOut),
        .init(name: "-w sizes with --compressed", arguments: ["-s", "--compressed", "-A", "golden", "-o", "/dev/null", "-H", "Accept-Encoding: gzip", "-w", "%{size_download} %{size_header} %{size_request} %{size_upload}", "{httpbin}/gzip"], comparison: .writeOut),
        .init(name: "-w sizes of a POST", arguments: ["-s", "-A", "golden", "-d", "abc", "-o", "/dev/null", "-w", "%{size_download} %{size_header} %{size_request} %{size_upload}", "{httpbin}/post"], comparison: .writeOut),
        .init(name: "-w %{json}", arguments: ["-s", "-o", "/dev/null", "-A", "golden", "-w", "%{json}", "{httpbin}/get"], comparison: .writeOutJSON),
        .init(name: "--http2 over TLS", arguments: ["-s", "--http2", "--cacert", "{root}", "-o", "/dev/null", "-w", "%{http_code} %{http_version}", "{nginxh2}/index.html"], comparison: .writeOut),
        .init(name: "--http2 then --http1.1", arguments: ["-s", "--http2", "--http1.1", "--cacert", "{root}", "-o", "/dev/null", "-w", "%{http_code} %{http_version}", "{nginxh2}/index.html"], comparison: .writeOut),
        .init(name: "--http2-prior-knowledge (h2c)", arguments: ["-sS", "--http2-prior-knowledge", "-w", "%{http_version}", "{nginxh2c}/index.html"], comparison: .exact),
        .init(name: "-w https times", arguments: ["-s", "--cacert", "{root}", "-o", "/dev/null", "-w", "%{http_code} %{scheme} %{time_appconnect}", "{nginxs}/index.html"], comparison: .writeOut),

        // Failures and their exit codes.
        .init(name: "-f on 404", arguments: ["-sf", "{httpbin}/status/404"], comparison: .exact),
        .init(name: "-f -o writes no file", arguments: ["-sf", "-o", "out.txt", "{httpbin}/status/404"], comparison: .exact),
        .init(name: "--fail-with-body", arguments: ["-s", "--fail-with-body", "{httpbin}/status/418"], comparison: .exact),
        .init(name: "404 without -f", arguments: ["-s", "{httpbin}/status/404"], comparison: .exact),
        .init(name: "7 refused", arguments: ["-sS", "{refused}"], comparison: .statusOnly),
        .init(name: "6 no such host", arguments: ["-sS", "http://nonexistent.invalid/"], comparison: .statusOnly),
        .init(name: "28 -m", arguments: ["-sS", "-m", "1", "{httpbin}/delay/3"], comparison: .statusOnly),
        .init(name: "47 --max-redirs", arguments: ["-sSL", "--max-redirs", "1", "{httpbin}/redirect/3"], comparison: .statusOnly),
        .init(name: "60 untrusted", arguments: ["-sS", "{nginxs}/index.html"], comparison: .statusOnly),
        .init(name: "--cacert", arguments: ["-sS", "--cacert", "{root}", "{nginxs}/index.html"], comparison: .exact),
        .init(name: "--cert --key (mutual TLS)", arguments: ["-sS", "--cacert", "{root}", "--cert", "{clientchain}", "--key", "{clientkey}", "{mtls}/who"], comparison: .exact),
        .init(name: "mutual TLS without --cert", arguments: ["-sS", "--cacert", "{root}", "-o", "/dev/null", "-w", "%{http_code}", "{mtls}/who"], comparison: .writeOut),
        .init(name: "58 --cert unreadable", arguments: ["-sS", "--cacert", "{root}", "--cert", "/nonexistent/client.pem", "{mtls}/who"], comparison: .statusOnly),
        .init(name: "--capath", arguments: ["-sS", "--capath", "{capath}", "{nginxs}/index.html"], comparison: .exact),
        .init(name: "-k", arguments: ["-sSk", "{nginxs}/index.html"], comparison: .exact),
        .init(name: "--pinnedpubkey matching", arguments: ["-sS", "--cacert", "{root}", "--pinnedpubkey", "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=;{pin}", "{nginxs}/index.html"], comparison: .exact),
        .init(name: "90 --pinnedpubkey mismatch", arguments: ["-sS", "--cacert", "{root}", "--pinnedpubkey", "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "{nginxs}/index.html"], comparison: .statusOnly),
        .init(name: "--pinnedpubkey PEM key file", arguments: ["-sS", "--cacert", "{root}", "--pinnedpubkey", "{serverkeypem}", "{nginxs}/index.html"], comparison: .exact),
        .init(name: "--pinnedpubkey DER key file", arguments: ["-sS", "--cacert", "{root}", "--pinnedpubkey", "{serverkeyder}", "{nginxs}/index.html"], comparison: .exact),
        .init(name: "90 --pinnedpubkey key file mismatch", arguments: ["-sS", "--cacert", "{root}", "--pinnedpubkey", "{clientkeypem}", "{nginxs}/index.html"], comparison: .statusOnly),
        .init(name: "90 --pinnedpubkey key file unreadable", arguments: ["-sS", "--cacert", "{root}", "--pinnedpubkey", "/nonexistent/key.pem", "{nginxs}/index.html"], comparison: .statusOnly),
        .init(name: "77 unreadable --cacert", arguments: ["-sS", "--cacert", "missing.pem", "{nginxs}/index.html"], comparison: .statusOnly),
        .init(name: "3 a space in the URL", arguments: ["-sS", "http://exa mple.com/"], comparison: .statusOnly),
        .init(name: "7 no Unix socket", arguments: ["-sS", "--unix-socket", "/nonexistent/socket", "http://localhost/"], comparison: .statusOnly),
        .init(name: "1 unsupported scheme", arguments: ["-sS", "foo://127.0.0.1/"], comparison: .statusOnly),
        .init(name: "2 unknown option", arguments: ["--frobnicate", "{httpbin}/get"], comparison: .statusOnly),
        .init(name: "2 no URL", arguments: ["-s"], comparison: .statusOnly),
        .init(name: "2 -f and --fail-with-body", arguments: ["-sf", "--fail-with-body", "{httpbin}/get"], comparison: .statusOnly),
        .init(name: "2 -d and -I", arguments: ["-sI", "-d", "x", "{httpbin}/get"], comparison: .statusOnly),
        .init(name: "--retry-all-errors retries a refused connect", arguments: ["-sS", "--retry", "1", "--retry-all-errors", "--retry-delay", "1", "-w", "%{http_code}", "{refused}"], comparison: .writeOut),
        .init(name: "--retry-all-errors retries a -f status", arguments: ["-sf", "--retry", "1", "--retry-all-errors", "--retry-delay", "1", "-w", "%{http_code}", "{httpbin}/status/404"], comparison: .writeOut),
        .init(name: "--retry on 503", arguments: ["-s", "--retry", "1", "-w", "%{http_code}", "{httpbin}/status/503"], comparison: .writeOut),
    ]
}
