// curl's progress meter and bar: the column formats and whole lines, checked against what
// /usr/bin/curl 7.88.1 wrote for the same sizes and times.
import Testing
import WickCLI

struct ProgressTests {
    /// Five columns at most: curl writes into six bytes, so `99.10M` (its tenth computed by
    /// integer division) loses its unit.
    @Test(arguments: [
        (0, "    0"), (1024, " 1024"), (99_999, "99999"), (100_000, "  97k"), (5_000_000, "4882k"),
        (10_239_999, "9999k"), (10_240_000, " 9.7M"), (104_857_599, "99.10"), (104_857_600, " 100M"),
        (493_000_000, " 470M"), (10_485_759_999, "9999M"), (10_485_760_000, " 9.7G"),
        (107_374_182_400, " 100G"), (10_995_116_277_760, "  10T"), (11_258_999_068_426_240, "  10P"),
    ])
    func sizesInFiveColumns(_ bytes: Int, _ text: String) {
        #expect(ProgressText.size(bytes) == text)
    }

    @Test(arguments: [
        (0, "--:--:--"), (-5, "--:--:--"), (1, " 0:00:01"), (24, " 0:00:24"), (3_661, " 1:01:01"),
        (359_999, "99:59:59"), (360_000, "  4d 04h"), (86_399_999, "999d 23h"), (86_400_000, "   1000d"),
    ])
    func durationsInEightColumns(_ seconds: Int, _ text: String) {
        #expect(ProgressText.duration(seconds: seconds) == text)
        #expect(text.count == 8)
    }

    /// `curl -o /dev/null URL` for a 1,024-byte body, whose end came 34.117 ms after the start:
    /// the header, the zero line drawn before connecting, the last line and its newline.
    @Test func aDownloadAsCurlDrewIt() {
        var meter = ProgressMeter()
        let first = meter.update(TransferProgress(), at: .zero)
        #expect(first == ProgressMeter.header + "\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0")
        #expect(meter.update(TransferProgress(downloaded: 512, expectedDownload: 1024), at: .milliseconds(20)) == nil)
        let last = meter.finish(TransferProgress(downloaded: 1024, expectedDownload: 1024), at: .microseconds(34_117))
        #expect(last == "\r100  1024  100  1024    0     0  30014      0 --:--:-- --:--:-- --:--:-- 30117\n")
    }

    /// `curl -d @file -o /dev/null URL`: 481 bytes sent, 357 received, done in 4.972 ms.
    @Test func anUploadAsCurlDrewIt() {
        var meter = ProgressMeter()
        _ = meter.update(TransferProgress(expectedUpload: 481), at: .zero)
        let last = meter.finish(
            TransferProgress(downloaded: 357, expectedDownload: 357, uploaded: 481, expectedUpload: 481),
            at: .microseconds(4_972))
        #expect(last == "\r100   838  100   357  100   481  71802  96741 --:--:-- --:--:-- --:--:--  204k\n")
    }

    /// Lines at most once a second; estimates from the average speed; the current speed over
    /// the last six lines drawn.
    @Test func aSlowDownloadOnceASecond() {
        var meter = ProgressMeter()
        let total = 5_000_000
        _ = meter.update(TransferProgress(expectedDownload: total), at: .zero)
        #expect(meter.update(TransferProgress(downloaded: 100_000, expectedDownload: total), at: .milliseconds(900)) == nil)
        let line = meter.update(TransferProgress(downloaded: 204_800, expectedDownload: total), at: .seconds(1))
        // 204,800 B/s: 24 s in all, 1 spent, 23 left; 4%.
        #expect(line == "\r  4 4882k    4  200k    0     0   200k      0  0:00:24  0:00:01  0:00:23  200k")
        for second in 2...8 {
            _ = meter.update(TransferProgress(downloaded: 204_800 * second, expectedDownload: total), at: .seconds(second))
        }
        // The last six lines span seconds 4 to 9 and 409,600 bytes more a second in the last one.
        let late = meter.update(TransferProgress(downloaded: 204_800 * 8 + 409_600, expectedDownload: total), at: .seconds(9))
        #expect(late?.hasSuffix(ProgressText.size((204_800 * 4 + 409_600) / 5)) == true)
    }

