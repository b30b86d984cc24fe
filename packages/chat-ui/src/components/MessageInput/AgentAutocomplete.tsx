export interface AgentAutocompleteProps {
  /** The word after @ before the cursor. */
  query: string;
  /** Shown when nothing matches (spec §8 'No agents found for ...'). */
  emptyText: string;
}

/**
 * The @ dropdown (spec §4 states hidden, searching, results, none). Agents and their search
 * arrive with the agents issue; until then it shows the 'none' state.
 */
export function AgentAutocomplete({ query, emptyText }: AgentAutocompleteProps) {
  return (
    <div className="cf-autocomplete" role="region" aria-label="Agent suggestions">
      {query === '' ? (
        <p className="cf-autocomplete__hint">Type an agent's username after @.</p>
      ) : (
        <>
          <p className="cf-autocomplete__empty" role="status">
            {emptyText}
          </p>
          <p className="cf-autocomplete__hint">Check the spelling, or ask the chat's admin to allow more agent types.</p>
        </>
      )}
    </div>
  );
}
