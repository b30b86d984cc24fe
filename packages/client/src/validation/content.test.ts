import { describe, expect, it } from 'vitest';
import {
  classifyInviteInput,
  normalizeAgentInput,
  normalizeDrop,
  shouldSearchAgents,
  shouldSearchInviteSuggestions,
  validateAgentCreation,
  validateApiKeys,
  validateChatCreation,
  validateDrop,
  validateHostedAgentCreation,
  validateMessage,
  validateProfileUsername,
} from './content';

describe('validateMessage', () => {
  it('refuses blank content and accepts anything else', () => {
    expect(validateMessage('   \n')).not.toBeNull();
    expect(validateMessage(' hi ')).toBeNull();
  });
});

describe('validateDrop', () => {
  it.each([
    [{ title: 'x'.repeat(100), content: 'y'.repeat(2000) }, true],
    [{ title: ` ${'x'.repeat(100)} `, content: 'body' }, true],
    [{ title: 'x'.repeat(101), content: 'body' }, false],
    [{ title: 'title', content: 'y'.repeat(2001) }, false],
    [{ title: '  ', content: 'body' }, false],
    [{ title: 'title', content: '\n' }, false],
  ])('%#: valid=%s', (values, valid) => {
    expect(validateDrop(values) === null).toBe(valid);
  });

  it('trims title and content on submit', () => {
    expect(normalizeDrop({ title: ' A ', content: ' B\n' })).toEqual({ title: 'A', content: 'B' });
  });
});

describe('validateChatCreation', () => {
  it.each([
    [{ name: 'Team', userId: '' }, 'User ID is required to create a chat'],
    [{ name: 'Team', userId: null }, 'User ID is required to create a chat'],
    [{ name: 'Team', userId: 'u1' }, null],
  ])('%j → %s', (values, expected) => {
    expect(validateChatCreation(values)).toBe(expected);
  });

  it('requires a name after trimming', () => {
    expect(validateChatCreation({ name: '  ', userId: 'u1' })).not.toBeNull();
  });
});

describe('agent creation', () => {
  it('requires a name and trims name and description', () => {
    expect(validateAgentCreation({ name: ' ', description: '' })).not.toBeNull();
    expect(validateAgentCreation({ name: 'helper', description: '' })).toBeNull();
    expect(normalizeAgentInput({ name: ' helper ', description: ' does things ' })).toEqual({
      name: 'helper',
      description: 'does things',
    });
  });

  it('requires a display name for Confab agents', () => {
    expect(validateHostedAgentCreation({ displayName: '' })).not.toBeNull();
    expect(validateHostedAgentCreation({ displayName: 'Research' })).toBeNull();
  });
});

describe('profile', () => {
  it.each([
    [{ currentUsername: 'alice', username: 'alice' }, 'No changes to save.'],
    [{ currentUsername: 'alice', username: ' alice ' }, 'No changes to save.'],
    [{ currentUsername: 'alice', username: 'alicia' }, null],
  ])('username %j → %s', (values, expected) => {
    expect(validateProfileUsername(values)).toBe(expected);
  });

  it.each([
    [{ openaiApiKey: '', geminiApiKey: '' }, 'Please enter at least one API key.'],
    [{ openaiApiKey: '  ', geminiApiKey: ' ' }, 'Please enter at least one API key.'],
    [{ openaiApiKey: 'sk-1', geminiApiKey: '' }, null],
    [{ openaiApiKey: '', geminiApiKey: 'g-1' }, null],
  ])('API keys %j → %s', (values, expected) => {
    expect(validateApiKeys(values)).toBe(expected);
  });
});

describe('classifyInviteInput', () => {
  it.each([
    ['Frank@Example.com', { kind: 'email', email: 'frank@example.com' }],
    [' frank@example.org ', { kind: 'email', email: 'frank@example.org' }],
    ['frank@localhost', { kind: 'username', username: 'frank@localhost' }],
    ['frank.smith', { kind: 'username', username: 'frank.smith' }],
    ['frank', { kind: 'username', username: 'frank' }],
    ['  ', null],
  ])('%j → %j', (input, expected) => {
    expect(classifyInviteInput(input)).toEqual(expected);
  });

  it('searches suggestions from 2 characters and agents from 1', () => {
    expect(shouldSearchInviteSuggestions('f')).toBe(false);
    expect(shouldSearchInviteSuggestions(' fr ')).toBe(true);
    expect(shouldSearchAgents(' ')).toBe(false);
    expect(shouldSearchAgents('d')).toBe(true);
  });
});
