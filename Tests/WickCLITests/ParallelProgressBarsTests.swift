// `-Z -#`'s bars on a fake terminal: a fixed width and times given by hand, no sleeps.
import Testing
import WickCLI

struct ParallelProgressBarsTests {
    typealias Lane = ParallelProgressBars.Lane

    static let up2 = "\u{1B}[2A\u{1B}[J"

    /// 41 columns: a 13-column label, a space, 19 of bar, ` %5.1f%`; 40 in all.
    static func line(_ label: String, bar: Int, _ figure: String) -> String {
        label + " " + String(repeating: "#", count: bar) + String(repeating: " ", count: 19 - bar) + figure
    }

    @Test func aLinePerRunningTransferThenTheEndedOnesCollapse() {
        var bars = ParallelProgressBars(width: 41)
        let a = Lane(label: "http://h/a", progress: TransferProgress(downloaded: 50, expectedDownload: 100))
        let b = Lane(label: "http://h/b", progress: TransferProgress(downloaded: 5_000_000))
        let first = bars.update([a, b], finished: 0, of: 2, at: .zero)
        let lineA = Self.line("http://h/a   ", bar: 9, "  50.0%")
        let lineB = Self.line("http://h/b   ", bar: 0, " 4882kB")
        #expect(first == lineA + "\n" + lineB + "\n")
        #expect(lineA.count == 40)
        // At most ten redraws a second.
        #expect(bars.update([a, b], finished: 0, of: 2, at: .milliseconds(99)) == nil)
        // `a` ended: the cursor goes up over both lines, `b` stays, the count replaces `a`.
        let second = bars.update([b], finished: 1, of: 2, at: .milliseconds(100))
        #expect(second == Self.up2 + lineB + "\n" + "1 of 2 transfers done\n")
        // The end, whatever the time: only the count.
        let last = bars.update([], finished: 2, of: 2, at: .milliseconds(101), final: true)
        #expect(last == Self.up2 + "2 of 2 transfers done\n")
    }

    @Test func eraseClearsTheBlockSoOtherTextTakesItsPlace() {
        var bars = ParallelProgressBars(width: 41)
        let a = Lane(label: "u", progress: TransferProgress(downloaded: 1, expectedDownload: 1))
        _ = bars.update([a, a], finished: 0, of: 3, at: .zero)
        #expect(bars.erase() == Self.up2)
        #expect(bars.erase() == "")
        // Drawn whole below the text written meanwhile, no cursor movement.
        let next = bars.update([a], finished: 1, of: 3, at: .seconds(1))
        #expect(next == Self.line("u            ", bar: 19, " 100.0%") + "\n1 of 3 transfers done\n")
    }

    @Test func longLabelsKeepTheirEndAndNoLineWraps() {
        var bars = ParallelProgressBars(width: 10)
        #expect(bars.width == 21)
        let long = Lane(
            label: "https://example.com/a/long/path/file.bin",
            progress: TransferProgress(uploaded: 1, expectedUpload: 3))
        let text = bars.update([long], finished: 1, of: 2, at: .zero) ?? ""
        let lines = text.split(separator: "\n")
        #expect(lines.first == "...bin ##      33.3%")
        #expect(lines.allSatisfy { $0.count <= 20 })
    }

    /// 25 running: 20 lines and the count, which names the five not drawn.
    @Test func atMostTwentyLinesOfTransfers() {
        var bars = ParallelProgressBars(width: 80)
        let lane = Lane(label: "u", progress: TransferProgress(downloaded: 1))
        let lines = (bars.update(Array(repeating: lane, count: 25), finished: 0, of: 30, at: .zero) ?? "")
            .split(separator: "\n")
        #expect(lines.count == 21)
        #expect(lines.last == "0 of 30 transfers done, 5 more running")
    }
}
