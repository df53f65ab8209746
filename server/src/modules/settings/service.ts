// Business settings as other modules read them (inside their transaction when they pass one).
export { allSettings, intSetting, saveSettings, textSetting } from './repo.ts';
