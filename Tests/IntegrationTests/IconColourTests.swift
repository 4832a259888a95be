import HeadlessSession
import Testing

// DesktopTierSupport's `showsTocsinsColourIcon`: what the desktop tiers take for Tocsin's icon on
// the screen, told from the one-colour bell GNOME Shell drew before it was sent the colour icon.
@Suite struct IconColourTests {
    /// A 16×16 square on a dark banner: `inside`'s pixels, then the banner's.
    static func square(_ inside: [ScreenPixels.Colour], banner: ScreenPixels.Colour = .init(red: 54, green: 54, blue: 58)) -> ScreenPixels {
        ScreenPixels(colours: inside + Array(repeating: banner, count: 256 - inside.count))
    }

    @Test func tocsinsFaceAndBellAreItsIcon() {
        let face = Array(repeating: ScreenPixels.Colour(red: 192, green: 28, blue: 40), count: 90)
        let bell = Array(repeating: ScreenPixels.Colour(red: 246, green: 211, blue: 45), count: 25)
        #expect(Self.square(face + bell).showsTocsinsColourIcon)
        #expect(Self.square(Array(repeating: .init(red: 246, green: 97, blue: 81), count: 60) + bell).showsTocsinsColourIcon, "the face's light top")
    }

    @Test func aOneColourBellTextOrTheDesktopAreNot() {
        let white = Array(repeating: ScreenPixels.Colour(red: 255, green: 255, blue: 255), count: 120)
        #expect(!Self.square(white).showsTocsinsColourIcon, "GNOME 43's white symbolic bell")
        #expect(!Self.square(Array(repeating: .init(red: 155, green: 155, blue: 157), count: 80)).showsTocsinsColourIcon, "48's grey header bell")
        #expect(!Self.square([], banner: .init(red: 0, green: 53, blue: 128)).showsTocsinsColourIcon, "the desktop")
        let face = Array(repeating: ScreenPixels.Colour(red: 192, green: 28, blue: 40), count: 90)
        #expect(!Self.square(face).showsTocsinsColourIcon, "a red badge without the bell")
        #expect(!Self.square(Array(repeating: .init(red: 246, green: 211, blue: 45), count: 90) + Array(face.prefix(30))).showsTocsinsColourIcon,
                "a yellow icon with a little red")
    }
}
