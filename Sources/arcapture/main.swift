import Foundation

// Kept tiny: everything testable lives in `Arcapture.run`.
let status = await Arcapture.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
