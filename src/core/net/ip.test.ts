import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forbiddenAddressReason, ipLiteral, parseIpv6 } from './ip.ts';

test('every non-public range of D10 is refused, IPv4-mapped and other embeddings included', () => {
  const refused: Array<[string, RegExp]> = [
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
    ['10.0.0.1', /private/],
    ['10.255.255.255', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['169.254.0.1', /link-local/],
    ['169.254.169.254', /metadata/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.255', /carrier-grade NAT/],
    ['0.0.0.0', /this network/],
    ['0.1.2.3', /this network/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['255.255.255.255', /reserved/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['fe80::1', /link-local/],
    ['febf:ffff::1', /link-local/],
    ['fc00::1', /unique-local/],
    ['fdff:ffff::1', /unique-local/],
    ['fd00:ec2::254', /metadata/],
    ['ff02::1', /multicast/],
    ['::ffff:127.0.0.1', /IPv4-mapped loopback/],
    ['::ffff:7f00:1', /IPv4-mapped loopback/],
    ['::FFFF:10.1.2.3', /IPv4-mapped private/],
    ['::ffff:169.254.169.254', /IPv4-mapped cloud metadata/],
    ['0:0:0:0:0:ffff:c0a8:0101', /IPv4-mapped private/],
    ['::127.0.0.1', /IPv4-compatible loopback/],
    ['64:ff9b::a00:1', /NAT64 private/],
    ['2002:7f00:1::', /6to4 loopback/],
    ['fe80::1%eth0', /link-local/],
  ];
  for (const [addr, why] of refused) {
    const r = forbiddenAddressReason(addr);
    assert.ok(r, `${addr} must be refused`);
    assert.match(r!, why, `${addr}: ${r}`);
  }
});

test('public addresses pass, including the neighbours of refused ranges', () => {
  for (const addr of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.15.255.255', '172.32.0.0', '100.63.255.255', '100.128.0.0', '169.253.255.255', '11.0.0.0', '223.255.255.255', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
    assert.equal(forbiddenAddressReason(addr), null, addr);
  }
});

test('only IP literals are judged; names and malformed text are refused as such', () => {
  for (const v of ['localhost', 'example.com', '1.2.3', '1.2.3.256', '1::2::3', '12345::', '::ffff:1.2.3.999']) assert.equal(forbiddenAddressReason(v), 'not an IP address', v);
  assert.equal(ipLiteral('[::1]'), '::1');
  assert.equal(ipLiteral('127.0.0.1'), '127.0.0.1');
  assert.equal(ipLiteral('example.com'), null);
  assert.deepEqual([...parseIpv6('1:2:3:4:5:6:7:8')!], [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
  assert.deepEqual([...parseIpv6('::ffff:1.2.3.4')!].slice(10), [0xff, 0xff, 1, 2, 3, 4]);
});
