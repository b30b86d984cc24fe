import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';

/**
 * Random and hostile filters and sorts through the real HTTP API: the answer is always a clean
 * 200/400/403, and a 200 never contains a record the list rule hides from the caller.
 */
const variants = await databaseVariants();

const fields = ['id', 'name', 'description', 'creator', 'participants', 'admins', 'created', 'updated', 'creator.username',
  'participants.name', 'email_address', 'is_inbox', 'agent_permissions', 'password_hash', 'creator.email', '@request.auth.id',
  '@collection.users.id', 'participants:length', 'name:lower'];
const operators = ['=', '!=', '>', '>=', '<', '<=', '~', '!~', '?=', '?!=', '?~', '?>'];
const hostileText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("'", '"', '\\', '%', '_', "' OR 1=1 --", '"; DROP TABLE chats; --', '🎉', '\u0000', '${x}', '\n'),
);
const literal = fc.oneof(
  hostileText.map((text) => JSON.stringify(text)),
  hostileText.map((text) => `'${text}'`),
  fc.integer().map(String),
  fc.constantFrom('null', 'true', 'false', '@now', '@todayStart', '""'),
);
const comparison = fc.tuple(fc.constantFrom(...fields), fc.constantFrom(...operators), literal).map(([field, operator, value]) => `${field} ${operator} ${value}`);
const filterExpression: fc.Arbitrary<string> = fc.letrec((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    comparison,
    fc.tuple(tie('expression') as fc.Arbitrary<string>, fc.constantFrom('&&', '||'), tie('expression') as fc.Arbitrary<string>).map(
      ([left, joiner, right]) => `(${left} ${joiner} ${right})`,
    ),
  ),
})).expression;
const anyFilter = fc.oneof(filterExpression, fc.string({ maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 30 }));
const anySort = fc.array(fc.tuple(fc.constantFrom('', '-', '+'), fc.constantFrom(...fields, '@random', 'x;y')), { maxLength: 4 })
  .map((parts) => parts.map(([sign, field]) => `${sign}${field}`).join(','));

describe.each(variants)('filter and sort fuzzing through HTTP ($name)', (variant) => {
  let testServer: TestServer;
  let insider: RegisteredUser;
  let visibleChatIds: Set<string>;

  beforeAll(async () => {
    testServer = await startTestServer(variant);
    insider = await registerUser(testServer);
    const outsider = await registerUser(testServer);
    const mine = await createChat(insider, { name: "it's mine %_" });
    const hidden = await createChat(outsider, { name: "it's hidden %_" });
    await postMessage(insider, mine.id, 'visible');
    await postMessage(outsider, hidden.id, 'hidden');
    visibleChatIds = new Set([mine.id]);
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('never errors with a 5xx and never leaks hidden chats', async () => {
    await fc.assert(
      fc.asyncProperty(anyFilter, anySort, async (filter, sort) => {
        const query = `filter=${encodeURIComponent(filter)}&sort=${encodeURIComponent(sort)}&perPage=500`;
        const response = await rawRequest(testServer.url, 'GET', `/api/collections/chats/records?${query}`, {
          token: insider.pb.authStore.token,
        });
        expect([200, 400, 403]).toContain(response.status);
        if (response.status === 200) {
          for (const chat of (response.body as { items: { id: string }[] }).items) expect(visibleChatIds.has(chat.id)).toBe(true);
        } else {
          expect(Object.keys(response.body as object).sort()).toEqual(['data', 'message', 'status']);
        }
      }),
      { numRuns: 150 },
    );
    expect(await testServer.probe.count('chats')).toBe(2);
  });
});
