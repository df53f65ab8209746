// Business settings as other modules read them (inside their transaction when they pass one).
export { allSettings, intSetting, textSetting } from './repo.ts';
