/**
 * Workspace search on both databases: a chat's drops and the text of its uploaded
 * files go into the full-text index (SQLite FTS5, PostgreSQL tsvector + GIN) when the chat is
 * searched; matches are ranked, stemmed, confined to the chat, and gone with their drop or file.
 */
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceSearch, fileText } from '../src/agents/tools/search/workspace';
import { DiskFileStore } from '../src/services/files/diskFileStore';
import { openDatabase, type ConfabDatabase } from '../src/store/database';
import { searchTerms, WorkspaceSearchRepository } from '../src/store/repositories/workspaceSearch';
import { databaseVariants } from './support/databases';
import { createChat, registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';
import { deleteDrop, deleteFile, publishDrop, uploadFile } from './support/workspace';

const variants = await databaseVariants();

describe('search terms', () => {
  it('keeps words only, so no query syntax reaches either engine', () => {
    expect(searchTerms('Solar "panels" OR NEAR(x) -- drop; a 7')).toEqual(['solar', 'panels', 'or', 'near', 'drop', '7']);
    expect(searchTerms('*** ""')).toEqual([]);
  });
});

describe.each(variants)('workspace search ($name)', (variant) => {
  let testServer: TestServer;
  let database: ConfabDatabase;
  let search: WorkspaceSearch;
  let owner: RegisteredUser;

  beforeAll(async () => {
    testServer = await startTestServer(variant);
    owner = await registerUser(testServer);
    database = await openDatabase({ databaseUrl: testServer.databaseUrl === '' ? undefined : testServer.databaseUrl, dataDir: testServer.dataDir });
    search = new WorkspaceSearch(database, { files: new DiskFileStore(testServer.dataDir), publicUrl: () => testServer.url, now: () => new Date() });
  });

  afterAll(async () => {
    await database?.close();
    await testServer?.close();
  });

  it('finds a drop by its content and a text file by its text, stemmed and ranked', async () => {
    const chat = await createChat(owner, { name: 'Energy' });
    const drop = await publishDrop(testServer, owner, chat.id, 'Heat pump notes', 'We compared air-source heat pumps against gas boilers for the office.');
    const surveyId = await uploadFile(testServer, owner, chat.id, 'survey.md', '# Survey\n\nThe photovoltaic panels on the roof produced 4 MWh in June.');
    await uploadFile(testServer, owner, chat.id, 'page.html', '<html><head><style>.x{}</style><script>var hidden = "zeppelin";</script></head><body><p>Wind turbines &amp; batteries</p></body></html>');
    await uploadFile(testServer, owner, chat.id, 'numbers.csv', 'site,output\nroof,4\n');

    const dropHits = await search.search(chat.id, 'boiler comparisons');
    expect(dropHits).toHaveLength(1);
    expect(dropHits[0]).toMatchObject({ kind: 'drop', title: 'Heat pump notes', url: `${testServer.url}/drops/${drop.slug}` });
    expect(dropHits[0]?.snippet).toContain('gas boilers');
    expect(dropHits[0]?.score).toBeGreaterThan(0);

    const fileHits = await search.search(chat.id, 'photovoltaic panel');
    expect(fileHits.map((hit) => hit.title)).toEqual(['File: survey.md']);
    expect(fileHits[0]?.url).toBe(`${testServer.url}/chat/${chat.id}?file=${surveyId}`);
    expect(fileHits[0]?.snippet).toContain('photovoltaic panels');

    // HTML is indexed as its text: scripts and styles are not.
    expect((await search.search(chat.id, 'turbines')).map((hit) => hit.title)).toEqual(['File: page.html']);
    expect(await search.search(chat.id, 'zeppelin')).toEqual([]);

    // Any word matches; the result with more of them ranks first.
    const both = await search.search(chat.id, 'roof heat pumps');
    expect(both.map((hit) => hit.title).slice(0, 1)).toEqual(['Heat pump notes']);
    expect(both.map((hit) => hit.title)).toContain('File: survey.md');
  });

  it('matches titles, keeps chats apart, and forgets deleted drops and files', async () => {
    const chat = await createChat(owner, { name: 'Kitchen' });
    const other = await createChat(owner, { name: 'Elsewhere' });
    const drop = await publishDrop(testServer, owner, chat.id, 'Sourdough starter', 'Feed it twice a day.');
    await publishDrop(testServer, owner, other.id, 'Sourdough elsewhere', 'Not in the kitchen chat.');
    const fileId = await uploadFile(testServer, owner, chat.id, 'recipes.txt', 'Focaccia with rosemary.', 'family recipes');

    expect((await search.search(chat.id, 'sourdough')).map((hit) => hit.title)).toEqual(['Sourdough starter']);
    expect((await search.search(other.id, 'sourdough')).map((hit) => hit.title)).toEqual(['Sourdough elsewhere']);
    // The description is indexed with the file's text.
    expect((await search.search(chat.id, 'family rosemary')).map((hit) => hit.title)).toEqual(['File: recipes.txt']);

    await deleteDrop(testServer, owner, drop.id);
    await deleteFile(testServer, owner, fileId);
    expect(await search.search(chat.id, 'sourdough rosemary')).toEqual([]);
    // New ones are picked up on the next search.
    await uploadFile(testServer, owner, chat.id, 'late.log', 'sourdough timer fired at 06:00');
    expect((await search.search(chat.id, 'sourdough')).map((hit) => hit.title)).toEqual(['File: late.log']);
  });

  it('indexes once when searches of one chat run at the same time', async () => {
    const chat = await createChat(owner, { name: 'Parallel' });
    await publishDrop(testServer, owner, chat.id, 'Orchid care', 'Water orchids weekly.');
    await uploadFile(testServer, owner, chat.id, 'orchids.txt', 'Orchids like bright shade.');
    const fresh = new WorkspaceSearch(database, { files: new DiskFileStore(testServer.dataDir), publicUrl: () => testServer.url, now: () => new Date() });
    // Two searchers (two server instances) racing: the unique drop and file columns keep one row each.
    const answers = await Promise.all([fresh.search(chat.id, 'orchids'), fresh.search(chat.id, 'orchid water'), search.search(chat.id, 'orchids')]);
    for (const hits of answers) expect(hits.map((hit) => hit.title).sort()).toEqual(['File: orchids.txt', 'Orchid care']);
    const rows = await testServer.probe.rows('select kind from workspace_search where chat = $1', [chat.id]);
    expect(rows).toHaveLength(2);
  });

  it('limits the results and answers nothing for a query without words', async () => {
    const chat = await createChat(owner, { name: 'Many' });
    for (let index = 1; index <= 4; index += 1) await publishDrop(testServer, owner, chat.id, `Tulip note ${index}`, `Tulips ${'bloom '.repeat(index)}`);
    expect(await search.search(chat.id, 'tulip', 3)).toHaveLength(3);
    const repository = new WorkspaceSearchRepository(database);
    expect(await repository.searchWorkspace(chat.id, '"" ** --', 5)).toEqual([]);
  });
});

describe('file text', () => {
  it('reads text formats and skips binary ones', async () => {
    const files = new DiskFileStore(tmpdir());
    expect(await fileText(files, 'aaaaaaaaaaaaaaa/bbbbbbbbbbbbbbb/file.txt', 'file.txt')).toBe('');
    expect(await fileText(files, 'aaaaaaaaaaaaaaa/bbbbbbbbbbbbbbb/report.pdf', 'report.pdf')).toBe('');
  });
});
