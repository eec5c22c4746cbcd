// The bridge's tray icon and menu (D14) as a StatusNotifierItem: the freedesktop/KDE tray protocol
// every current Linux panel hosts (KDE Plasma, GNOME with the AppIndicator extension, Xfce's
// systray plugin, waybar, …). It is plain D-Bus, spoken here with dbus-next like the notifications:
//   org.kde.StatusNotifierItem at /StatusNotifierItem   the icon (ARGB32 pixmaps), title, tooltip
//   com.canonical.dbusmenu at /MenuBar                  the menu the host draws
// and registered with org.kde.StatusNotifierWatcher whenever one is on the bus (now, or when a
// panel starts later). The menu: balance, runway and today's savings (read-only lines, refreshed
// by the caller), then "Open dashboard" and "Sign out".
import dbus from 'dbus-next';
import { trayIcon } from './tray-icon.ts';

const { Interface } = dbus.interface;
const READ = dbus.interface.ACCESS_READ;
const WATCHER = 'org.kde.StatusNotifierWatcher';
export const ITEM_PATH = '/StatusNotifierItem';
export const MENU_PATH = '/MenuBar';

export interface TrayLines {
  balance: string;
  runway: string;
  savings: string;
  tooltip: string;
}

export interface TrayActions {
  openDashboard: () => void;
  signOut: () => void;
}

type Props = Record<string, dbus.Variant>;
interface MenuItem {
  id: number;
  props: () => Props;
}

const str = (s: string) => new dbus.Variant('s', s);
const bool = (b: boolean) => new dbus.Variant('b', b);
const ICON = trayIcon();
const PIXMAPS = ICON.map((p) => [p.width, p.height, p.argb]);

export const MENU = { balance: 1, runway: 2, savings: 3, openDashboard: 5, signOut: 6 } as const;

class StatusNotifierItem extends Interface {
  constructor(private readonly tray: Tray) {
    super('org.kde.StatusNotifierItem');
  }
  get Category() {
    return 'ApplicationStatus';
  }
  get Id() {
    return 'switchboard';
  }
  get Title() {
    return 'Switchboard';
  }
  get Status() {
    return 'Active';
  }
  get WindowId() {
    return 0;
  }
  get IconThemePath() {
    return '';
  }
  get IconName() {
    return '';
  }
  get IconPixmap() {
    return PIXMAPS;
  }
  get OverlayIconName() {
    return '';
  }
  get OverlayIconPixmap() {
    return [];
  }
  get AttentionIconName() {
    return '';
  }
  get AttentionIconPixmap() {
    return [];
  }
  get AttentionMovieName() {
    return '';
  }
  get ToolTip() {
    return ['', PIXMAPS, 'Switchboard', this.tray.lines.tooltip];
  }
  get ItemIsMenu() {
    return true;
  }
  get Menu() {
    return MENU_PATH;
  }
  // A primary click on a host that does not show the menu for it opens the dashboard.
  Activate(_x: number, _y: number) {
    this.tray.actions.openDashboard();
  }
  SecondaryActivate(_x: number, _y: number) {}
  ContextMenu(_x: number, _y: number) {}
  Scroll(_delta: number, _orientation: string) {}
  NewTitle() {}
  NewIcon() {}
  NewToolTip() {}
  NewStatus(): string {
    return 'Active';
  }
}
StatusNotifierItem.configureMembers({
  properties: Object.fromEntries(
    (
      [
        ['Category', 's'],
        ['Id', 's'],
        ['Title', 's'],
        ['Status', 's'],
        ['WindowId', 'i'],
        ['IconThemePath', 's'],
        ['IconName', 's'],
        ['IconPixmap', 'a(iiay)'],
        ['OverlayIconName', 's'],
        ['OverlayIconPixmap', 'a(iiay)'],
        ['AttentionIconName', 's'],
        ['AttentionIconPixmap', 'a(iiay)'],
        ['AttentionMovieName', 's'],
        ['ToolTip', '(sa(iiay)ss)'],
        ['ItemIsMenu', 'b'],
        ['Menu', 'o'],
      ] as const
    ).map(([k, signature]) => [k, { signature, access: READ }]),
  ),
  methods: { Activate: { inSignature: 'ii' }, SecondaryActivate: { inSignature: 'ii' }, ContextMenu: { inSignature: 'ii' }, Scroll: { inSignature: 'is' } },
  signals: { NewTitle: { signature: '' }, NewIcon: { signature: '' }, NewToolTip: { signature: '' }, NewStatus: { signature: 's' } },
});

