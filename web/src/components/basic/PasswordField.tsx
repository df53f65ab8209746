import { IconEye, IconEyeOff } from '@tabler/icons-react';
import { useId, useState } from 'react';
import type { TextFieldProps } from './TextField';

/** A password input with a show/hide button named `toggleLabel`. */
export function PasswordField({ label, error, toggleLabel, ...input }: TextFieldProps & { toggleLabel: string }) {
  const id = useId();
  const errorId = `${id}-error`;
  const [visible, setVisible] = useState(false);
  return (
    <div className="so-field">
      <label htmlFor={id}>{label}</label>
      <div className="so-input-wrap">
        <input
          id={id}
          className="so-input"
          type={visible ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...input}
        />
        <button type="button" className="so-eye" aria-label={toggleLabel} aria-pressed={visible} onClick={() => setVisible((v) => !v)}>
          {visible ? <IconEyeOff size={18} aria-hidden /> : <IconEye size={18} aria-hidden />}
        </button>
      </div>
      {error && (
        <p className="so-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