    @Test func aResumeIsAnnouncedAboveTheHeader() {
        var meter = ProgressMeter(resumedFrom: 100)
        #expect(meter.update(TransferProgress(), at: .zero)?.hasPrefix("** Resuming transfer from byte position 100\n" + ProgressMeter.header) == true)
    }

    /// `curl -# -o /dev/null URL` with COLUMNS unset and COLUMNS=40.
    @Test func theBarAsCurlDrewIt() {
        var bar = ProgressBar(width: ProgressBar.width(columns: nil))
        #expect(bar.update(TransferProgress(expectedDownload: 1024), at: .zero) == nil)
        #expect(bar.update(TransferProgress(downloaded: 1024, expectedDownload: 1024), at: .milliseconds(1)) == "\r" + String(repeating: "#", count: 72) + " 100.0%")
        #expect(bar.finish() == "\n")
        var narrow = ProgressBar(width: ProgressBar.width(columns: "40"))
        #expect(narrow.update(TransferProgress(downloaded: 1024, expectedDownload: 1024), at: .zero) == "\r" + String(repeating: "#", count: 33) + " 100.0%")
    }

    @Test func theBarRedrawsAtMostTenTimesASecondBelowTheEnd() {
        var bar = ProgressBar(width: 27)
        let third = bar.update(TransferProgress(downloaded: 1, expectedDownload: 3), at: .zero)
        #expect(third == "\r" + String(repeating: "#", count: 6) + String(repeating: " ", count: 14) + "  33.3%")
        #expect(bar.update(TransferProgress(downloaded: 2, expectedDownload: 3), at: .milliseconds(50)) == nil)
        #expect(bar.update(TransferProgress(downloaded: 2, expectedDownload: 3), at: .milliseconds(150)) != nil)
        #expect(bar.update(TransferProgress(downloaded: 3, expectedDownload: 3), at: .milliseconds(160))?.hasSuffix("100.0%") == true)
        #expect(bar.update(TransferProgress(downloaded: 5, expectedDownload: 0), at: .seconds(1)) == nil)
    }

    @Test func barWidthFromColumns() {
        #expect(ProgressBar.width(columns: "20") == ProgressBar.defaultWidth)
        #expect(ProgressBar.width(columns: "21") == 21)
        #expect(ProgressBar.width(columns: "x") == ProgressBar.defaultWidth)
        #expect(ProgressBar(width: 500).width == ProgressBar.maximumWidth)
    }

    /// curl's rule: a meter unless `-s` or `--no-progress-meter`, or the body goes to a terminal.
    @Test func whetherAndWhatToDraw() throws {
        let plain = try TransferOptions(arguments: ["http://h/"], input: TableInput())
        #expect(plain.progressStyle(writesToFile: true, standardOutputIsTerminal: true) == .meter)
        #expect(plain.progressStyle(writesToFile: false, standardOutputIsTerminal: false) == .meter)
        #expect(plain.progressStyle(writesToFile: false, standardOutputIsTerminal: true) == nil)
        let bar = try TransferOptions(arguments: ["-#", "http://h/"], input: TableInput())
        #expect(bar.progressStyle(writesToFile: true, standardOutputIsTerminal: true) == .bar)
        for arguments in [["-s", "-#"], ["--no-progress-meter"], ["--progress-meter", "-s"]] {
            let options = try TransferOptions(arguments: arguments + ["http://h/"], input: TableInput())
            #expect(options.progressStyle(writesToFile: true, standardOutputIsTerminal: false) == nil, "\(arguments)")
        }
    }
}
