import { describe, expect, it } from 'vitest';
import { addressRefusal, AllowList, isPublicAddress, parseAllowHosts } from './addressGuard';

describe('address guard', () => {
  it('refuses every special-purpose address, IPv4 and IPv6', () => {
    const refused = [
      '0.0.0.0', '0.1.2.3', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '100.64.0.1', '100.127.255.254',
      '127.0.0.1', '127.255.255.254', '169.254.169.254', '169.254.0.1', '192.0.0.8', '192.0.2.1', '198.51.100.7', '203.0.113.9',
      '198.18.0.1', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255',
      '::', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1', '[::ffff:7f00:1]', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::7f00:1', '::127.0.0.1',
      '64:ff9b::7f00:1', '2001::1', '2001:db8::1', '2002:7f00:1::', 'fc00::1', 'fd00:ec2::254', 'fe80::1', 'fec0::1', 'ff02::1', '100::1',
    ];
    for (const address of refused) expect(addressRefusal(address), address).toBeDefined();
  });

  it('names why, in words', () => {
    expect(addressRefusal('127.0.0.1')).toContain('loopback');
    expect(addressRefusal('169.254.169.254')).toContain('metadata');
    expect(addressRefusal('10.1.2.3')).toContain('private');
    expect(addressRefusal('100.64.1.1')).toContain('CGNAT');
    expect(addressRefusal('::ffff:127.0.0.1')).toContain('loopback');
    expect(addressRefusal('[::]')).toContain('unspecified');
    expect(addressRefusal('not-an-address')).toBe('not an IP address');
  });

  it('lets plain global unicast through', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '[2a00:1450:4001:80b::200e]', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('allows exact host:port pairs only', () => {
    const list = new AllowList(parseAllowHosts('127.0.0.1:8080, wiki.internal:443 [::1]:9000 nonsense'));
    expect(list.size).toBe(3);
    expect(list.allows('127.0.0.1', 8080)).toBe(true);
    expect(list.allows('127.0.0.1', 8081)).toBe(false);
    expect(list.allows('WIKI.internal', 443)).toBe(true);
    expect(list.allows('wiki.internal.', 443)).toBe(true);
    expect(list.allows('[::1]', 9000)).toBe(true);
    expect(list.allows('::1', 9000)).toBe(true);
    expect(list.allows('127.0.0.2', 8080)).toBe(false);
  });
});
