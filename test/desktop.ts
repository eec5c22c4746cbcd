// A real Linux desktop session for the bridge's tests and the tray screenshot script, from Debian
// packages (.ci/run installs them): Xvfb, a private D-Bus session bus, the dunst notification
// daemon, optionally xfce4-panel with only its "Status Tray" plugin (a StatusNotifierItem host
// that owns org.kde.StatusNotifierWatcher and draws menus from com.canonical.dbusmenu), xdotool
// for the pointer, and xwd for screenshots (read here into RGB, and written as PNG without
// ImageMagick).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

export interface Desktop {
  display: string;
  busAddress: string;
  /** The environment a desktop program gets: PATH, HOME, DISPLAY, DBUS_SESSION_BUS_ADDRESS. */
  env: () => Record<string, string>;
  close: () => void;
}

async function until<T>(what: string, f: () => T | undefined | false | Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const PANEL_XML = `<?xml version="1.0" encoding="UTF-8"?>
<channel name="xfce4-panel" version="1.0">
  <property name="configver" type="int" value="2"/>
  <property name="panels" type="array">
    <value type="int" value="1"/>
    <property name="panel-1" type="empty">
      <property name="position" type="string" value="p=6;x=0;y=0"/>
      <property name="length" type="uint" value="100"/>
      <property name="position-locked" type="bool" value="true"/>
      <property name="size" type="uint" value="32"/>
      <property name="plugin-ids" type="array">
        <value type="int" value="1"/>
      </property>
    </property>
  </property>
  <property name="plugins" type="empty">
    <property name="plugin-1" type="string" value="systray"/>
  </property>
</channel>
`;

/**
 * Start X (display :n), a session bus that knows it (so dunst and xfconfd can be started by
 * activation with this HOME), dunst, and with `panel` an xfce4-panel whose one plugin is the tray.
 */
export async function startDesktop(home: string, opts: { displayNumber: number; panel?: boolean; size?: string }): Promise<Desktop> {
  const procs: ChildProcess[] = [];
  // Tests of other worktrees may hold a display: take the next free one.
  let n = opts.displayNumber;
  while (existsSync(`/tmp/.X${n}-lock`) || existsSync(`/tmp/.X11-unix/X${n}`)) n++;
  const display = `:${n}`;
  const base = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
  procs.push(spawn('Xvfb', [display, '-nolisten', 'tcp', '-screen', '0', opts.size ?? '1024x768x24'], { stdio: 'ignore' }));
  await until('Xvfb', () => existsSync(`/tmp/.X11-unix/X${n}`));
  const bus = spawn('dbus-daemon', ['--session', `--address=unix:path=${join(home, 'bus')}`, '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...base, DISPLAY: display } });
  procs.push(bus);
  const busAddress = await new Promise<string>((res) => bus.stdout!.once('data', (d) => res(String(d).trim())));
  const env = () => ({ ...base, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: busAddress });
  procs.push(spawn('dunst', [], { env: env(), stdio: 'ignore' }));
  await until('dunst on the bus', () => {
    try {
      execFileSync('dunstctl', ['is-paused'], { env: env(), stdio: 'pipe' });
      return true;
    } catch {
      return false;
    }
  });
  if (opts.panel) {
    const dir = join(home, '.config', 'xfce4', 'xfconf', 'xfce-perchannel-xml');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'xfce4-panel.xml'), PANEL_XML);
    procs.push(spawn('xfce4-panel', ['--disable-wm-check'], { env: env(), stdio: 'ignore' }));
    await until('the panel’s tray (org.kde.StatusNotifierWatcher) on the bus', () => hasOwner(env(), 'org.kde.StatusNotifierWatcher'), 60_000);
  }
  return {
    display,
    busAddress,
    env,
    close: () => {
      for (const p of procs.reverse()) p.kill('SIGTERM');
    },
  };
}

function hasOwner(env: Record<string, string>, name: string): boolean {
  const out = execFileSync('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', `string:${name}`], { env, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  return /boolean true/.test(out);
}

export interface Shot {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel, rows top to bottom. */
  rgb: Buffer;
}

/** The whole screen, read with xwd (X Window Dump, ZPixmap 24/32-bit TrueColor as Xvfb serves it). */
export function screenshot(d: Desktop): Shot {
  const x = execFileSync('xwd', ['-root', '-silent'], { env: d.env(), maxBuffer: 64 << 20 });
  const u = (i: number) => x.readUInt32BE(i * 4);
  const [headerSize, , format, , width, height, , byteOrder, , , , bpp, bytesPerLine] = Array.from({ length: 13 }, (_, i) => u(i));
  const ncolors = u(19);
  if (format !== 2 || (bpp !== 32 && bpp !== 24)) throw new Error(`xwd: expected a 24- or 32-bit ZPixmap, got format ${format} with ${bpp} bits a pixel`);
  const bytes = bpp / 8;
  const masks = [u(14), u(15), u(16)];
  const shift = (m: number) => 31 - Math.clz32(m & -m);
  const data = headerSize + ncolors * 12;
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let px = 0; px < width; px++) {
      const o = data + y * bytesPerLine + px * bytes;
      const v = byteOrder === 0 ? x.readUIntLE(o, bytes) : x.readUIntBE(o, bytes);
      for (let c = 0; c < 3; c++) rgb[(y * width + px) * 3 + c] = (v & masks[c]) >>> shift(masks[c]);
    }
  }
  return { width, height, rgb };
}

/** Where a colour first appears (within `tolerance` per channel): the centre of its pixels' box. */
export function findColour(s: Shot, colour: [number, number, number], tolerance = 8): { x: number; y: number; count: number } | null {
  let minX = Infinity, minY = Infinity, maxX = -1, maxY = -1, count = 0;
  for (let i = 0; i < s.width * s.height; i++) {
    if (colour.every((c, k) => Math.abs(s.rgb[i * 3 + k] - c) <= tolerance)) {
      const x = i % s.width, y = Math.floor(i / s.width);
      count++;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  return count ? { x: Math.round((minX + maxX) / 2), y: Math.round((minY + maxY) / 2), count } : null;
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (b: Buffer) => {
  let c = 0xffffffff;
  for (const byte of b) c = CRC[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A region of a screenshot as a PNG file (RGB, 8 bits). */
export function toPng(s: Shot, crop: { x: number; y: number; width: number; height: number } = { x: 0, y: 0, width: s.width, height: s.height }): Buffer {
  const raw = Buffer.alloc((crop.width * 3 + 1) * crop.height);
  for (let y = 0; y < crop.height; y++) {
    raw[y * (crop.width * 3 + 1)] = 0;
    s.rgb.copy(raw, y * (crop.width * 3 + 1) + 1, ((crop.y + y) * s.width + crop.x) * 3, ((crop.y + y) * s.width + crop.x + crop.width) * 3);
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(crop.width, 0);
  ihdr.writeUInt32BE(crop.height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** xdotool against this desktop. */
export function xdotool(d: Desktop, ...args: string[]): string {
  return execFileSync('xdotool', args, { env: d.env() }).toString();
}
