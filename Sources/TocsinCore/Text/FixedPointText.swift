/// `value` written with exactly `fractionDigits` decimals, rounded half away from zero:
/// `fixedPointText(-6.0206, fractionDigits: 2)` is "-6.02".
///
/// The agent does without `String(format:)` and number formatters, which live in the part of
/// Foundation that brings ICU and about 10 MB of resident memory.
package func fixedPointText(_ value: Double, fractionDigits: Int) -> String {
    precondition((0...9).contains(fractionDigits), "at most 9 decimals")
    // Beyond 2^53 / 10^9 a Double has no fractional digits to show, and Int conversion could trap.
    guard value.isFinite, abs(value) < 9e6 else { return "\(value)" }
    var scale = 1
    for _ in 0..<fractionDigits { scale *= 10 }
    let scaled = Int((abs(value) * Double(scale)).rounded())
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard fractionDigits > 0 else { return "\(sign)\(scaled)" }
    let fraction = String(scaled % scale)
    return "\(sign)\(scaled / scale).\(String(repeating: "0", count: fractionDigits - fraction.count))\(fraction)"
}
