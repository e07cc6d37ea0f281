import ArcaptureCLI
import Foundation

// Kept tiny: everything testable lives in `Arcapture.run`. Signals are set up before anything
// starts a thread (see InterruptSignal).
InterruptSignal.install()
let status = await Arcapture.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
