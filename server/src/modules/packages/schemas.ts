import { type Static, Type } from 'typebox';

const Unit = Type.Union([Type.Literal('hours'), Type.Literal('days'), Type.Literal('months'), Type.Literal('years')]);
export type DurationUnit = Static<typeof Unit>;
const Flag = Type.Integer({ minimum: 0, maximum: 1 });
const Count = (max: number) => Type.Integer({ minimum: 0, maximum: max });

export const PackageOut = Type.Object({
  id: Type.Integer(),
  package_name: Type.String(),
  is_trial: Type.Integer(),
  is_official: Type.Integer(),
  max_connections: Type.Integer(),
  official_credits: Type.Integer(),
  official_duration: Type.Integer(),
  official_duration_in: Unit,
  trial_credits: Type.Integer(),
  trial_duration: Type.Integer(),
  trial_duration_in: Unit,
  bouquets: Type.Array(Type.String()),
}, { title: 'Package' });

export const PackageBody = Type.Object({
  package_name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  is_trial: Flag,
  is_official: Flag,
  max_connections: Type.Integer({ minimum: 1, maximum: 100 }),
  official_credits: Count(10_000),
  official_duration: Count(120),
  official_duration_in: Unit,
  trial_credits: Count(10_000),
  trial_duration: Count(720),
  trial_duration_in: Unit,
  bouquets: Type.Array(Type.String({ maxLength: 12 }), { minItems: 1, maxItems: 500 }),
});

// PUT: package_name and bouquets are required, the other fields optional.
export const PackageUpdateBody = Type.Object({
  package_name: PackageBody.properties.package_name,
  bouquets: PackageBody.properties.bouquets,
  is_trial: Type.Optional(Flag),
  is_official: Type.Optional(Flag),
  max_connections: Type.Optional(PackageBody.properties.max_connections),
  official_credits: Type.Optional(Count(10_000)),
  official_duration: Type.Optional(Count(120)),
  official_duration_in: Type.Optional(Unit),
  trial_credits: Type.Optional(Count(10_000)),
  trial_duration: Type.Optional(Count(720)),
  trial_duration_in: Type.Optional(Unit),
});

export type PackageInput = Static<typeof PackageBody>;
export type PackageUpdate = Static<typeof PackageUpdateBody>;
