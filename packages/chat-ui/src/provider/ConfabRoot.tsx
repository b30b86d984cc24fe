import type { HTMLAttributes } from 'react';

/** The colour scheme of the components: fixed, or the visitor's system setting ('auto'). */
export type ConfabTheme = 'light' | 'dark' | 'auto';

/** The class every rule of '@confab/chat-ui/theme.css' is scoped under. */
export const confabRootClass = 'confab-root';

export interface ConfabRootProps extends HTMLAttributes<HTMLDivElement> {
  /** Default 'light'. 'auto' follows `prefers-color-scheme`. */
  theme?: ConfabTheme | undefined;
}

/**
 * The element the theme's styles are scoped under: `<div class="confab-root"
 * data-confab-theme="…">`. It sets the theme's custom properties, font, text colour and
 * background. ConfabProvider renders one around its children; render one yourself only for
 * parts used outside a provider (a lone Button in a design-system page).
 */
export function ConfabRoot({ theme = 'light', className, children, ...rest }: ConfabRootProps) {
  return (
    <div {...rest} className={className ? `${confabRootClass} ${className}` : confabRootClass} data-confab-theme={theme}>
      {children}
    </div>
  );
}