class DbusMenu extends Interface {
  revision = 1;
  constructor(private readonly tray: Tray) {
    super('com.canonical.dbusmenu');
  }
  get Version() {
    return 3;
  }
  get TextDirection() {
    return 'ltr';
  }
  get Status() {
    return 'normal';
  }
  get IconThemePath() {
    return [];
  }
  private items(): MenuItem[] {
    const l = this.tray.lines;
    const info = (label: string) => () => ({ label: str(label), enabled: bool(false) });
    return [
      { id: MENU.balance, props: info(l.balance) },
      { id: MENU.runway, props: info(l.runway) },
      { id: MENU.savings, props: info(l.savings) },
      { id: 4, props: () => ({ type: str('separator') }) },
      { id: MENU.openDashboard, props: () => ({ label: str('Open dashboard'), 'icon-name': str('go-home') }) },
      { id: MENU.signOut, props: () => ({ label: str('Sign out'), 'icon-name': str('system-log-out') }) },
    ];
  }
  private propsOf(id: number, names: string[]): Props | null {
    const all = id === 0 ? { 'children-display': str('submenu') } : this.items().find((i) => i.id === id)?.props();
    if (!all) return null;
    return names.length ? Object.fromEntries(Object.entries(all).filter(([k]) => names.includes(k))) : all;
  }
  GetLayout(parentId: number, recursionDepth: number, names: string[]) {
    const props = this.propsOf(parentId, names);
    if (!props) throw new dbus.DBusError('com.canonical.dbusmenu.Error.UnknownId', `no menu item ${parentId}`);
    const children = parentId === 0 && recursionDepth !== 0 ? this.items().map((i) => new dbus.Variant('(ia{sv}av)', [i.id, this.propsOf(i.id, names)!, []])) : [];
    return [this.revision, [parentId, props, children]];
  }
  GetGroupProperties(ids: number[], names: string[]) {
    const want = ids.length ? ids : [0, ...this.items().map((i) => i.id)];
    return want.flatMap((id) => {
      const p = this.propsOf(id, names);
      return p ? [[id, p]] : [];
    });
  }
  GetProperty(id: number, name: string) {
    const v = this.propsOf(id, [name])?.[name];
    if (!v) throw new dbus.DBusError('com.canonical.dbusmenu.Error.UnknownProperty', `menu item ${id} has no property ${name}`);
    return v;
  }
  Event(id: number, eventId: string, _data: dbus.Variant, _timestamp: number) {
    if (eventId !== 'clicked') return;
    if (id === MENU.openDashboard) this.tray.actions.openDashboard();
    else if (id === MENU.signOut) this.tray.actions.signOut();
  }
  EventGroup(events: Array<[number, string, dbus.Variant, number]>) {
    for (const [id, eventId, data, ts] of events) this.Event(id, eventId, data, ts);
    return [];
  }
  AboutToShow(_id: number) {
    return false;
  }
  AboutToShowGroup(_ids: number[]) {
    return [[], []];
  }
  ItemsPropertiesUpdated(): [Array<[number, Props]>, Array<[number, string[]]>] {
    return [[MENU.balance, MENU.runway, MENU.savings].map((id) => [id, { label: this.items().find((i) => i.id === id)!.props().label }]), []];
  }
  LayoutUpdated(): [number, number] {
    return [this.revision, 0];
  }
  ItemActivationRequested(): [number, number] {
    return [0, 0];
  }
}
DbusMenu.configureMembers({
  properties: { Version: { signature: 'u', access: READ }, TextDirection: { signature: 's', access: READ }, Status: { signature: 's', access: READ }, IconThemePath: { signature: 'as', access: READ } },
  methods: {
    GetLayout: { inSignature: 'iias', outSignature: 'u(ia{sv}av)' },
    GetGroupProperties: { inSignature: 'aias', outSignature: 'a(ia{sv})' },
    GetProperty: { inSignature: 'is', outSignature: 'v' },
    Event: { inSignature: 'isvu' },
    EventGroup: { inSignature: 'a(isvu)', outSignature: 'ai' },
    AboutToShow: { inSignature: 'i', outSignature: 'b' },
    AboutToShowGroup: { inSignature: 'ai', outSignature: 'aiai' },
  },
  signals: { ItemsPropertiesUpdated: { signature: 'a(ia{sv})a(ias)' }, LayoutUpdated: { signature: 'ui' }, ItemActivationRequested: { signature: 'iu' } },
});

