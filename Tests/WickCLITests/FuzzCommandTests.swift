// `wick fuzz`: where it finds the source checkout, and the built command run inside and outside one.
import Foundation
import Testing
import WickCLI

struct FuzzCommandTests {
    /// This package's root, which holds Scripts/fuzz and Fuzz/Package.swift.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func theCheckoutIsTheDirectoryOrAParentOrTheVariable() {
        #expect(FuzzCommand.sourceCheckout(from: Self.root, sourceDirectory: nil) == Self.root)
        #expect(FuzzCommand.sourceCheckout(from: Self.root + "/Sources/WickCLI", sourceDirectory: nil) == Self.root)
        #expect(FuzzCommand.sourceCheckout(from: "/tmp", sourceDirectory: nil) == nil)
        #expect(FuzzCommand.sourceCheckout(from: "/tmp", sourceDirectory: Self.root) == Self.root)
        #expect(FuzzCommand.sourceCheckout(from: Self.root, sourceDirectory: "/tmp") == nil)
    }

    /// `wick fuzz --list` runs the script, which lists the targets without building them.
    @Test func theBuiltCommandRunsTheScript() throws {
        let run = try CommandRun(
            "/usr/bin/env",
            ["\(FuzzCommand.sourceDirectoryVariable)=\(Self.root)", CommandRun.wickPath, "fuzz", "--list"])
        #expect(run.status == 0)
        let targets = run.outputText.split(separator: "\n")
        #expect(targets.contains("FuzzResponseParser") && targets.contains("FuzzWholeClient"))
    }

    @Test func outsideACheckoutItSaysWhy() throws {
        let run = try CommandRun(CommandRun.wickPath, ["fuzz", "--list"])
        #expect(run.status == 2)
        #expect(run.errorText.hasPrefix("wick fuzz: no Wick source checkout here or above (nor in WICK_SOURCE_DIR)\n"))
    }
}
