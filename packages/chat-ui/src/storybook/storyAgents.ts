import type { AgentView } from '@confab/client';

/** Story fixtures: the hosted agents a server starts with, and Alice's own developer agents. */
const hosted = (username: string, name: string, description: string): AgentView => ({
  id: `agent${username.padEnd(10, '0')}`,
  name,
  username,
  description,
  agent_type: 'confab-agent',
  status: 'active',
  site_wide_available: true,
  dev_room_id: '',
  created_by: '',
  created: '2026-01-01 00:00:00.000Z',
  updated: '2026-01-01 00:00:00.000Z',
});

export const storyHostedAgents: AgentView[] = [
  hosted('email', 'Email', 'Sends and manages e-mails for the chat, from its own inbox address.'),
  hosted('deep', 'Deep Research', 'Researches a question across many sources and writes a report with citations.'),
  hosted('browse', 'Browse', 'Browses and scrapes websites.'),
  hosted('data', 'Data', 'SQL data analysis over the chat files.'),
  hosted('drops', 'Drops', 'Creates a drop from the discussion.'),
];

/** Alice's developer agents: one online with its dev room, one that never connected. */
export const storyDeveloperAgents: AgentView[] = [
  {
    id: 'agentdevecho001',
    name: 'Echo Bot',
    username: 'echo_bot',
    description: 'Repeats what it is told. A first agent to try the SDK with.',
    agent_type: 'developer-agent',
    status: 'online',
    site_wide_available: true,
    dev_room_id: 'chatdevroom0001',
    created_by: 'storyuser000001',
    created: '2026-01-02 00:00:00.000Z',
    updated: '2026-01-02 00:00:00.000Z',
  },
  {
    id: 'agentdevtodo001',
    name: 'Todo Keeper',
    username: 'todo_keeper',
    description: '',
    agent_type: 'developer-agent',
    status: 'offline',
    site_wide_available: false,
    dev_room_id: '',
    created_by: 'storyuser000001',
    created: '2026-01-03 00:00:00.000Z',
    updated: '2026-01-03 00:00:00.000Z',
  },
];
