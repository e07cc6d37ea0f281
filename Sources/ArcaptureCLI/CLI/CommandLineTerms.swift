/// The libraries speak in their own terms ("a lower frame rate", "device discovery"); the command
/// line says the option or subcommand that does it (`--fps`, `arcapture devices`). Every message
/// the CLI prints passes through ``translate(_:)``, as every error passes through its exit status.
///
/// Each entry is a phrase a library writes and what the command line writes in its place;
/// `CommandLineTermsTests` makes each library phrase appear (so a reworded library message fails
/// the test instead of silently losing its option).
enum CommandLineTerms {
    /// The library's phrase, and the command line's.
    static let phrases: [(library: String, commandLine: String)] = [
        (
            "is the camera connected? device discovery lists the cameras found",
            "is the camera connected? 'arcapture devices' lists the cameras found"
        ),
        (
            "choose a video capture node; device discovery lists them",
            "choose a video capture node; 'arcapture devices' lists them"
        ),
        (
            "choose one of the offered formats, or let the session choose one",
            "choose one of the offered formats, or --format auto"
        ),
        ("(a lower frame rate or a longer frame timeout may help)", "(a lower --fps or a longer --timeout may help)"),
        ("try a lower frame rate or size, or another USB port", "try a lower --fps or --size, or another USB port"),
        ("; waiting for the camera to come back", "; waiting for the camera to come back (--reconnect)"),
        (
            "switching cameras needs several devices to switch between",
            "SIGUSR1 switches cameras only with several --device paths"
        ),
        (
            "(capture through libv4l2 to get a convertible format)",
            "(capture with --libv4l2 to get a convertible format)"
        ),
        ("a line is a route (load it as the route)", "a line is a route (--route)"),
        ("or give the geoid separation", "or give --geoid-separation"),
        ("the geoid separation given", "the geoid separation given (--geoid-separation)"),
        ("it exists, and replacing it was not asked for", "it exists; use --force to overwrite it"),
    ]

    /// `message` with each library phrase in it said as the command line says it.
    static func translate(_ message: String) -> String {
        var result = message
        for (library, commandLine) in phrases where result.contains(library) {
            result = result.replacingOccurrences(of: library, with: commandLine)
        }
        return result
    }
}
