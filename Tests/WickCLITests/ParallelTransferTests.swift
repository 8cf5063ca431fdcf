// `-Z`: the options it takes, and transfers that really overlap (against the local httpbin).
import Foundation
import Testing
import WickCLI
import WickTestSupport

struct ParallelTransferTests {
    @Test func parallelOptions() throws {
        let serial = try TransferOptions(arguments: ["http://h/"], input: TableInput())
        #expect(!serial.isParallel && serial.parallelMaximum == 50 && !serial.opensConnectionsImmediately)
        let parallel = try TransferOptions(
            arguments: ["-sZ", "--parallel-immediate", "--parallel-max", "3", "http://h/"], input: TableInput())
        #expect(parallel.isParallel && parallel.parallelMaximum == 3 && parallel.opensConnectionsImmediately)
        // curl's bounds: below 1 is the default, above 300 is 300.
        for (given, taken) in [("0", 50), ("-4", 50), ("1", 1), ("300", 300), ("301", 300)] {
            let options = try TransferOptions(arguments: ["--parallel-max", given, "http://h/"], input: TableInput())
            #expect(options.parallelMaximum == taken, "--parallel-max \(given)")
        }
        #expect(throws: CommandFailure.self) { try TransferOptions(arguments: ["--parallel-max", "x", "http://h/"], input: TableInput()) }
        let off = try TransferOptions(arguments: ["-Z", "--no-parallel", "http://h/"], input: TableInput())
        #expect(!off.isParallel)
    }

    /// Three two-second responses take about two seconds with `-Z` (six one after the other),
    /// each in its own `-o` file with its own `-w`; with `--parallel-max 1` they take six again.
    @Test(.enabled(if: TestEnvironment.wantsHTTPBin, "needs httpbin: use Scripts/test"))
    func transfersOverlapUpToTheMaximum() throws {
        let base = try TestEnvironment.httpbin().base
        let urls = (1...3).map { "\(base)/delay/2?n=\($0)" }
        let outputs = ["-o", "1.json", "-o", "2.json", "-o", "3.json"]

        let began = Date()
        let parallel = try CommandRun(CommandRun.wickPath, ["-sZ", "-w", "%{url_effective} %{http_code}\\n"] + outputs + urls)
        let parallelSeconds = Date().timeIntervalSince(began)
        #expect(parallel.status == 0, "\(parallel.errorText)")
        // Each transfer's -w reports its own exchange, whichever order they ended in.
        #expect(parallel.outputText.split(separator: "\n").sorted() == urls.map { "\($0) 200" }.sorted())
        #expect(parallelSeconds < 5, "three 2 s responses at once took \(parallelSeconds) s")
        for n in 1...3 {
            let file = try #require(parallel.files["\(n).json"])
            let echo = try #require(try JSONSerialization.jsonObject(with: Data(file)) as? [String: Any])
            #expect((echo["args"] as? [String: String])?["n"] == "\(n)", "the \(n)th -o holds the \(n)th URL's body")
        }

        let bounded = Date()
        let oneAtATime = try CommandRun(CommandRun.wickPath, ["-sZ", "--parallel-max", "1"] + outputs + urls)
        #expect(oneAtATime.status == 0)
        #expect(Date().timeIntervalSince(bounded) >= 6, "--parallel-max 1 runs them one after the other")
    }
}
