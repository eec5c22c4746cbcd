// Which network addresses a webhook may reach (D10, SSRF). Pure: parses IPv4/IPv6 text into
// bytes and answers with the reason an address is refused, or null when it is a public unicast
// address. Addresses that embed an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are
// judged by the embedded address, so `::ffff:127.0.0.1` is as loopback as `127.0.0.1`.

export type AddressVerdict = null | string;

interface V4Rule {
  net: number;
  bits: number;
  reason: string;
}

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

// Most specific first, so the metadata address is named as such rather than as link-local.
const V4_RULES: V4Rule[] = [
  { net: v4(169, 254, 169, 254), bits: 32, reason: 'cloud metadata address' },
  { net: v4(100, 100, 100, 200), bits: 32, reason: 'cloud metadata address' },
  { net: v4(0, 0, 0, 0), bits: 8, reason: "'this network' address (0.0.0.0/8)" },
  { net: v4(10, 0, 0, 0), bits: 8, reason: 'private address (10.0.0.0/8)' },
  { net: v4(100, 64, 0, 0), bits: 10, reason: 'carrier-grade NAT address (100.64.0.0/10)' },
  { net: v4(127, 0, 0, 0), bits: 8, reason: 'loopback address (127.0.0.0/8)' },
  { net: v4(169, 254, 0, 0), bits: 16, reason: 'link-local address (169.254.0.0/16)' },
  { net: v4(172, 16, 0, 0), bits: 12, reason: 'private address (172.16.0.0/12)' },
  { net: v4(192, 0, 0, 0), bits: 24, reason: 'IETF protocol assignment (192.0.0.0/24)' },
  { net: v4(192, 0, 2, 0), bits: 24, reason: 'documentation address (192.0.2.0/24)' },
  { net: v4(192, 88, 99, 0), bits: 24, reason: '6to4 relay anycast (192.88.99.0/24)' },
  { net: v4(192, 168, 0, 0), bits: 16, reason: 'private address (192.168.0.0/16)' },
  { net: v4(198, 18, 0, 0), bits: 15, reason: 'benchmarking address (198.18.0.0/15)' },
  { net: v4(198, 51, 100, 0), bits: 24, reason: 'documentation address (198.51.100.0/24)' },
  { net: v4(203, 0, 113, 0), bits: 24, reason: 'documentation address (203.0.113.0/24)' },
  { net: v4(224, 0, 0, 0), bits: 4, reason: 'multicast address (224.0.0.0/4)' },
  { net: v4(240, 0, 0, 0), bits: 4, reason: 'reserved address (240.0.0.0/4, broadcast included)' },
];

export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const v = Number(p);
    if (v > 255) return null;
    n = n * 256 + v;
  }
  return n >>> 0;
}

/** 16 bytes, or null when the text is not an IPv6 address. A zone id (`%eth0`) is ignored. */
export function parseIpv6(text: string): Uint8Array | null {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone !== -1) s = s.slice(0, zone);
  if (!s.includes(':')) return null;
  // An embedded dotted quad in the last 32 bits (::ffff:1.2.3.4) becomes two hex groups.
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    const q = parseIpv4(last);
    if (q === null) return null;
    s = `${s.slice(0, lastColon + 1)}${(q >>> 16).toString(16)}:${(q & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const toGroups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = toGroups(halves[0]);
  const rest = halves.length === 2 ? toGroups(halves[1]) : [];
  for (const g of [...head, ...rest]) if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
  const given = head.length + rest.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  const groups = [...head, ...Array<string>(8 - given).fill('0'), ...rest].map((g) => parseInt(g, 16));
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  return out;
}

function checkV4(n: number): AddressVerdict {
  for (const r of V4_RULES) {
    const mask = r.bits === 0 ? 0 : (0xffffffff << (32 - r.bits)) >>> 0;
    if (((n & mask) >>> 0) === r.net) return r.reason;
  }
  return null;
}

const v4At = (b: Uint8Array, off: number) => ((b[off] << 24) | (b[off + 1] << 16) | (b[off + 2] << 8) | b[off + 3]) >>> 0;

function checkV6(b: Uint8Array): AddressVerdict {
  const allZero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (allZero(0, 16)) return 'unspecified address (::)';
  if (allZero(0, 15) && b[15] === 1) return 'loopback address (::1)';
  // fd00:ec2::254, the AWS IMDS IPv6 endpoint (inside fc00::/7, named for clarity).
  if (b[0] === 0xfd && b[1] === 0x00 && b[2] === 0x0e && b[3] === 0xc2 && allZero(4, 14) && b[14] === 0x02 && b[15] === 0x54) {
    return 'cloud metadata address';
  }
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible, deprecated): judge the IPv4.
  if (allZero(0, 10) && b[10] === 0xff && b[11] === 0xff) {
    const r = checkV4(v4At(b, 12));
    return r && `IPv4-mapped ${r}`;
  }
  if (allZero(0, 12)) {
    const r = checkV4(v4At(b, 12));
    return r ? `IPv4-compatible ${r}` : 'IPv4-compatible address (::/96, deprecated)';
  }
  // 64:ff9b::/96 (NAT64) and 2002::/16 (6to4) carry an IPv4 address that is what gets reached.
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && allZero(4, 12)) {
    const r = checkV4(v4At(b, 12));
    if (r) return `NAT64 ${r}`;
  }
  if (b[0] === 0x20 && b[1] === 0x02) {
    const r = checkV4(v4At(b, 2));
    if (r) return `6to4 ${r}`;
  }
  if ((b[0] & 0xfe) === 0xfc) return 'unique-local address (fc00::/7)';
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return 'link-local address (fe80::/10)';
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return 'site-local address (fec0::/10)';
  if (b[0] === 0xff) return 'multicast address (ff00::/8)';
  if (b[0] === 0x01 && b[1] === 0x00 && allZero(2, 8)) return 'discard-only address (100::/64)';
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'documentation address (2001:db8::/32)';
  return null;
}

/**
 * Why `address` (an IP literal) must not be reached by a webhook, or null when it may.
 * Anything that is not an IP literal is refused too: the caller resolves names first.
 */
export function forbiddenAddressReason(address: string): AddressVerdict {
  const four = parseIpv4(address);
  if (four !== null) return checkV4(four);
  const six = parseIpv6(address);
  if (six !== null) return checkV6(six);
  return 'not an IP address';
}

/** The URL host is an IP literal (IPv6 in brackets or not): returns it without brackets. */
export function ipLiteral(host: string): string | null {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return parseIpv4(h) !== null || parseIpv6(h) !== null ? h : null;
}
