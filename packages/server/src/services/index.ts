import { AccountsService } from './accounts';
import { Announcements } from './announcements';
import { AgentsService } from './agents';
import { DropsService } from './drops';
import { ChatEvents } from './chatEvents';
import { ChatMembershipService } from './chatMembership';
import { ChatsCollection } from './collections/chats';
import { FilesCollection } from './collections/files';
import { MessagesCollection } from './collections/messages';
import type { RecordCollection } from './collections/types';
import { UsersCollection } from './collections/users';
import type { ServiceContext } from './context';
import { FileAccessService } from './files/fileAccess';
import { UploadQuota } from './files/uploadQuota';
import { InvitationsService } from './invitations';
import { MessagingService } from './messaging';
import { OnboardingService } from './onboarding';
import { PasswordResetService } from './passwordResets';
import { ReadsService } from './reads';
import { RecordsService } from './records';

export interface Services {
  context: ServiceContext;
  accounts: AccountsService;
  agents: AgentsService;
  drops: DropsService;
  passwordResets: PasswordResetService;
  records: RecordsService;
  users: UsersCollection;
  messaging: MessagingService;
  chatEvents: ChatEvents;
  chatMembership: ChatMembershipService;
  invitations: InvitationsService;
  onboarding: OnboardingService;
  fileAccess: FileAccessService;
  uploadQuota: UploadQuota;
  reads: ReadsService;
  announcements: Announcements;
}

export function createServices(context: ServiceContext): Services {
  // Built in dependency order, each from what exists before it: no late wiring.
  const accounts = new AccountsService(context);
  const passwordResets = new PasswordResetService(context, accounts);
  const users = new UsersCollection(context, accounts);
  const chatEvents = new ChatEvents(context, users);
  const messaging = new MessagingService(context);
  const reads = new ReadsService(context);
  messaging.onPosted(({ row, author, content }) => reads.posted(row, author, content));
  const announcements = new Announcements(context, messaging, reads);
  const uploadQuota = new UploadQuota(context);
  const collections = new Map<string, RecordCollection>([
    ['users', users],
    ['chats', new ChatsCollection(context, chatEvents, announcements)],
    ['messages', new MessagesCollection(context, messaging)],
    ['files', new FilesCollection(context, chatEvents, announcements)],
  ]);
  const records = new RecordsService(context, collections);
  const invitations = new InvitationsService(context, accounts, chatEvents, announcements);
  const chatMembership = new ChatMembershipService(context, accounts, chatEvents, announcements);
  const onboarding = new OnboardingService(context, accounts);
  const fileAccess = new FileAccessService(context, accounts);
  const agents = new AgentsService(context, accounts, records, context.presence);
  const drops = new DropsService(context, accounts);
  return { context, accounts, agents, drops, passwordResets, records, users, messaging, chatEvents, chatMembership, invitations, onboarding, fileAccess, uploadQuota, reads, announcements };
}
