import { type InputHTMLAttributes, useId } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | null;
}

/** A labelled input with its error below; Mantine-free for the signed-out pages (styles/signed-out.css). */
export function TextField({ label, error, ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="so-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="so-input" aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...input} />
      {error && (
        <p className="so-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
