/**
 * The green dot of a person who is online, read out as 'online' (docs/CONTRACTS.md, Typing and
 * presence). Nothing is shown for someone offline.
 */
export function PresenceDot() {
  return (
    <span className="cf-presence-dot">
      <span className="cf-visually-hidden">online</span>
    </span>
  );
}
