import { describe, expect, it } from 'vitest';
import { mergeConfig } from '../client/config';
import { messageFromRecord } from '../messages/normalize';
import { validateUpload } from '../validation/upload';
import { systemLineText } from './systemLine';

const ann = { id: 'ann', name: 'ann' };
const bob = { id: 'bob', name: 'bob' };

describe('systemLineText', () => {
  it.each([
    [{ kind: 'added', actor: ann, subject: bob }, 'ann added bob'],
    [{ kind: 'removed', actor: ann, subject: bob }, 'ann removed bob'],
    [{ kind: 'joined_via_link', actor: bob }, 'bob joined via a share link'],
    [{ kind: 'joined_via_invitation', actor: bob }, 'bob joined via an invitation'],
    [{ kind: 'left', actor: bob }, 'bob left'],
    [{ kind: 'renamed', actor: ann, name: 'Q3 plans' }, 'ann renamed the chat to Q3 plans'],
  ] as const)('%j → %s', (line, text) => {
    expect(systemLineText(line)).toBe(text);
  });
});

describe('image uploads a server allows', () => {
  it('accepts only the image types the server listed, never SVG', () => {
    expect(validateUpload({ name: 'chart.png', size: 10 })).toMatch(/^Unsupported file format: \.png\./);
    expect(validateUpload({ name: 'chart.png', size: 10 }, ['.png'])).toBeNull();
    expect(validateUpload({ name: 'logo.svg', size: 10 }, ['.png', '.svg'])).toMatch(/^Unsupported file format: \.svg\./);
  });

  it('reads upload_extensions from the served config, keeping only image types', () => {
    const fallback = { api_base_url: 'http://x', websocket_url: 'ws://x/api/ws', environment: 'test', public_domain: 'x' };
    expect(mergeConfig({ upload_extensions: ['.png', '.svg', 3] }, fallback).upload_extensions).toEqual(['.png']);
    expect(mergeConfig({ upload_extensions: [] }, fallback).upload_extensions).toBeUndefined();
  });
});

describe('messageFromRecord', () => {
  it('keeps the file of a file message and the change of a system line, and leaves null ones out', () => {
    const base = { id: 'm1', chat: 'c1', author: 'ann', created: '2026-01-01 00:00:00.000Z', updated: '2026-01-01 00:00:00.000Z', seq: 1 };
    const file = { file_id: 'f1', name: 'sales.csv', file: 'sales_abcdefghij.csv', type: 'text/csv', size: 22 };
    expect(messageFromRecord({ ...base, message_type: 'file', content: 'shared sales.csv', file, system: null })).toMatchObject({ file });
    const line = { kind: 'left' as const, actor: ann };
    const system = messageFromRecord({ ...base, message_type: 'system', content: 'ann left', file: null, system: line });
    expect(system.system).toEqual(line);
    expect('file' in system).toBe(false);
  });

  it("keeps the cut-off mark of an agent's broken-off reply, and only when set", () => {
    const base = { id: 'm2', chat: 'c1', author: 'poet', created: '2026-01-01 00:00:00.000Z', updated: '2026-01-01 00:00:00.000Z', seq: 2, message_type: 'regular', content: 'Roses are' };
    expect(messageFromRecord({ ...base, cut_off: true }).cut_off).toBe(true);
    expect('cut_off' in messageFromRecord(base)).toBe(false);
  });
});
