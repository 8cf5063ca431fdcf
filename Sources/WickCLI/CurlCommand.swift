// `wick [options] URL`: the curl-compatible command, from its arguments to its exit code.
import Glibc

/// The curl-compatible form of the `wick` command.
public enum CurlCommand {
    /// The help `wick --help` prints.
    public static let usage = """
        Usage: wick [options...] <url>...
          -X, --request METHOD        -H, --header "Name: value" | "Name:" | "Name;" | @file
          -d, --data DATA|@file|@-    --data-binary, --data-raw, --data-urlencode, --json
          -F, --form name=value|@file|<file[;type=T][;filename=F]    --form-string
          -G, --get                   -I, --head               -i, --include
          -o, --output FILE           -O, --remote-name        -J, --remote-header-name
          --output-dir DIR            --create-dirs            -C, --continue-at OFFSET|-
          -L, --location              --max-redirs N           -u, --user USER:PASSWORD  --digest
          -A, --user-agent NAME       -e, --referer URL        --compressed
          -k, --insecure              --cacert FILE            --capath DIR
          --pinnedpubkey sha256//HASH[;...]                     -E, --cert FILE[:PASSWORD]  --key FILE
          -b, --cookie DATA|FILE     -c, --cookie-jar FILE|-
          -m, --max-time SECONDS      --connect-timeout SECONDS  --max-filesize BYTES[k|m|g]
          --retry N                   --retry-delay SECONDS    --retry-max-time SECONDS
          --retry-all-errors
          -x, --proxy [SCHEME://]HOST:PORT (http, https, socks5, socks5h, socks4, socks4a)  --noproxy LIST
          --socks5 HOST:PORT  --socks5-hostname HOST:PORT  --socks4[a] HOST:PORT  -U, --proxy-user USER:PASSWORD
          --proxy-cacert FILE         --proxy-insecure
          --unix-socket PATH          -v, --verbose            -s, --silent  -S, --show-error
          -f, --fail                  --fail-with-body         -w, --write-out FORMAT|@file
          -K, --config FILE|-         --print-swift (the Wick code of the request, not sent)
          -#, --progress-bar          --no-progress-meter
          -Z, --parallel              --parallel-max N         --parallel-immediate
          --http1.1                   --http2                  --http2-prior-knowledge
          --resolve HOST:PORT:ADDR    --connect-to HOST:PORT:HOST:PORT  --interface ADDR  --local-port N[-M]
        Exit codes are curl's (README, "The wick command").
        Also: wick bench URL [-c N] [-n N | -d 30s] [--rate R] [--http2] ... (a load generator; wick bench
          without a URL lists its options), wick get URL, wick demo ...,
          wick pool-test [--seeds N | --seed S] [--steps N] (the connection pool's seeded invariant runs),
          wick fuzz TARGET SECONDS | --list | --smoke SECONDS (Scripts/fuzz of a source checkout)

        """

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String]) async -> Int32 {
        // A reader that goes away (`wick URL | head -c 10`) fails the write with EPIPE, which
        // the command reports as 23, as curl does, instead of the process dying of SIGPIPE.
        _ = signal(SIGPIPE, SIG_IGN)
        let input = SystemArgumentInput()
        let options: TransferOptions
        do {
            options = try TransferOptions(arguments: arguments, input: input)
        } catch {
            StandardStreams.write("wick: \(error)\n", to: StandardStreams.error)
            if error.code == .failedInitialization {
                StandardStreams.write("wick: try 'wick --help' for more information\n", to: StandardStreams.error)
            }
            return error.code.rawValue
        }
        guard !options.printsSwift else {
            do {
                StandardStreams.write(try options.swiftCode(input: input), to: StandardStreams.output)
                return 0
            } catch {
                StandardStreams.write("wick: \(error)\n", to: StandardStreams.error)
                return error.code.rawValue
            }
        }
        return await Transfer(options: options, input: input).run().rawValue
    }
}
