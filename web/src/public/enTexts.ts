// The light pages' en-US texts (a chunk fetched by English readers only): the same namespaces as
// the pt-BR ones in ./texts.ts, named here so the chunk holds only them.
import { auth, common, customer, errors, topbar, trialOffer, twoFactor } from '../i18n/en-US.json?public-texts';

export const EN_TEXTS: Record<string, unknown> = { auth, common, customer, errors, topbar, trialOffer, twoFactor };
