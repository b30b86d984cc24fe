/**
 * Hostile numbers: arbitrary strings (huge digit strings, '-0', '1e308', 'NaN', unicode digits,
 * repeated keys, broken percent-encodings) in every numeric query parameter the server reads.
 * Whatever a client sends, the answer is never a 5xx, and a list echoes a page it really used.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';

const variants = await databaseVariants();
const runsPerParameter = 60;

const digit = fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9');
const hostileNumber = fc.oneof(
  fc.constantFrom(
    '', ' ', '0', '-0', '+0', '1', '-1', '2', ' 3 ', '1.5', '0.1', '-1.5', '1e5', '1E5', '1e308', '1e-308', '-1e308', '1e400',
    'NaN', 'Infinity', '-Infinity', '0x10', '0b11', '0o7', '1_000', '1,000', '+5', '--5', '5-', 'true', 'null', 'undefined', '[]',
    '99999999999999999999', '-99999999999999999999', '9007199254740993', '1000000000', '1000000001', '4294967296', '2147483648',
    '１２３', '٣', '१२', '১', '\u0000', '\u00a0', '½', '²', '𝟙',
  ),
  fc.string({ unit: digit, minLength: 10, maxLength: 400 }),
  fc.tuple(fc.constantFrom('', '-', '+', ' '), fc.string({ unit: digit, minLength: 1, maxLength: 25 }), fc.constantFrom('', '.5', 'e3', 'e308', ' ')).map((parts) => parts.join('')),
  fc.bigInt().map(String),
  fc.double().map(String),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary-ascii', maxLength: 20 }),
);
/** Pieces put into the URL as they are, percent-encoding mistakes included. */
const rawFragment = fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%2', '%FF%FE', '+', '%20%20', '%2B1', '&', '=');

/** One or more values for the key (a repeated key arrives as an array), each encoded or raw. */
const parameterValues = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: hostileNumber.map((value) => encodeURIComponent(value)) },
    { weight: 1, arbitrary: fc.tuple(hostileNumber, rawFragment).map(([value, raw]) => `${encodeURIComponent(value)}${raw}`) },
  ),
  { minLength: 1, maxLength: 3 },
);

function queryOf(name: string, values: readonly string[]): string {
  return values.map((value) => `${name}=${value}`).join('&');
}

describe.each(variants)('numeric query parameters never make a 5xx ($name)', (variant) => {
  let testServer: TestServer;
  let erin: RegisteredUser;
  let fileUrl: string;

  beforeAll(async () => {
    testServer = await startTestServer(variant);
    erin = await registerUser(testServer, { username: `fuzzer${Math.random().toString(36).slice(2, 8)}` });
    const chat = await createChat(erin, { name: 'Fuzzed' });
    await postMessage(erin, chat.id, 'hello');
    const form = new FormData();
    form.append('chat', chat.id);
    form.append('file', new File(['id,name\n1,Ada\n'], 'people.csv', { type: 'text/csv' }));
    const file = await erin.pb.collection('files').create(form);
    fileUrl = `/api/files/files/${file.id}/${String(file['file'])}`;
  });

  afterAll(async () => {
    await testServer?.close();
  });

  async function get(path: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${testServer.url}${path}`, { headers: { authorization: erin.pb.authStore.token } });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: response.status, body };
  }

  const lists = ['users', 'chats', 'messages', 'files'];
  const listParameters = lists.flatMap((collection) => ['page', 'perPage', 'skipTotal'].map((parameter) => ({ collection, parameter })));

  it.each(listParameters)('$parameter on the $collection list', async ({ collection, parameter }) => {
    await fc.assert(
      fc.asyncProperty(parameterValues, fc.boolean(), async (values, withOthers) => {
        // Sometimes beside the other numeric parameters, so a huge page meets the largest perPage.
        const others = withOthers ? `&${parameter === 'perPage' ? 'page=99999999999999999999' : 'perPage=500'}` : '';
        const path = `/api/collections/${collection}/records?${queryOf(parameter, values)}${others}`;
        const response = await get(path);
        expect(response.status, path).toBeLessThan(500);
        if (response.status !== 200) return;
        const list = response.body as { page: number; perPage: number; items: unknown[] };
        expect(Number.isSafeInteger(list.page) && list.page >= 1, path).toBe(true);
        expect(Number.isSafeInteger(list.perPage) && list.perPage >= 1 && list.perPage <= 500, path).toBe(true);
        expect(Array.isArray(list.items), path).toBe(true);
      }),
      { numRuns: runsPerParameter },
    );
  });

  it('download on a file download', async () => {
    await fc.assert(
      fc.asyncProperty(parameterValues, async (values) => {
        const path = `${fileUrl}?${queryOf('download', values)}`;
        const response = await get(path);
        expect(response.status, path).toBeLessThan(500);
      }),
      { numRuns: runsPerParameter },
    );
  });

  it('answers the huge page of the finding with an empty page, echoing the page it used', async () => {
    const response = await get('/api/collections/chats/records?page=99999999999999999999');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ items: [], page: 1_000_000_000, perPage: 30 });
    const largest = await get('/api/collections/chats/records?page=1000000000&perPage=500&skipTotal=1');
    expect(largest.status).toBe(200);
    expect(largest.body).toMatchObject({ items: [], page: 1_000_000_000, perPage: 500 });
  });
});
