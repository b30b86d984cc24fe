export interface SpinnerProps {
  /** Diameter in pixels. */
  size?: number | undefined;
  className?: string | undefined;
}

/**
 * A decorative spinning ring. It is hidden from assistive technology: whatever shows it must also
 * say in text what is loading (inside a role="status" region).
 */
export function Spinner({ size = 32, className }: SpinnerProps) {
  return (
    <span
      className={['cf-spinner', className].filter(Boolean).join(' ')}
      style={{ width: size, height: size }}
      aria-hidden="true"
    />
  );
}
