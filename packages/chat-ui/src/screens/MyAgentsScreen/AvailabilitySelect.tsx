import { useId } from 'react';

export interface AvailabilitySelectProps {
  /** True: site-wide (found by search everywhere); false: dev room only. */
  siteWide: boolean;
  onChange: (siteWide: boolean) => void;
  disabled?: boolean | undefined;
  /** Visible label; default 'Availability'. */
  label?: string | undefined;
}

/** docs/PRODUCT.md §4 agent availability: site-wide or dev room only. */
export function AvailabilitySelect({ siteWide, onChange, disabled = false, label = 'Availability' }: AvailabilitySelectProps) {
  const id = useId();
  return (
    <div className="cf-field">
      <label className="cf-field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="cf-field__input cf-select"
        value={siteWide ? 'site-wide' : 'dev-room'}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value === 'site-wide')}
      >
        <option value="site-wide">Site-wide</option>
        <option value="dev-room">Dev room only</option>
      </select>
    </div>
  );
}
