/// A colour for an alarm's buttons and tint — in place of SwiftUI's `Color`, which Linux does not
/// have, with the same named colours so `textColor: .white` and `tintColor: Color.orange` port as
/// they are.
///
/// Kept as data: the agent's notifications show no colours today (the freedesktop notification
/// specification has no way to ask for them).
public struct Color: Codable, Hashable, Sendable {
    /// Red, 0–1.
    public var red: Double
    /// Green, 0–1.
    public var green: Double
    /// Blue, 0–1.
    public var blue: Double
    /// Opacity, 0 (transparent) – 1.
    public var opacity: Double

    /// A colour from its components, each 0–1.
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.opacity = opacity
    }

    /// The colour as `#rrggbb` (opacity left out), as CSS and GTK write colours.
    public var hexadecimal: String {
        let digits = [red, green, blue].map { component in
            let value = Int((min(max(component, 0), 1) * 255).rounded())
            return (value < 16 ? "0" : "") + String(value, radix: 16)
        }
        return "#" + digits.joined()
    }

    /// Black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Grey.
    public static let gray = Color(red: 0.56, green: 0.56, blue: 0.58)
    /// Red.
    public static let red = Color(red: 1, green: 0.23, blue: 0.19)
    /// Orange.
    public static let orange = Color(red: 1, green: 0.58, blue: 0)
    /// Yellow.
    public static let yellow = Color(red: 1, green: 0.8, blue: 0)
    /// Green.
    public static let green = Color(red: 0.2, green: 0.78, blue: 0.35)
    /// Mint.
    public static let mint = Color(red: 0, green: 0.78, blue: 0.75)
    /// Teal.
    public static let teal = Color(red: 0.19, green: 0.69, blue: 0.78)
    /// Cyan.
    public static let cyan = Color(red: 0.2, green: 0.68, blue: 0.9)
    /// Blue.
    public static let blue = Color(red: 0, green: 0.48, blue: 1)
    /// Indigo.
    public static let indigo = Color(red: 0.35, green: 0.34, blue: 0.84)
    /// Purple.
    public static let purple = Color(red: 0.69, green: 0.32, blue: 0.87)
    /// Pink.
    public static let pink = Color(red: 1, green: 0.18, blue: 0.33)
    /// Brown.
    public static let brown = Color(red: 0.64, green: 0.52, blue: 0.37)
    /// Fully transparent.
    public static let clear = Color(red: 0, green: 0, blue: 0, opacity: 0)
    /// The accent colour: blue, as no desktop-wide accent is read.
    public static let accentColor = blue
}
