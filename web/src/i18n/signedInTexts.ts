import { addTexts } from './addTexts';
// The texts the signed-in layout and the shared components use, loaded with the layout
// (routing/base.tsx). The entry holds the signed-out ones (./index.ts); a feature's own texts come
// with its pages (features/*/texts.ts). The query makes this import a module apart from the
// entry's, so only these namespaces are in this chunk (i18n/textParts.test.ts checks the split).
import { export as exportTexts, expiry, whatsapp, resellerPicker, table, pager, filters, confirm, users, migrate, vods, settings, extLinks, p2p, connections } from './pt-BR.json?signed-in-texts';

addTexts({ export: exportTexts, expiry, whatsapp, resellerPicker, table, pager, filters, confirm, users, migrate, vods, settings, extLinks, p2p, connections });
