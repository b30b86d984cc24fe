import { useState } from 'react';
import { needsAccountCompletion } from '@confab/client';
import { Button } from '../Button/Button';
import { useConfabStore, useNavigate } from '../../provider/hooks';

/** sessionStorage key: a dismissal lasts for the browser session (docs/PRODUCT.md §9). */
export const BANNER_DISMISSED_KEY = 'confab.completeAccountBanner.dismissed';

function readDismissed(): boolean {
  try {
    return typeof sessionStorage !== 'undefined' && sessionStorage.getItem(BANNER_DISMISSED_KEY) === 'true';
  } catch {
    return false;
  }
}

function rememberDismissed(): void {
  try {
    sessionStorage.setItem(BANNER_DISMISSED_KEY, 'true');
  } catch {
    // Storage refused (privacy modes): the banner still hides for this page's lifetime.
  }
}

/**
 * 'Complete Your Account' for soft-registered users without completed signup (docs/PRODUCT.md §2,
 * §4): Complete Signup (→ /complete-account), Later and × both dismiss it for the browser session.
 */
export function CompleteAccountBanner() {
  const navigate = useNavigate();
  const user = useConfabStore((state) => state.user);
  const [dismissed, setDismissed] = useState(readDismissed);
  if (!needsAccountCompletion(user) || dismissed) return null;
  const dismiss = () => {
    rememberDismissed();
    setDismissed(true);
  };
  return (
    <section className="cf-banner" aria-label="Complete Your Account">
      <div className="cf-banner__text">
        <strong>Complete Your Account</strong>
        <p>You joined with a temporary account. Add your e-mail address and a password to keep access to your chats.</p>
      </div>
      <div className="cf-banner__actions">
        <Button onClick={() => navigate('/complete-account')}>Complete Signup</Button>
        <Button variant="secondary" onClick={dismiss}>
          Later
        </Button>
        <button type="button" className="cf-banner__close" aria-label="Dismiss" onClick={dismiss}>
          ×
        </button>
      </div>
    </section>
  );
}
