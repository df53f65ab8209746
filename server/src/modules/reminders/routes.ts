import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { PageQuery, Paged } from '../../http/paging.ts';
import { FAILURE_REASONS, type FailureReason } from './failure.ts';
import * as service from './service.ts';
import { STAGES } from './stages.ts';

const Stage = Type.Union([Type.Literal('before_7'), Type.Literal('before_3'), Type.Literal('before_1'), Type.Literal('day'), Type.Literal('after_1'), Type.Literal('after_3')]);
const Language = Type.Union([Type.Literal('pt'), Type.Literal('en')]);
const Channel = Type.Union([Type.Literal('whatsapp'), Type.Literal('email')]);
const Status = Type.Union([Type.Literal('sending'), Type.Literal('sent'), Type.Literal('retry'), Type.Literal('failed'), Type.Literal('cancelled')]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Clock = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM' });
const Hours = Type.Object({ from: Clock, to: Clock });
const Text = Type.String({ maxLength: 1000 });
const TemplatesOf = (text: typeof Text) => Type.Object(Object.fromEntries(STAGES.map((s) => [s, Type.Object({ pt: text, en: text })])));
const InputTemplates = Type.Object(Object.fromEntries(STAGES.map((s) => [s, Type.Optional(Type.Object({ pt: Type.Optional(Text), en: Type.Optional(Text) }))])));
const Schedule = { stages: Type.Array(Stage), language: Language, quiet_hours: Hours, templates: TemplatesOf(Text) };

const Settings = Type.Object(
  {
    enabled: Type.Boolean(),
    ...Schedule,
    inherited: Type.Object(Schedule, { description: "what the account has without its own values: its masters' or the built-in" }),
    channels: Type.Object({
      whatsapp: Type.Object({ base_url: Nullable(Type.String()), instance: Nullable(Type.String()), api_key_set: Type.Boolean(), ready: Type.Boolean() }),
      email: Type.Object({ enabled: Type.Boolean(), smtp_configured: Type.Boolean(), ready: Type.Boolean() }),
    }),
  },
  { title: 'ReminderSettings' },
);

const Failure = Nullable(
  Type.Object(
    {
      reason: Type.Unsafe<FailureReason>(Type.String({ enum: [...FAILURE_REASONS] })),
      status: Nullable(Type.Integer({ description: "the gateway's HTTP status (SMTP reply code for e-mail), when it answered" })),
    },
    { title: 'GatewayFailure', description: 'why the gateway failed; null when it did not' },
  ),
);

const SettingsBody = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  stages: Type.Optional(Type.Array(Stage, { maxItems: 6, uniqueItems: true })),
  language: Type.Optional(Language),
  quiet_hours: Type.Optional(Hours),
  templates: Type.Optional(InputTemplates),
  channels: Type.Optional(
    Type.Object({
      whatsapp: Type.Optional(
        Type.Object({
          base_url: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
          instance: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
          api_key: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'write-only: never sent back' }))),
        }),
      ),
      email: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()) })),
    }),
  ),
});

const Message = Type.Object(
  {
    id: Type.Integer(),
    line_id: Type.Integer(),
    username: Type.String(),
    stage: Type.String(),
    exp_date: Type.Integer(),
    channel: Type.String(),
    recipient: Type.String(),
    status: Type.String({ description: 'sending, sent, retry (waiting for another try), failed or cancelled (the line changed)' }),
    attempts: Type.Integer(),
    created_at: Type.Integer(),
    sent_at: Nullable(Type.Integer()),
    last_status: Nullable(Type.Integer({ description: "the gateway's status" })),
    answer: Nullable(Type.String({ description: "the gateway's message id, or why it failed" })),
  },
  { title: 'ReminderMessage' },
);

/** The signed-in account's expiry reminders (docs/reminders.md). API keys cannot call these (no scope). */
export function reminderRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['reminders'];
  r.get('/reminders/settings', { schema: { tags, response: { 200: Settings } } }, (req) => service.getSettings(deps, req.user));
  r.put('/reminders/settings', { schema: { tags, errors: { 400: ['TEMPLATE_UNKNOWN_VARIABLE'], 409: ['REMINDERS_NO_CHANNEL'] }, body: SettingsBody, response: { 200: Settings } } }, (req) => service.putSettings(deps, req.user, req.body));
  r.post(
    '/reminders/preview',
    {
      schema: {
        tags,
        errors: { 400: ['TEMPLATE_UNKNOWN_VARIABLE'], 404: ['NOT_FOUND'] },
        body: Type.Object({ stage: Stage, language: Type.Optional(Language), text: Type.Optional(Text), line_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })) }),
        response: { 200: Type.Object({ text: Type.String(), line: Nullable(Type.Object({ id: Type.Integer(), username: Type.String() })) }) },
      },
    },
    (req) => service.preview(deps, req.user, req.body),
  );
  r.post(
    '/reminders/test',
    {
      schema: {
        tags,
        errors: { 503: ['NOT_CONFIGURED'] },
        body: Type.Object({ channel: Channel, to: Type.String({ minLength: 1, maxLength: 120 }) }),
        response: { 200: Type.Object({ ok: Type.Boolean(), answer: Type.String({ description: "the gateway's message id, or its answer" }), failure: Failure }) },
      },
    },
    (req) => service.sendTest(deps, req.user, req.body),
  );
  r.post(
    '/reminders/whatsapp/check',
    {
      schema: {
        tags,
        description: 'Asks the WhatsApp gateway now whether it answers for the instance with WhatsApp connected; sends nothing. No gateway set up: ok false, reason not_configured.',
        response: { 200: Type.Object({ ok: Type.Boolean(), failure: Failure }) },
      },
    },
    (req) => service.checkWhatsApp(deps, req.user),
  );
  r.get(
    '/reminders/renewal-link/:line_id',
    {
      schema: {
        tags,
        description: "A line's customer renewal link (PUBLIC_URL/minha-conta?t=...), null unless its owner takes PIX payments.",
        errors: { 404: ['NOT_FOUND'] },
        params: Type.Object({ line_id: Type.Integer({ minimum: 1, maximum: 2147483647 }) }),
        response: { 200: Type.Object({ url: Nullable(Type.String()) }) },
      },
    },
    (req) => service.lineRenewalLink(deps, req.user, req.params.line_id),
  );
  r.get(
    '/reminders/messages',
    {
      schema: {
        tags,
        querystring: Type.Object({ ...PageQuery, line: Type.Optional(Type.String({ maxLength: 50 })), stage: Type.Optional(Stage), status: Type.Optional(Status), channel: Type.Optional(Channel) }),
        response: { 200: Paged(Message) },
      },
    },
    (req) => service.history(deps, req.user, req.query),
  );
  r.get(
    '/reminders/today',
    { schema: { tags, response: { 200: Type.Object({ enabled: Type.Boolean(), sent: Type.Integer(), failed: Type.Integer(), waiting: Type.Integer() }) } } },
    (req) => service.today(deps, req.user),
  );
}
