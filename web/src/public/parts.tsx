import { type ReactNode, useState } from 'react';
import { t } from './texts';

/** pt-BR dates and money whatever the language (the panel's rule): `DD/MM/YYYY HH:mm` in the browser's time zone. */
const dateTime = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
export function formatDateTime(epochSeconds: number | null | undefined): string {
  if (!epochSeconds) return '-';
  const p = Object.fromEntries(dateTime.formatToParts(new Date(epochSeconds * 1000)).map((x) => [x.type, x.value]));
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}
const moneyFormat = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
export const money = (cents: number) => moneyFormat.format(cents / 100);

export function Spinner({ label }: { label?: string }) {
  return (
    <div className="pp-center" role="status" aria-live="polite">
      <span className="so-spinner" aria-hidden />
      {label && <span className="so-dimmed">{label}</span>}
    </div>
  );
}

/** A coloured box of text (info, warning, success); errors are ErrorAlert. */
export function Notice({ kind, title, children, testId }: { kind: 'info' | 'warn' | 'ok' | 'muted'; title?: string; children?: ReactNode; testId?: string }) {
  return (
    <div className="pp-notice" data-kind={kind} data-testid={testId}>
      {title && <strong className="pp-notice-title">{title}</strong>}
      {children}
    </div>
  );
}

/** Copies `value` (the clipboard API, or a selected text area where it is missing: plain-HTTP sites). */
export function CopyButton({ value, label, testId, full }: { value: string; label: string; testId?: string; full?: boolean }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      const area = document.createElement('textarea');
      area.value = value;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <button type="button" className={full ? 'so-button' : 'pp-button-light'} data-full={full || undefined} data-copied={copied || undefined} onClick={() => void copy()} data-testid={testId}>
      {copied ? t('customer.copied') : label}
    </button>
  );
}
