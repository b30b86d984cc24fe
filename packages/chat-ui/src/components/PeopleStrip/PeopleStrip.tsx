import { avatarColor } from '@confab/client';
import { PresenceDot } from './PresenceDot';

/** One participant as the strip shows them. */
export interface PeopleStripPerson {
  id: string;
  /** Display name (name, else username). */
  name: string;
  online: boolean;
  isAgent?: boolean | undefined;
}

export interface PeopleStripProps {
  people: readonly PeopleStripPerson[];
  /** Avatars shown before '+n'; default 3, so the strip stays small in a phone's header. */
  maxShown?: number | undefined;
}

/**
 * The compact row of a chat's people in its header: initials on the avatar colour, online people
 * first with a dot, then '+n' for the rest. A list named 'People in this chat'; each item reads
 * its person's name and 'online' when they are.
 */
export function PeopleStrip({ people, maxShown = 3 }: PeopleStripProps) {
  if (people.length === 0) return null;
  const ordered = [...people.filter((person) => person.online), ...people.filter((person) => !person.online)];
  const shown = ordered.slice(0, maxShown);
  const rest = ordered.length - shown.length;
  const onlineCount = ordered.filter((person) => person.online).length;
  return (
    <ul className="cf-people-strip" aria-label="People in this chat" title={`${people.length} people, ${onlineCount} online`}>
      {shown.map((person) => (
        <li key={person.id} className="cf-people-strip__person" title={person.online ? `${person.name} (online)` : person.name}>
          <span className="cf-avatar cf-people-strip__avatar" aria-hidden="true" style={{ backgroundColor: avatarColor(person.id, person.isAgent === true) }}>
            {person.name.charAt(0).toUpperCase()}
          </span>
          <span className="cf-visually-hidden">{person.name}</span>
          {person.online ? <PresenceDot /> : null}
        </li>
      ))}
      {rest > 0 ? (
        <li className="cf-people-strip__more">
          <span aria-hidden="true">+{rest}</span>
          <span className="cf-visually-hidden">{rest === 1 ? '1 more person' : `${rest} more people`}</span>
        </li>
      ) : null}
    </ul>
  );
}
