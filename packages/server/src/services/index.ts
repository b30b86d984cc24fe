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
import { NotificationSettingsService } from './notificationSettings';
import { OnboardingService } from './onboarding';
import { PasswordResetService } from './passwordResets';
import { createPeoplePresence, PresenceService } from './presence';
import { ReactionsService } from './reactions';
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
  /** Which people are online, on any instance (docs/CONTRACTS.md, Typing and presence). */
  presence: PresenceService;
  notificationSettings: NotificationSettingsService;
  reactions: ReactionsService;
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
  const reactions = new ReactionsService(context, messaging);
  messaging.onPosted(({ row, author, content, reply }) => reads.posted(row, author, content, reply?.named.author));
  const announcements = new Announcements(context, messaging, reads);
  const uploadQuota = new UploadQuota(context);
  const collections = new Map<string, RecordCollection>([
    ['users', users],
    ['chats', new ChatsCollection(context, chatEvents, announcements)],
    ['messages', new MessagesCollection(context, messaging, reactions)],
    ['files', new FilesCollection(context, chatEvents, announcements)],
  ]);
  const records = new RecordsService(context, collections);
  const invitations = new InvitationsService(context, accounts, chatEvents, announcements);
  const chatMembership = new ChatMembershipService(context, accounts, chatEvents, announcements);
  const onboarding = new OnboardingService(context, accounts);
  const fileAccess = new FileAccessService(context, accounts);
  const agents = new AgentsService(context, accounts, records, context.presence);
  const drops = new DropsService(context, accounts);
  const presence = new PresenceService(
    context,
    createPeoplePresence(context.config, (error) => context.logger.error({ error: String(error) }, 'people presence store error')),
  );
  const notificationSettings = new NotificationSettingsService(context);
  return { context, accounts, agents, drops, passwordResets, records, users, messaging, chatEvents, chatMembership, invitations, onboarding, fileAccess, uploadQuota, reads, presence, notificationSettings, reactions, announcements };
}
