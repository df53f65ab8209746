import { enumParam, tableSearch, textParam } from '../../components/table/tableSearch';
import { type Channel, STAGES, STATUSES, type Stage } from './constants';

export interface HistoryFilters {
  line?: string;
  stage?: Stage;
  status?: (typeof STATUSES)[number];
  channel?: Channel;
}

/** validateSearch of /reminders/history: page, per and the filters (newest first, no other order). */
export const historySearch = tableSearch<HistoryFilters>([], (raw) => ({
  line: textParam(raw.line, 50),
  stage: enumParam(raw.stage, STAGES),
  status: enumParam(raw.status, STATUSES),
  channel: enumParam(raw.channel, ['whatsapp', 'email'] as const),
}));
