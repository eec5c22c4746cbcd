// Native desktop notifications (D14) through the freedesktop notification service
// (org.freedesktop.Notifications on the session D-Bus), spoken by dbus-next, a pure-JavaScript
// D-Bus client: nothing to compile or download. Any notification daemon serves it (GNOME, KDE,
// dunst, mako, …).
import dbus from 'dbus-next';
import type { Alert } from './alerts.ts';

export class DesktopNotifier {
  private bus: dbus.MessageBus | null = null;
  private iface: dbus.ClientInterface | null = null;

  /** Connects on first use; throws a sentence when there is no session bus or no notification service. */
  private async connect(): Promise<dbus.ClientInterface> {
    if (this.iface) return this.iface;
    try {
      this.bus = dbus.sessionBus();
      const obj = await this.bus.getProxyObject('org.freedesktop.Notifications', '/org/freedesktop/Notifications');
      this.iface = obj.getInterface('org.freedesktop.Notifications');
      return this.iface;
    } catch (e) {
      this.close();
      throw new Error(`no desktop notification service on the session D-Bus (${e instanceof Error ? e.message : e})`);
    }
  }

  async notify(a: Alert): Promise<number> {
    const n = await this.connect();
    const hints = { urgency: new dbus.Variant('y', a.urgency === 'critical' ? 2 : 1), 'desktop-entry': new dbus.Variant('s', 'switchboard') };
    // Critical alerts stay until dismissed (-1 would be the daemon's default; 0 = never expire).
    return (await n.Notify('Switchboard', 0, 'dialog-information', a.summary, a.body, [], hints, a.urgency === 'critical' ? 0 : -1)) as number;
  }

  close(): void {
    this.bus?.disconnect();
    this.bus = null;
    this.iface = null;
  }
}
