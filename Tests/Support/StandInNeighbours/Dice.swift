/// The stand-ins' random numbers: SplitMix64, seeded from the run's seed and a label, one stream
/// per label ("player2 Get", "logind signals"…), so that what one neighbour decides does not
/// depend on how its calls interleave with another's: the third `PlaybackStatus` a player is
/// asked for gets the same answer in every run with the same seed.
struct Dice {
    private var state: UInt64

    init(seed: UInt64, label: String) {
        // FNV-1a of the label: stable across processes, unlike Swift's Hasher.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in label.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        state = seed ^ hash
        _ = next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    /// A number in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A number in [low, high).
    mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// A waiting time with mean `mean` (exponential), at most ten times the mean.
    mutating func interval(mean: Double) -> Double {
        min(-mean * Glibc.log(max(1e-12, 1 - unit())), 10 * mean)
    }

    mutating func pick<Element>(_ elements: [Element]) -> Element { elements[below(elements.count)] }

    /// One of `choices`, each as likely as its weight.
    mutating func weighted<Element>(_ choices: [(Element, Int)]) -> Element {
        var roll = below(choices.reduce(0) { $0 + $1.1 })
        for (choice, weight) in choices {
            if roll < weight { return choice }
            roll -= weight
        }
        return choices[choices.count - 1].0
    }
}

import Glibc
