import { addTexts } from './addTexts';
import texts from './pt-BR.json';

// Unit tests' setup (vite.config.ts): every pt-BR text, as the pages have them once loaded.
addTexts(texts);
