import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../i18n/en-US.json';
import pt from '../i18n/pt-BR.json';
import { call, HttpError } from './api';
import { t } from './texts';
import { durationText, slugOf, Trial, trialErrorText, waitText } from './TrialPage';
import { requestTrial, type TrialPageInfo, trialPage } from './trialApi';

const PAGE: TrialPageInfo = { slug: 'loja-do-ze', reseller_name: 'Loja do Zé', whatsapp: '(11) 98888-7777', message: 'Teste à vontade!', package_name: 'Completo', duration: 4, duration_in: 'hours' };

/** fetch answering once with this status, JSON body and headers; records what was sent. */
function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

async function failure(p: Promise<unknown>): Promise<HttpError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(HttpError);
  return e as HttpError;
}

afterEach(() => vi.unstubAllGlobals());

describe('the trial page (/teste/<slug>)', () => {
  it('reads the page by its slug', async () => {
    const fetch = answer(200, PAGE);
    expect(await trialPage('loja do zé')).toEqual(PAGE);
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/public/trial-pages/loja%20do%20z%C3%A9');
    expect(slugOf('/teste/loja-do-ze/')).toBe('loja-do-ze');
    expect(slugOf('/teste/loja%20do%20z%C3%A9')).toBe('loja do zé');
    expect(slugOf('/teste/loja%E0%A4%A')).toBe('loja%E0%A4%A');
    expect(slugOf('/teste/100%')).toBe('100%');
  });

  it('asks for a trial with the slug and the WhatsApp; 202 is sent', async () => {
    const fetch = answer(202, { status: 'sent' });
    expect(await requestTrial('loja-do-ze', '11999990000')).toEqual({ status: 'sent' });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/public/trials');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ slug: 'loja-do-ze', whatsapp: '11999990000' });
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
  });

  it('words each error of the contract in pt-BR', async () => {
    const cases: [number, string, Record<string, string>, string][] = [
      [400, 'VALIDATION', {}, pt.trialOffer.errors.VALIDATION],
      [409, 'TRIAL_ALREADY_USED', {}, pt.trialOffer.errors.TRIAL_ALREADY_USED],
      [429, 'TRIAL_LIMIT', { 'retry-after': '600' }, 'Muitos pedidos de teste agora. Tente de novo em 10 minutos.'],
      [429, 'TRIAL_LIMIT', {}, pt.trialOffer.errors.TRIAL_LIMIT],
      [503, 'NOT_CONFIGURED', {}, pt.trialOffer.errors.NOT_CONFIGURED],
      [502, 'UPSTREAM_ERROR', {}, pt.trialOffer.errors.UPSTREAM_ERROR],
      [500, 'INTERNAL', {}, pt.errors.INTERNAL],
    ];
    for (const [status, code, headers, text] of cases) {
      answer(status, { statusCode: status, code, message: 'english detail', field: code === 'VALIDATION' ? 'whatsapp' : undefined }, headers);
      const e = await failure(requestTrial('loja-do-ze', '11'));
      expect([e.status, e.code]).toEqual([status, code]);
      expect(trialErrorText(e), code).toBe(text);
    }
    answer(400, { code: 'VALIDATION', field: 'whatsapp' });
    expect((await failure(requestTrial('x', '1'))).field).toBe('whatsapp');
  });

  it('a network failure is COMMUNICATION; an answer without JSON keeps its status', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const offline = await failure(requestTrial('x', '11999990000'));
    expect([offline.status, offline.code]).toEqual([0, 'COMMUNICATION']);
    expect(trialErrorText(offline)).toBe(pt.trialOffer.errors.COMMUNICATION);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' })));
    const html = await failure(call('GET', '/api/public/trial-pages/x'));
    expect([html.status, html.code]).toEqual([502, 'HTTP_502']);
  });

  it('says durations and waits in words, plural or not', () => {
    expect(durationText(1, 'hours')).toBe('1 hora');
    expect(durationText(24, 'hours')).toBe('24 horas');
    expect(durationText(1, 'months')).toBe('1 mês');
    expect(durationText(3, 'days')).toBe('3 dias');
    expect(durationText(2, 'fortnights')).toBe('2 fortnights');
    expect(waitText(30)).toBe('1 minuto');
    expect(waitText(3600)).toBe('60 minutos');
    expect(waitText(4 * 3600)).toBe('4 horas');
  });

  it('shows the reseller, the message, the package and a WhatsApp field with its hint', () => {
    const html = renderToStaticMarkup(createElement(Trial, { page: PAGE }));
    expect(html).toContain('<h1 class="so-title" data-testid="trial-reseller">Loja do Zé</h1>');
    expect(html).toContain('Teste à vontade!');
    expect(html).toContain('Completo');
    expect(html).toContain('4 horas');
    expect(html).toMatch(/<label for="[^"]+">Seu WhatsApp<\/label>/);
    const input = /<input [^>]*data-testid="trial-whatsapp"[^>]*>/.exec(html)?.[0] ?? '';
    expect(input).toContain('type="tel"');
    expect(input).toContain('inputMode="numeric"');
    expect(input).toContain('placeholder="(11) 99999-0000"');
    expect(input).toContain('aria-describedby="trial-hint"');
    expect(html).toContain(pt.trialOffer.submit);
    expect(pt.trialOffer.submit).toBe('Receber teste grátis');
    expect(pt.trialOffer.sent).toBe('Pronto! Enviamos o acesso para o seu WhatsApp.');
    // the confirmation's WhatsApp link shows once sent (or after an error), not before
    expect(html).not.toContain('wa.me');
  });

  it('has every text in both languages', () => {
    const keys = (o: object, at = ''): string[] => Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' ? keys(v, `${at}${k}.`) : [`${at}${k}`]));
    expect(keys(en.trialOffer).sort()).toEqual(keys(pt.trialOffer).sort());
    expect(t('trialOffer.talk', { name: 'Zé' })).toBe('Falar com Zé no WhatsApp');
  });
});
