// curl's command-line grammar: grouped short options, attached and detached values, `--no-`.
import Testing
import WickCLI

struct ArgumentScannerTests {
    @Test func groupedSwitchesAreEachTheirOwnOption() throws {
        #expect(
            try ArgumentScanner.scan(["-sSL", "http://a"]) == [
                .toggle(.silent, true), .toggle(.showError, true), .toggle(.location, true), .url("http://a"),
            ])
    }

    @Test func aValueIsAttachedOrTheNextWord() throws {
        #expect(try ArgumentScanner.scan(["-XPOST"]) == [.option(.request, "POST")])
        #expect(try ArgumentScanner.scan(["-X", "POST"]) == [.option(.request, "POST")])
        #expect(try ArgumentScanner.scan(["--request", "PUT"]) == [.option(.request, "PUT")])
    }

    @Test func theFirstLetterWithAValueTakesTheRestOfTheGroup() throws {
        #expect(try ArgumentScanner.scan(["-sXPOST"]) == [.toggle(.silent, true), .option(.request, "POST")])
        #expect(try ArgumentScanner.scan(["-so", "out"]) == [.toggle(.silent, true), .option(.output, "out")])
        #expect(try ArgumentScanner.scan(["-dsL"]) == [.option(.data, "sL")])
    }

    @Test func aValueMayLookLikeAnOption() throws {
        #expect(try ArgumentScanner.scan(["-d", "-x", "-H", "--json"]) == [.option(.data, "-x"), .option(.header, "--json")])
    }

    @Test func noNegatesSwitchesOnly() throws {
        #expect(try ArgumentScanner.scan(["--no-location", "--no-silent"]) == [.toggle(.location, false), .toggle(.silent, false)])
        #expect(throws: CommandFailure.usage("option --no-data: is unknown")) { try ArgumentScanner.scan(["--no-data", "x"]) }
        // `--noproxy` is an option of its own, not a negation.
        #expect(try ArgumentScanner.scan(["--noproxy", "*"]) == [.option(.noProxy, "*")])
    }

    @Test func thereIsNoEqualsForm() {
        #expect(throws: CommandFailure.usage("option --data=x: is unknown")) { try ArgumentScanner.scan(["--data=x"]) }
    }

    @Test func unknownOptionsAndMissingValuesAreUsageErrors() {
        #expect(throws: CommandFailure.usage("option --frobnicate: is unknown")) {
            try ArgumentScanner.scan(["--frobnicate"])
        }
        #expect(throws: CommandFailure.usage("option -sQ: is unknown")) { try ArgumentScanner.scan(["-sQ"]) }
        #expect(throws: CommandFailure.usage("option -d: requires parameter")) { try ArgumentScanner.scan(["-d"]) }
        #expect(throws: CommandFailure.usage("option --header: requires parameter")) {
            try ArgumentScanner.scan(["--header"])
        }
        #expect(throws: CommandFailure.usage("option -X: requires parameter")) { try ArgumentScanner.scan(["-sX"]) }
        #expect(CommandFailure.usage("x").code.rawValue == 2)
    }

    @Test func wordsThatAreNotOptionsAreURLs() throws {
        #expect(try ArgumentScanner.scan(["example.com", "-", "-v"]) == [.url("example.com"), .url("-"), .toggle(.verbose, true)])
    }

    @Test func everyShortNameIsUniqueAndEveryLongNameRoundTrips() {
        let letters = CurlOption.allCases.compactMap(\.shortName)
        #expect(Set(letters).count == letters.count)
        for option in CurlOption.allCases {
            #expect(CurlOption(longName: option.longName) == option)
            if let letter = option.shortName { #expect(CurlOption(shortName: letter) == option) }
        }
    }
}
