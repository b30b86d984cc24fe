import { describe, expect, it } from 'vitest';
import { inboundSmtpAddress } from '../config';
import { inertMailText, mailMessageContent } from '../services/mailInbox';
import { maxMessageLength } from '@confab/client/protocol';

describe('inbound mail parts', () => {
  it('reads CONFAB_INBOUND_SMTP: the default, off, host:port, a bare port, IPv6', () => {
    expect(inboundSmtpAddress(undefined)).toEqual({ host: '127.0.0.1', port: 2525 });
    expect(inboundSmtpAddress('')).toEqual({ host: '127.0.0.1', port: 2525 });
    expect(inboundSmtpAddress('off')).toBeUndefined();
    expect(inboundSmtpAddress('OFF')).toBeUndefined();
    expect(inboundSmtpAddress('0.0.0.0:25')).toEqual({ host: '0.0.0.0', port: 25 });
    expect(inboundSmtpAddress('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(inboundSmtpAddress('2526')).toEqual({ host: '127.0.0.1', port: 2526 });
    expect(inboundSmtpAddress('[::1]:2525')).toEqual({ host: '::1', port: 2525 });
  });

  it('makes mail text inert: no live HTML, no agent mention, addresses kept', () => {
    expect(inertMailText('<script>x</script> & @data hi, mail ann@example.com')).toBe('&lt;script&gt;x&lt;/script&gt; &amp; ＠data hi, mail ann@example.com');
  });

  it('fits a long mail into one message with sender, subject and attachments', () => {
    const content = mailMessageContent({ from: 'Ann <ann@example.com>', subject: 'Hi\r\nBcc: x', text: 'a'.repeat(maxMessageLength * 2) }, ['notes.csv']);
    expect(content.length).toBeLessThanOrEqual(maxMessageLength);
    expect(content).toContain('**From:** Ann &lt;ann@example.com&gt;');
    expect(content).toContain('**Subject:** Hi Bcc: x');
    expect(content).toContain('**Attachments:** notes.csv');
  });
});
