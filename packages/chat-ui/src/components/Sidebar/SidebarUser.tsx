import { avatarColor, displayNameOf, type ClientState } from '@confab/client';
import { Button } from '../Button/Button';
import { useConfabClient, useConfabStore, useNavigate } from '../../provider/hooks';

export interface SidebarUserProps {
  onLogout?: (() => void) | undefined;
}

const selectUser = (state: ClientState) => state.user;

/** The signed-in user's name, the status 'Online', and Logout. */
export function SidebarUser({ onLogout }: SidebarUserProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const user = useConfabStore(selectUser);
  const displayName = user ? displayNameOf(user) : 'Guest';

  const handleLogout = () => {
    client.logout();
    // Replace: after signing out, Back must not reopen the signed-in shell.
    navigate('/login', { replace: true });
    onLogout?.();
  };

  return (
    <div className="cf-sidebar__user">
      <span className="cf-avatar" aria-hidden="true" style={user ? { backgroundColor: avatarColor(user.id) } : undefined}>
        {displayName.charAt(0).toUpperCase()}
      </span>
      <div className="cf-sidebar__user-text">
        <span className="cf-sidebar__user-name">{displayName}</span>
        <span className="cf-sidebar__presence">
          <span className="cf-presence-dot" aria-hidden="true" />
          Online
        </span>
      </div>
      <Button variant="ghost" className="cf-sidebar__logout" onClick={handleLogout}>
        Logout
      </Button>
    </div>
  );
}
