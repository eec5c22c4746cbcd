// The tray icon, drawn here rather than shipped as a file or named from an icon theme (a theme may
// not have it): a blue rounded square with a white switch whose knob is on. StatusNotifierItem
// wants IconPixmap as ARGB32 in network byte order (A, R, G, B per pixel, rows top to bottom), in
// a few sizes so the host picks the one that fits its panel. Anti-aliased by 4×4 supersampling.

export interface Pixmap {
  width: number;
  height: number;
  argb: Buffer;
}

type Rgb = [number, number, number];
const BLUE: Rgb = [0x25, 0x63, 0xeb];
const WHITE: Rgb = [0xff, 0xff, 0xff];

/** Signed distance to a rounded rectangle centred at (cx, cy) (negative inside). */
function roundedRect(x: number, y: number, cx: number, cy: number, halfW: number, halfH: number, r: number): number {
  const qx = Math.abs(x - cx) - (halfW - r);
  const qy = Math.abs(y - cy) - (halfH - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** The colour (and coverage) of one point of the unit square [0, 1]². */
function shade(x: number, y: number): Rgb | null {
  if (roundedRect(x, y, 0.5, 0.5, 0.47, 0.47, 0.14) > 0) return null;
  const knob = Math.hypot(x - 0.66, y - 0.5) - 0.13;
  if (knob <= 0) return BLUE;
  if (roundedRect(x, y, 0.5, 0.5, 0.34, 0.19, 0.19) <= 0) return WHITE;
  return BLUE;
}

export function drawIcon(size: number): Pixmap {
  const argb = Buffer.alloc(size * size * 4);
  const ss = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let a = 0;
      const sum = [0, 0, 0];
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const c = shade((px + (sx + 0.5) / ss) / size, (py + (sy + 0.5) / ss) / size);
          if (!c) continue;
          a++;
          for (let i = 0; i < 3; i++) sum[i] += c[i];
        }
      }
      const o = (py * size + px) * 4;
      argb[o] = Math.round((a * 255) / (ss * ss));
      for (let i = 0; i < 3; i++) argb[o + 1 + i] = a ? Math.round(sum[i] / a) : 0;
    }
  }
  return { width: size, height: size, argb };
}

export function trayIcon(): Pixmap[] {
  return [16, 22, 24, 32, 48, 64].map(drawIcon);
}
