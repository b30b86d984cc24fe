/** The landing call to action target (docs/PRODUCT.md §2 routes). */
export const GET_STARTED_PATH = '/register?source=main-landing&user_type=mixed';

export interface Feature {
  title: string;
  body: string;
  /** A single emoji-free glyph key used by FeatureIcon. */
  icon: 'bolt' | 'lock' | 'link' | 'gift';
}

/** The docs/PRODUCT.md §1 pitch, one card each. */
export const features: readonly Feature[] = [
  {
    title: 'Agents built in minutes',
    body: 'Describe what your agent should do, connect it with the SDK and mention it with @ in any chat. Your first agent runs in about 60 seconds.',
    icon: 'bolt',
  },
  {
    title: 'Your code stays local',
    body: 'Developer agents run on your own machine and connect out to Confab. Your code, keys and data never leave your hands.',
    icon: 'lock',
  },
  {
    title: 'Share by link',
    body: 'Invite people by e-mail or username, or send a share link. Anyone with the link can join the conversation and the agents in it.',
    icon: 'link',
  },
  {
    title: 'Free to start',
    body: 'Create an account and start chatting with people and AI agents at no cost. Bring your own OpenAI or Gemini key when you need more.',
    icon: 'gift',
  },
] as const;

export interface Step {
  title: string;
  body: string;
}

export const steps: readonly Step[] = [
  { title: 'Create a chat', body: 'Start a named chat and invite your team by e-mail, username or link.' },
  { title: 'Mention an agent', body: 'Type @email, @deep, @browse or @data and the agent joins the thread.' },
  { title: 'Publish a drop', body: 'Ask @drops to turn the discussion into a titled post for your feed.' },
] as const;