export class Tray {
  lines: TrayLines = { balance: 'Balance: …', runway: 'Runway: …', savings: 'Saved today: …', tooltip: 'Switchboard' };
  readonly busName = `org.kde.StatusNotifierItem-${process.pid}-1`;
  private bus: dbus.MessageBus | null = null;
  private item: StatusNotifierItem | null = null;
  private menu: DbusMenu | null = null;

  constructor(
    readonly actions: TrayActions,
    private readonly log: (line: string) => void,
  ) {}

  /** Export the item and its menu on the session bus, and register with a watcher when there is one. */
  async start(): Promise<void> {
    try {
      this.bus = dbus.sessionBus();
      this.item = new StatusNotifierItem(this);
      this.menu = new DbusMenu(this);
      this.bus.export(ITEM_PATH, this.item);
      this.bus.export(MENU_PATH, this.menu);
      await this.bus.requestName(this.busName, dbus.NameFlag.DO_NOT_QUEUE);
      const dbusObj = await this.bus.getProxyObject('org.freedesktop.DBus', '/org/freedesktop/DBus');
      const daemon = dbusObj.getInterface('org.freedesktop.DBus');
      // A panel that starts (or restarts) later gets the item too.
      daemon.on('NameOwnerChanged', (name: string, _old: string, owner: string) => {
        if (name === WATCHER && owner) void this.register();
      });
      if ((await daemon.NameHasOwner(WATCHER)) as boolean) await this.register();
      else this.log('switchboard bridge: no tray host (org.kde.StatusNotifierWatcher) on the session bus yet; the tray icon appears when a panel with a system tray starts');
    } catch (e) {
      this.stop();
      throw new Error(`no tray: the session D-Bus is not reachable (${e instanceof Error ? e.message : e})`);
    }
  }

  private async register(): Promise<void> {
    try {
      const w = (await this.bus!.getProxyObject(WATCHER, '/StatusNotifierWatcher')).getInterface(WATCHER);
      await w.RegisterStatusNotifierItem(this.busName);
      this.log(`switchboard bridge: tray icon registered with the panel (${WATCHER})`);
    } catch (e) {
      this.log(`switchboard bridge: the tray host refused the icon (${e instanceof Error ? e.message : e})`);
    }
  }

  /** New menu lines: the host is told (properties, layout and tooltip signals) when they changed. */
  update(lines: TrayLines): void {
    const changed = JSON.stringify(lines) !== JSON.stringify(this.lines);
    this.lines = lines;
    if (!changed || !this.menu || !this.item) return;
    this.menu.revision++;
    this.menu.ItemsPropertiesUpdated();
    this.menu.LayoutUpdated();
    this.item.NewToolTip();
  }

  stop(): void {
    this.bus?.disconnect();
    this.bus = null;
    this.item = null;
    this.menu = null;
  }
}
