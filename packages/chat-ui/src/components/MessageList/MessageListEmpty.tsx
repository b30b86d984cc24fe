export interface MessageListEmptyProps {
  userName?: string | undefined;
}

/** docs/PRODUCT.md §1 suggestions shown in an empty chat. */
export const agentSuggestions = [
  { mention: '@email', description: 'send and manage e-mails' },
  { mention: '@deep', description: 'deep research' },
  { mention: '@browse', description: 'browse and scrape websites' },
  { mention: '@data', description: 'SQL data analysis' },
] as const;

/** The empty chat: a welcome and the agents one can mention to get going. */
export function MessageListEmpty({ userName }: MessageListEmptyProps) {
  return (
    <div className="cf-message-list cf-message-list--empty">
      <h2>{userName ? `Welcome, ${userName}!` : 'Welcome!'}</h2>
      <p>No messages yet. Say hello, or ask an agent for help by typing @ and its name:</p>
      <ul className="cf-suggestions" aria-label="Agent suggestions">
        {agentSuggestions.map((suggestion) => (
          <li key={suggestion.mention}>
            <code>{suggestion.mention}</code> {suggestion.description}
          </li>
        ))}
      </ul>
    </div>
  );
}
