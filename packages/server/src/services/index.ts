import { AccountsService } from './accounts';
import { ChatsCollection } from './collections/chats';
import { FilesCollection } from './collections/files';
import { MessagesCollection } from './collections/messages';
import type { RecordCollection } from './collections/types';
import { UsersCollection } from './collections/users';
import type { ServiceContext } from './context';
import { RecordsService } from './records';

export interface Services {
  context: ServiceContext;
  accounts: AccountsService;
  records: RecordsService;
  users: UsersCollection;
}

export function createServices(context: ServiceContext): Services {
  const accounts = new AccountsService(context);
  const users = new UsersCollection(context, accounts);
  const collections = new Map<string, RecordCollection>([
    ['users', users],
    ['chats', new ChatsCollection(context)],
    ['messages', new MessagesCollection(context)],
    ['files', new FilesCollection(context)],
  ]);
  return { context, accounts, records: new RecordsService(context, collections), users };
}
