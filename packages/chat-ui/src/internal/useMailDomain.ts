import { useEffect, useState } from 'react';
import { useConfabClient } from '../provider/hooks';

/** Shown until the server's configuration answers (the embedded default's domain). */
export const defaultMailDomain = 'confab.localhost';

/**
 * The domain of inbox addresses (a person's and a chat's): the server's `mail_domain`, else (an
 * older server) its public host without a port, which no address may carry.
 */
export function useMailDomain(): string {
  const client = useConfabClient();
  const [domain, setDomain] = useState(defaultMailDomain);
  useEffect(() => {
    let active = true;
    client.loadConfig().then(
      (config) => {
        if (!active) return;
        const served = config.mail_domain ?? config.public_domain.trim().replace(/:\d+$/, '');
        if (served !== '') setDomain(served);
      },
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [client]);
  return domain;
}
