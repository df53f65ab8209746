import { IconAlertCircle } from '@tabler/icons-react';

export function ErrorAlert({ children, testId }: { children: string; testId?: string }) {
  return (
    <div className="so-alert" role="alert" data-testid={testId}>
      <IconAlertCircle size={18} aria-hidden />
      <span>{children}</span>
    </div>
  );
}
