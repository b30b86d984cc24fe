import { describe, expect, it } from 'vitest';
import { connectingAddressKey } from './inboundMailLimits';

describe('connectingAddressKey', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    // An IPv6 host holds a whole /64: every address in it is one count.
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['not an address', 'not an address'],
  ])('%s → %s', (address, key) => {
    expect(connectingAddressKey(address)).toBe(key);
  });
});
