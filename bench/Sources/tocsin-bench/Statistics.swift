import Foundation

/// Order statistics of a set of samples (min, median, max, p99, mean), all in the samples' unit.
///
/// Percentiles use the nearest-rank definition: p99 of n samples is the ⌈0.99·n⌉-th smallest, so
/// it is always a value that was actually observed (with 200 samples, the second largest).
struct Summary: Encodable, Sendable, Equatable {
    let count: Int
    let min: Double
    let median: Double
    let max: Double
    let p99: Double
    let mean: Double
    /// Every sample in the order measured, so the JSON keeps the raw data.
    let samples: [Double]

    /// Summarises `samples`; nil when there are none (a figure with no sample is "not measured").
    init?(_ samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        count = sorted.count
        min = sorted[0]
        max = sorted[sorted.count - 1]
        median = Self.median(ofSorted: sorted)
        p99 = Self.percentile(0.99, ofSorted: sorted)
        mean = sorted.reduce(0, +) / Double(sorted.count)
        self.samples = samples
    }

    /// The median of sorted values: the middle one, or the mean of the two middle ones.
    static func median(ofSorted sorted: [Double]) -> Double {
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The nearest-rank percentile `fraction` (0–1) of sorted values.
    static func percentile(_ fraction: Double, ofSorted sorted: [Double]) -> Double {
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(sorted.count, Swift.max(1, rank)) - 1]
    }
}
