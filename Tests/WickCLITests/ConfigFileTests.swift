// curl's `-K` config syntax: separators, quoting and escapes, comments, names with and without `--`.
import Testing
import WickCLI

struct ConfigFileTests {
    @Test func eachLineIsAnOptionAndItsValue() {
        let text = """
            # comment
              url = "http://h/a b"
            header: "X-A: \\"q\\"\\tz"
            max-time 2
            -s
            --location
            data=one two

            -XPOST
            """
        let lines = ConfigFile.lines(of: text)
        #expect(lines.map(\.number) == [2, 3, 4, 5, 6, 7, 9])
        let words: [[String]] = [
            ["--url", "http://h/a b"], ["--header", "X-A: \"q\"\tz"], ["--max-time", "2"], ["-s"], ["--location"],
            ["--data", "one"], ["-XPOST"],
        ]
        #expect(lines.map(\.words) == words)
    }

    @Test func optionsFromAConfigFileApplyInPlace() throws {
        let options = try TransferOptions.parsing(
            ["-d", "a", "-K", "c", "-d", "z"], files: ["c": "data = b\nurl http://h/\nbogus 1\nconfig d\n", "d": "silent\n"])
        #expect(options.dataText == "a&b&z")
        #expect(options.urls == ["http://h/"])
        #expect(options.silent)
        #expect(options.warnings == ["c:3: warning: '--bogus' is unknown"])
    }

    @Test func configFailures() {
        #expect(throws: CommandFailure(.readError, "cannot read config from 'nope'")) {
            try TransferOptions.parsing(["-K", "nope", "u"])
        }
        #expect(throws: CommandFailure.usage("config files nest deeper than 8")) {
            try TransferOptions.parsing(["-K", "loop", "u"], files: ["loop": "-K loop"])
        }
        #expect(throws: CommandFailure.usage("option --data: requires parameter")) {
            try TransferOptions.parsing(["-K", "c", "u"], files: ["c": "data"])
        }
    }
}
