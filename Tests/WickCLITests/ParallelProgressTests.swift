// `-Z`'s meter: its header and lines checked against what /usr/bin/curl 7.88.1 wrote, its
// redraw interval and its speed.
import Testing
import WickCLI

struct ParallelProgressTests {
    typealias Totals = ParallelProgressMeter.Totals

    /// `curl -Z -o a -o b URL-of-1k URL-of-5000000-bytes`: the header and first line, then
    /// the last, 34 ms later.
    @Test func twoDownloadsAsCurlDrewThem() {
        var meter = ParallelProgressMeter()
        let first = meter.update(Totals(started: 2, running: 2), at: .zero)
        #expect(first == ParallelProgressMeter.header + "\r--  --      0     0     2     2  --:--:-- --:--:-- --:--:--     0      ")
        let done = Totals(downloaded: 5_001_024, expectedDownload: 5_001_024, started: 2, running: 0)
        let last = meter.update(done, at: .milliseconds(34), final: true)
        #expect(last == "\r100 --  4883k     0     2     0  --:--:-- --:--:-- --:--:--  140M     \n")
    }

    @Test func atMostTwiceASecondWithEstimates() {
        var meter = ParallelProgressMeter()
        _ = meter.update(Totals(expectedDownload: 200, started: 2, running: 2), at: .zero)
        #expect(meter.update(Totals(downloaded: 50, expectedDownload: 200, started: 2, running: 2), at: .milliseconds(400)) == nil)
        #expect(meter.update(Totals(downloaded: 50, expectedDownload: 200, started: 2, running: 2), at: .milliseconds(500)) == nil)
        // 100 bytes in 1 s of 200: 2 s in all, 1 s left.
        let line = meter.update(Totals(downloaded: 100, expectedDownload: 200, started: 2, running: 1), at: .seconds(1))
        #expect(line == "\r 50 --    100     0     2     1   0:00:02  0:00:01  0:00:01   100      ")
    }

    /// Ten lines in, the speed counts from the oldest of the last ten, not from the start.
    @Test func theSpeedSpansTheLastTenLines() {
        var meter = ParallelProgressMeter()
        var line: String?
        for second in 0..<10 {
            line = meter.update(Totals(downloaded: second < 9 ? 0 : 9_000, started: 1, running: 1), at: .seconds(second))
        }
        // The first nine lines moved nothing; 9,000 bytes over the nine seconds since the oldest.
        #expect(line?.hasSuffix(ProgressText.size(1_000) + " " + "     ") == true)
        #expect(meter.update(Totals(downloaded: 9_000, started: 1, running: 1), at: .seconds(11))?.contains("--:--:--") == true)
    }
}
