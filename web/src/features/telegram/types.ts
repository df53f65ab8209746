// The Telegram routes' types, from the generated schema (server/openapi.json).
// The browser tests import these types too (hence the `.ts` extension, as api/types.ts's own imports).
import type { Answer, Body } from '../../api/types.ts';

export type TelegramSettings = Answer<'/api/telegram/settings', 'get'>;
export type TelegramSettingsBody = Body<'/api/telegram/settings', 'put'>;
export type TelegramLinkCode = Answer<'/api/telegram/link-code', 'post'>;
