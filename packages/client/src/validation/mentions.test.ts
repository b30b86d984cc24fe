import { describe, expect, it } from 'vitest';
import { extractMentions, inertMentions, isAgentUsername, mentionBeforeCursor, usernameFromName } from './mentions';

describe('extractMentions', () => {
  it.each([
    ['@echo hi', ['echo']],
    ['hi @Echo and @deep, then @echo again', ['echo', 'deep']],
    ['(@data) and @drops.', ['data', 'drops']],
    ['mail ann@example.com or @@twice or x.@dot', []],
    ['line\n@bot_2 go', ['bot_2']],
    ['@ alone, @-dash, @', []],
    ['émoji @café', ['caf']],
  ])('%j → %j', (text, expected) => {
    expect(extractMentions(text)).toEqual(expected);
  });
});

describe('inertMentions', () => {
  it.each([
    ['thanks @helpful_bot!', 'thanks ＠helpful_bot!'],
    ["SELECT '@bob_bot' AS hi", "SELECT '＠bob_bot' AS hi"],
    ['(@data) and @drops.', '(＠data) and ＠drops.'],
    ['mail ann@example.com or @@twice or x.@dot, @ alone', 'mail ann@example.com or @@twice or x.@dot, @ alone'],
  ])('%j → %j, mentioning nobody and as long as before', (text, expected) => {
    expect(inertMentions(text)).toBe(expected);
    expect(extractMentions(inertMentions(text))).toEqual([]);
    expect(inertMentions(text)).toHaveLength(text.length);
  });

  it('keeps the one name it is told to: an agent naming itself', () => {
    expect(inertMentions('Try `@Browse links https://a.example` or ask @deep', 'browse')).toBe('Try `@Browse links https://a.example` or ask ＠deep');
    expect(inertMentions('@browser is not @browse', 'browse')).toBe('＠browser is not @browse');
  });
});

describe('mentionBeforeCursor', () => {
  it('finds the word being typed after @', () => {
    expect(mentionBeforeCursor('hello @ec', 9)).toEqual({ query: 'ec', start: 6 });
    expect(mentionBeforeCursor('@deep', 5)).toEqual({ query: 'deep', start: 0 });
    expect(mentionBeforeCursor('@deep more', 3)).toEqual({ query: 'de', start: 0 });
  });

  it('finds a bare @ as a mention with no letters yet', () => {
    expect(mentionBeforeCursor('hello @', 7)).toEqual({ query: '', start: 6 });
    expect(mentionBeforeCursor('@', 1)).toEqual({ query: '', start: 0 });
  });

  it('is null after a space, inside an e-mail address, or after @@', () => {
    expect(mentionBeforeCursor('hello @ ', 8)).toBeNull();
    expect(mentionBeforeCursor('@@', 2)).toBeNull();
    expect(mentionBeforeCursor('ann@', 4)).toBeNull();
    expect(mentionBeforeCursor('@deep ', 6)).toBeNull();
    expect(mentionBeforeCursor('ann@exa', 7)).toBeNull();
    expect(mentionBeforeCursor('', 0)).toBeNull();
  });
});

describe('usernameFromName', () => {
  it.each([
    ['Echo Bot', 'echo_bot'],
    ['  Résumé   Reader!! ', 'resume_reader'],
    ['A', 'a_bot'],
    ['日本', 'agent_bot'],
    ['x'.repeat(40), 'x'.repeat(30)],
  ])('%j → %j', (name, username) => {
    expect(usernameFromName(name)).toBe(username);
    expect(isAgentUsername(usernameFromName(name))).toBe(true);
  });

  it('accepts only the lower-case mention grammar for typed usernames', () => {
    expect(isAgentUsername('echo_bot')).toBe(true);
    expect(isAgentUsername('Echo')).toBe(false);
    expect(isAgentUsername('ec')).toBe(false);
    expect(isAgentUsername('echo-bot')).toBe(false);
  });
});
