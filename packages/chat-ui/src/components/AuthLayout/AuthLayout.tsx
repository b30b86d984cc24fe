import type { ReactNode } from 'react';
import { useComponents } from '../../provider/ComponentsContext';

export interface AuthLayoutProps {
  /** The page heading (an h1), e.g. 'Sign In'. */
  title: string;
  /** A short line under the heading. */
  description?: ReactNode | undefined;
  /** Links under the card body, e.g. 'Create an account'. */
  footer?: ReactNode | undefined;
  children?: ReactNode | undefined;
}

/** The centred card every account screen uses: logo, heading, body and footer links. */
export function AuthLayout({ title, description, footer, children }: AuthLayoutProps) {
  const { Link, Logo } = useComponents();
  return (
    <main className="cf-auth">
      <div className="cf-auth__card">
        <Link to="/" className="cf-auth__brand" aria-label="Confab home">
          <Logo />
        </Link>
        <h1 className="cf-auth__title">{title}</h1>
        {description ? <p className="cf-auth__description">{description}</p> : null}
        <div className="cf-auth__body">{children}</div>
        {footer ? <div className="cf-auth__footer">{footer}</div> : null}
      </div>
    </main>
  );
}
