import GeoAR

/// Which rows of a batch this run does: `--shard K/N` takes the rows whose number modulo N is K,
/// so N runs (a Slurm job array's tasks, a Kubernetes Indexed Job's pods) share a manifest without
/// talking to each other, each a fixed, disjoint part.
public struct BatchShard: Sendable, Equatable, CustomStringConvertible {
    /// This run's part, from 0.
    public let index: Int
    /// How many parts there are.
    public let count: Int

    /// Every row.
    public static let all = BatchShard(index: 0, count: 1)

    private init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N` (0 ≤ K < N).
    ///
    /// - Throws: ``PipelineConfigurationError`` saying what is wrong.
    public init(parsing text: String) throws(PipelineConfigurationError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw PipelineConfigurationError("--shard must be K/N (this run's part and how many), not '\(text)'")
        }
        guard count >= 1, index >= 0, index < count else {
            throw PipelineConfigurationError(
                "--shard \(text): K must be from 0 to N-1 (a Slurm array task's SLURM_ARRAY_TASK_ID of "
                    + "SLURM_ARRAY_TASK_COUNT), and N at least 1")
        }
        self.init(index: index, count: count)
    }

    /// Whether this run does row `row`.
    public func contains(_ row: Int) -> Bool { row % count == index }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
}
