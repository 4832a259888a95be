import Foundation

/// xfce4-panel 4.18 as the session runs it: its settings written where xfconfd reads the
/// `xfce4-panel` channel from (before anything asks for the channel, so xfconfd loads them; a
/// panel without settings asks on screen how to start), then the panel itself.
enum XfcePanel {
    /// Writes the settings, starts the panel and waits until its notification area owns
    /// org.kde.StatusNotifierWatcher.
    static func start(size: Int, launcher: ChildLauncher, environment: [String: String]) throws -> SessionProcess {
        let channels = launcher.layout.config.appendingPathComponent("xfce4/xfconf/xfce-perchannel-xml")
        do {
            try FileManager.default.createDirectory(at: channels, withIntermediateDirectories: true)
            try settings(size: size).write(to: channels.appendingPathComponent("xfce4-panel.xml"), atomically: true, encoding: .utf8)
        } catch {
            throw HeadlessSessionError.componentFailed(component: "xfce4-panel", reason: "cannot write its settings: \(error)", stderrTail: "")
        }
        let panel = try launcher.launch(name: "xfce4-panel", executable: try ExecutableLocator.find("xfce4-panel", environment: environment),
                                        arguments: [], environment: environment)
        try NotificationServer.waitForName("org.kde.StatusNotifierWatcher", ownedBy: panel, component: "xfce4-panel",
                                           launcher: launcher, environment: environment)
        return panel
    }

    /// One panel at the bottom edge (`p=10`), the whole width, locked, holding plugin 1: the
    /// notification area, with its icons at their size rather than squeezed into the panel's rows.
    static func settings(size: Int) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <channel name="xfce4-panel" version="1.0">
          <property name="configver" type="int" value="2"/>
          <property name="panels" type="array">
            <value type="int" value="1"/>
            <property name="panel-1" type="empty">
              <property name="position" type="string" value="p=10;x=0;y=0"/>
              <property name="length" type="uint" value="100"/>
              <property name="position-locked" type="bool" value="true"/>
              <property name="size" type="uint" value="\(size)"/>
              <property name="plugin-ids" type="array">
                <value type="int" value="1"/>
              </property>
            </property>
          </property>
          <property name="plugins" type="empty">
            <property name="plugin-1" type="string" value="systray">
              <property name="square-icons" type="bool" value="false"/>
            </property>
          </property>
        </channel>

        """
    }
}
