// `pt-BR.json?<part>-texts`: some namespaces of the pt-BR texts as a module of their own, so each
// chunk carries only the texts it imports (i18n/signedInTexts.ts, features/*/texts.ts).
declare module '*-texts' {
  const texts: typeof import('./pt-BR.json');
  export = texts;
}
