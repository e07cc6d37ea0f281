import Foundation
import TestSupport
import Testing

/// The raster kernels on the processors arcapture's users run it on.
///
/// The other raster tests check what the kernels draw, on this x86-64 machine, through the AVX2
/// variants it picks. `scripts/check-kernels` builds the kernels again for x86-64's SSE2 baseline,
/// for aarch64 and for 32-bit ARM with NEON (a Raspberry Pi's two operating systems), runs the ARM
/// builds under qemu-user, and compares everything each kernel writes with this machine's build:
/// equal bytes there and correct results here make correct results there.
@Suite("Raster kernels across processors")
struct KernelPortabilityTests {
    @Test("x86-64's SSE2 baseline, aarch64 and ARMv7 NEON write the same bytes as the AVX2 build")
    func sameBytesEverywhere() async throws {
        for tool in ["qemu-aarch64-static", "aarch64-linux-gnu-gcc", "arm-linux-gnueabihf-gcc"] {
            _ = try await ProcessRunner.run(tool: tool, ["--version"], install: "bash scripts/install-deps")
        }
        let result = try await ProcessRunner.run(
            executable: "/bin/bash", arguments: [PackagePaths.root.appendingPathComponent("scripts/check-kernels").path]
        )
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        for build in ["x86-64-sse2", "aarch64", "armv7-neon"] {
            #expect(result.stdout.contains("\(build): the same bytes as x86-64 (8 kernels)"), "\(result.stdout)")
        }
    }
}
