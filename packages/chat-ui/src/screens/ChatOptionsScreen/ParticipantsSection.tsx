import { useEffect, useState } from 'react';
import { displayNameOf, isAgentUser, type ChatRecord, type ClientState, type UserRecord } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { PresenceDot } from '../../components/PeopleStrip/PresenceDot';
import { chatsOf } from '../../internal/chatClient';
import { useConfabClient, useConfabStore } from '../../provider/hooks';

const selectOnline = (state: ClientState) => state.onlineUserIds;

export interface ParticipantsSectionProps {
  chat: ChatRecord;
  currentUserId: string | null;
  disabled: boolean;
}

/**
 * Participants with Promote/Demote and Remove (docs/PRODUCT.md §6: admins, never on themselves).
 * Agents wear the Agent badge, as they do beside their messages: a name alone never says who is a
 * person. People online now wear the online dot (docs/CONTRACTS.md, Typing and presence).
 */
export function ParticipantsSection({ chat, currentUserId, disabled }: ParticipantsSectionProps) {
  const client = useConfabClient();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const expanded = new Map((chat.expand?.participants ?? []).map((user: UserRecord) => [user.id, user]));
  const online = new Set(useConfabStore(selectOnline));
  const presence = client.presence;
  // Best effort: without the answer nobody shows online, which is never wrong for long.
  useEffect(() => void presence?.loadChat(chat.id).catch(() => {}), [presence, chat.id]);

  const run = async (userId: string, action: () => Promise<unknown>) => {
    setBusyId(userId);
    setError(null);
    try {
      await action();
    } catch {
      setError('Failed to update participants.');
    } finally {
      setBusyId(null);
    }
  };

  return (
    <section className="cf-card cf-options__section" aria-labelledby="cf-options-participants">
      <h2 id="cf-options-participants">Participants</h2>
      {error ? <Alert>{error}</Alert> : null}
      <ul className="cf-participants">
        {chat.participants.map((participantId) => {
          const person = expanded.get(participantId);
          const name = person ? displayNameOf(person) : participantId;
          const admin = chat.admins.includes(participantId);
          const self = participantId === currentUserId;
          const agent = isAgentUser(person);
          const locked = disabled || busyId !== null;
          return (
            <li key={participantId} className="cf-participants__item" aria-label={`${agent ? `${name} (Agent)` : name}${online.has(participantId) ? ', online' : ''}`}>
              <span className="cf-participants__name">
                {name}
                {person ? <span className="cf-participants__username"> @{person.username}</span> : null}
              </span>
              {online.has(participantId) ? <PresenceDot /> : null}
              {agent ? <span className="cf-badge cf-badge--agent">Agent</span> : null}
              {admin ? <span className="cf-badge">Admin</span> : null}
              {self ? <span className="cf-badge">You</span> : null}
              {self ? null : (
                <span className="cf-participants__actions">
                  {admin ? (
                    <Button variant="secondary" disabled={locked} onClick={() => run(participantId, () => chatsOf(client).demote(chat.id, participantId))}>
                      Demote
                    </Button>
                  ) : (
                    <Button variant="secondary" disabled={locked} onClick={() => run(participantId, () => chatsOf(client).promote(chat.id, participantId))}>
                      Promote
                    </Button>
                  )}
                  <Button
                    variant="danger"
                    disabled={locked}
                    onClick={() => run(participantId, () => chatsOf(client).removeParticipant(chat.id, participantId))}
                  >
                    Remove
                  </Button>
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
