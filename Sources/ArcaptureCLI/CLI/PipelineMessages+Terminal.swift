import GeoAR

extension PipelineMessages {
    /// Notes and warnings on stderr, written file names on stdout: what the command line prints.
    static let terminal = PipelineMessages(
        note: { Terminal.note($0) }, warning: { Terminal.warning($0) }, fileWritten: { Terminal.out($0) })
}
