export interface LogoProps {
  /** Hide the word mark and show only the symbol (narrow spaces). */
  compact?: boolean | undefined;
  className?: string | undefined;
}

/** The Confab mark: a speech bubble with a spark, plus the word mark. */
export function Logo({ compact = false, className }: LogoProps) {
  return (
    <span className={['cf-logo', className].filter(Boolean).join(' ')}>
      <svg className="cf-logo__mark" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">
        <rect x="2" y="4" width="28" height="20" rx="7" fill="currentColor" />
        <path d="M9 24 L9 30 L16 24 Z" fill="currentColor" />
        <path d="M16 8 L17.6 12.4 L22 14 L17.6 15.6 L16 20 L14.4 15.6 L10 14 L14.4 12.4 Z" fill="#fff" />
      </svg>
      {compact ? <span className="cf-visually-hidden">Confab</span> : <span className="cf-logo__text">Confab</span>}
    </span>
  );
}
