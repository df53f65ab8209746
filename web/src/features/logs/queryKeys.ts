import type { LogsQuery } from '../../api/types';

/** The logs feature's query keys. */
export const logKeys = {
  /** GET /logs (LogEntry rows). */
  list: (query: LogsQuery) => ['logs', 'list', query] as const,
  /** LogOptions: GET /logs/getoptions. */
  options: () => ['logs', 'options'] as const,
};
