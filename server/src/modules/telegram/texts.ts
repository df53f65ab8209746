// What the bots say. Portuguese (Brazil) by default; English for a Telegram client set to English.
// Messages are sent with parse_mode HTML: every value put into them goes through `esc`.

export type Lang = 'pt' | 'en';

/** The chat's language from its Telegram client's: English only when the client says so. */
export const languageOf = (code: string | undefined): Lang => (code?.toLowerCase().startsWith('en') ? 'en' : 'pt');

export const esc = (s: string | number) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** The trial page's own message, as the reseller wrote it (at most 500 characters), above the credentials. */
const intro = (message: string | null) => (message?.trim() ? `${esc(message.trim())}\n\n` : '');

const locale = (lang: Lang) => (lang === 'en' ? 'en-US' : 'pt-BR');

export function dateTime(lang: Lang, ts: number, timeZone: string): string {
  return new Intl.DateTimeFormat(locale(lang), { timeZone, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(new Date(ts * 1000));
}

export const money = (lang: Lang, cents: number) => new Intl.NumberFormat(locale(lang), { style: 'currency', currency: 'BRL' }).format(cents / 100);

const DURATION: Record<Lang, Record<string, [string, string]>> = {
  pt: { hours: ['hora', 'horas'], days: ['dia', 'dias'], months: ['mês', 'meses'], years: ['ano', 'anos'] },
  en: { hours: ['hour', 'hours'], days: ['day', 'days'], months: ['month', 'months'], years: ['year', 'years'] },
};
export const duration = (lang: Lang, n: number, unit: string) => `${n} ${(DURATION[lang][unit] ?? [unit, unit])[n === 1 ? 0 : 1]}`;

const pt = {
  welcome: (reseller: string, trials: boolean) =>
    `Olá! Sou o atendimento automático de <b>${esc(reseller)}</b>.\n\n/entrar <i>usuário senha</i> — conectar sua linha\n/status — vencimento, pacote, telas e lista\n/renovar — renovar por PIX${trials ? '\n/teste — pedir um teste grátis' : ''}\n/sair — desconectar este chat`,
  ownerWelcome: 'Este chat recebe as notícias da sua revenda: vendas pela API e pela página de teste, PIX aprovados ou aguardando créditos, créditos baixos.\n\n/saldo — seu saldo de créditos',
  ownerLinked: (bot: string) => `Pronto! Este chat receberá as notícias da revenda pelo bot @${esc(bot)}.\n\n/saldo — seu saldo de créditos`,
  badCode: 'Código inválido ou vencido. Gere um novo na página Telegram do painel.',
  entrarUsage: 'Envie: /entrar <i>usuário senha</i>',
  signedIn: (user: string) => `Linha <b>${esc(user)}</b> conectada a este chat.\n\n/status — ver sua linha\n/renovar — renovar por PIX`,
  wrongCredentials: 'Usuário ou senha incorretos.',
  tooManyTries: 'Muitas tentativas. Tente de novo mais tarde.',
  notLinked: 'Conecte sua linha primeiro: /entrar <i>usuário senha</i>',
  lineGone: 'Esta linha não existe mais. Fale com a revenda.',
  status: (v: { user: string; expires: string; expired: boolean; pkg: string; screens: number; playlist: string; blocked: boolean; trial: boolean }) =>
    [
      `<b>${esc(v.user)}</b>${v.trial ? ' (teste)' : ''}`,
      v.blocked ? 'Situação: <b>bloqueada</b>' : v.expired ? `Venceu em: <b>${esc(v.expires)}</b>` : `Vence em: <b>${esc(v.expires)}</b>`,
      `Pacote: ${esc(v.pkg)}`,
      `Telas: ${v.screens}`,
      `Lista (M3U): ${esc(v.playlist)}`,
    ].join('\n'),
  noOffers: 'A renovação por PIX não está disponível. Fale com a revenda.',
  blocked: 'Sua linha está bloqueada. Fale com a revenda.',
  chooseOffer: 'Escolha o plano para renovar:',
  offer: (pkg: string, length: string, price: string) => `${pkg} · ${length} · ${price}`,
  pixCaption: (amount: string, until: string) => `PIX de ${amount}. Pague até ${until}.`,
  pixCode: (code: string) => `PIX copia e cola (toque para copiar):\n<code>${esc(code)}</code>\n\nAvisaremos aqui quando o pagamento for confirmado.`,
  pixFailed: 'Não foi possível gerar o PIX agora. Tente de novo em instantes.',
  renewed: (until: string) => `Pagamento confirmado. Renovado até <b>${esc(until)}</b>.`,
  paidWaiting: 'Pagamento confirmado. A renovação está sendo processada e avisaremos aqui.',
  trialAsk: 'Para o teste, compartilhe seu número de WhatsApp pelo botão abaixo.',
  trialButton: 'Compartilhar meu número',
  trialOff: 'Testes não estão disponíveis agora. Fale com a revenda.',
  trialNotOwn: 'Compartilhe o seu próprio número pelo botão.',
  trialBadNumber: 'Este número não é um celular brasileiro válido.',
  trialUsed: 'Este número já recebeu um teste. Fale com a revenda para assinar.',
  trialLimit: 'Muitos pedidos de teste no momento. Tente de novo mais tarde.',
  trialReady: (v: { intro: string | null; user: string; password: string; playlist: string; expires: string }) =>
    `${intro(v.intro)}<b>Seu teste está pronto!</b>\nUsuário: <code>${esc(v.user)}</code>\nSenha: <code>${esc(v.password)}</code>\nLista (M3U): ${esc(v.playlist)}\nVálido até: ${esc(v.expires)}\n\n/status — ver sua linha`,
  signedOut: 'Chat desconectado da linha.',
  unknown: 'Não entendi. Envie /start para ver os comandos.',
  failed: 'Algo deu errado. Tente de novo em instantes.',
  ownerOnly: 'Este comando é só para a revenda.',
  balance: (n: number) => `Saldo: <b>${n}</b> ${n === 1 ? 'crédito' : 'créditos'}.`,
  newsSale: (v: { what: 'created' | 'renewed'; via: string; user: string; pkg: string; expires: string; credits: number; trial: boolean }) =>
    `${v.what === 'created' ? (v.trial ? '🆕 Novo teste' : '🛒 Nova venda') : '🔁 Renovação'} (${esc(v.via)}): <b>${esc(v.user)}</b>, ${esc(v.pkg)}, vence ${esc(v.expires)}${v.credits ? `, ${v.credits} crédito(s)` : ''}.`,
  viaApi: (key: string) => `API · ${key}`,
  viaTrialPage: 'página de teste',
  viaTelegram: 'Telegram',
  newsPixApplied: (v: { user: string; amount: string; until: string }) => `💰 PIX aprovado: <b>${esc(v.user)}</b> pagou ${esc(v.amount)}, renovado até ${esc(v.until)}.`,
  newsPixWaiting: (v: { user: string; amount: string }) => `⏳ PIX de ${esc(v.amount)} pago por <b>${esc(v.user)}</b> aguardando créditos: a renovação será feita quando seu saldo permitir.`,
  newsCreditsLow: (balance: number) => `⚠️ Créditos baixos: saldo de <b>${balance}</b>.`,
};

const en: typeof pt = {
  welcome: (reseller, trials) =>
    `Hi! I am <b>${esc(reseller)}</b>'s automatic service.\n\n/entrar <i>username password</i> — link your line\n/status — expiry, package, screens and playlist\n/renovar — renew by PIX${trials ? '\n/teste — ask for a free trial' : ''}\n/sair — unlink this chat`,
  ownerWelcome: 'This chat gets your business news: sales through the API and the trial page, PIX approved or waiting for credits, low credits.\n\n/saldo — your credit balance',
  ownerLinked: (bot) => `Done! This chat will get your business news from @${esc(bot)}.\n\n/saldo — your credit balance`,
  badCode: 'Invalid or expired code. Make a new one on the panel\'s Telegram page.',
  entrarUsage: 'Send: /entrar <i>username password</i>',
  signedIn: (user) => `Line <b>${esc(user)}</b> linked to this chat.\n\n/status — see your line\n/renovar — renew by PIX`,
  wrongCredentials: 'Wrong username or password.',
  tooManyTries: 'Too many tries. Try again later.',
  notLinked: 'Link your line first: /entrar <i>username password</i>',
  lineGone: 'This line no longer exists. Talk to your reseller.',
  status: (v) =>
    [
      `<b>${esc(v.user)}</b>${v.trial ? ' (trial)' : ''}`,
      v.blocked ? 'Status: <b>blocked</b>' : v.expired ? `Expired on: <b>${esc(v.expires)}</b>` : `Expires on: <b>${esc(v.expires)}</b>`,
      `Package: ${esc(v.pkg)}`,
      `Screens: ${v.screens}`,
      `Playlist (M3U): ${esc(v.playlist)}`,
    ].join('\n'),
  noOffers: 'Renewing by PIX is not available. Talk to your reseller.',
  blocked: 'Your line is blocked. Talk to your reseller.',
  chooseOffer: 'Choose the plan to renew:',
  offer: (pkg, length, price) => `${pkg} · ${length} · ${price}`,
  pixCaption: (amount, until) => `PIX of ${amount}. Pay by ${until}.`,
  pixCode: (code) => `PIX copy and paste (tap to copy):\n<code>${esc(code)}</code>\n\nWe will tell you here when the payment is confirmed.`,
  pixFailed: 'The PIX could not be made now. Try again in a moment.',
  renewed: (until) => `Payment confirmed. Renewed until <b>${esc(until)}</b>.`,
  paidWaiting: 'Payment confirmed. The renewal is being processed; we will tell you here.',
  trialAsk: 'For the trial, share your WhatsApp number with the button below.',
  trialButton: 'Share my number',
  trialOff: 'Trials are not available now. Talk to your reseller.',
  trialNotOwn: 'Share your own number with the button.',
  trialBadNumber: 'This number is not a valid Brazilian mobile.',
  trialUsed: 'This number already had a trial. Talk to your reseller to subscribe.',
  trialLimit: 'Too many trials asked right now. Try again later.',
  trialReady: (v) =>
    `${intro(v.intro)}<b>Your trial is ready!</b>\nUsername: <code>${esc(v.user)}</code>\nPassword: <code>${esc(v.password)}</code>\nPlaylist (M3U): ${esc(v.playlist)}\nValid until: ${esc(v.expires)}\n\n/status — see your line`,
  signedOut: 'Chat unlinked from the line.',
  unknown: 'I did not understand. Send /start to see the commands.',
  failed: 'Something went wrong. Try again in a moment.',
  ownerOnly: 'This command is for the reseller only.',
  balance: (n) => `Balance: <b>${n}</b> ${n === 1 ? 'credit' : 'credits'}.`,
  newsSale: (v) =>
    `${v.what === 'created' ? (v.trial ? '🆕 New trial' : '🛒 New sale') : '🔁 Renewal'} (${esc(v.via)}): <b>${esc(v.user)}</b>, ${esc(v.pkg)}, expires ${esc(v.expires)}${v.credits ? `, ${v.credits} credit(s)` : ''}.`,
  viaApi: (key) => `API · ${key}`,
  viaTrialPage: 'trial page',
  viaTelegram: 'Telegram',
  newsPixApplied: (v) => `💰 PIX approved: <b>${esc(v.user)}</b> paid ${esc(v.amount)}, renewed until ${esc(v.until)}.`,
  newsPixWaiting: (v) => `⏳ PIX of ${esc(v.amount)} paid by <b>${esc(v.user)}</b> waiting for credits: the renewal is made when your balance allows.`,
  newsCreditsLow: (balance) => `⚠️ Low credits: balance of <b>${balance}</b>.`,
};

export const texts = (lang: Lang) => (lang === 'en' ? en : pt);
