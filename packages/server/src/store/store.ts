import type { ConfabDatabase } from './database';
import { AgentsRepository } from './repositories/agents';
import { ChatsRepository } from './repositories/chats';
import { DropsRepository } from './repositories/drops';
import { FilesRepository } from './repositories/files';
import { InvitationsRepository } from './repositories/invitations';
import { MessagesRepository } from './repositories/messages';
import { MissedMentionsRepository } from './repositories/missedMentions';
import { PasswordResetsRepository } from './repositories/passwordResets';
import { ReactionsRepository } from './repositories/reactions';
import { ReadsRepository } from './repositories/reads';
import { UsersRepository } from './repositories/users';

/** Every repository over one database; services receive this and never write SQL themselves. */
export interface Store {
  database: ConfabDatabase;
  users: UsersRepository;
  chats: ChatsRepository;
  messages: MessagesRepository;
  files: FilesRepository;
  passwordResets: PasswordResetsRepository;
  invitations: InvitationsRepository;
  agents: AgentsRepository;
  drops: DropsRepository;
  reads: ReadsRepository;
  missedMentions: MissedMentionsRepository;
  reactions: ReactionsRepository;
}

export function createStore(database: ConfabDatabase): Store {
  return {
    database,
    users: new UsersRepository(database.db),
    chats: new ChatsRepository(database.db),
    messages: new MessagesRepository(database.db, database.dialect),
    files: new FilesRepository(database.db),
    passwordResets: new PasswordResetsRepository(database.db),
    invitations: new InvitationsRepository(database.db),
    agents: new AgentsRepository(database.db),
    drops: new DropsRepository(database.db),
    reads: new ReadsRepository(database.db),
    missedMentions: new MissedMentionsRepository(database.db),
    reactions: new ReactionsRepository(database),
  };
}
