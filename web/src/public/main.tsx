import '../styles/signed-out.css';
import './public.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CustomerPage } from './CustomerPage';
import { SignInPage } from './SignInPage';
import { loadStartingLanguage, useLang } from './texts';
import { TrialPage } from './TrialPage';

/**
 * The light pages (public.html): what a reseller or a customer opens from a link on a phone. Plain
 * React, no router, UI kit, query cache nor i18next (docs/decisions.md, first-load budget); the
 * page is picked by the path, which the server (app.ts) and the dev server route here. They never
 * register the service worker: the panel does.
 */
function Page({ pathname }: { pathname: string }) {
  useLang(); // the language switch re-renders the whole page in the new language
  if (pathname.startsWith('/teste/')) return <TrialPage />;
  if (pathname.replace(/\/$/, '') === '/minha-conta') return <CustomerPage />;
  return <SignInPage />;
}

const root = document.getElementById('root');
if (!root) throw new Error('#root missing');

// English readers wait for their texts chunk (pt-BR is in the entry).
void loadStartingLanguage().then(() =>
  createRoot(root).render(
    <StrictMode>
      <Page pathname={window.location.pathname} />
    </StrictMode>,
  ),
);
