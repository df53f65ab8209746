// Checked by `npm run typecheck`, never run: a call the server's OpenAPI document does not allow
// must not compile. Each line below is such a call; a line that compiles fails the typecheck.
import { api } from './client';

export async function mismatches() {
  // @ts-expect-error no such route
  await api.GET('/api/no-such-route');
  // @ts-expect-error no such method on this path
  await api.DELETE('/api/profile');
  // @ts-expect-error the path parameter is missing
  await api.GET('/api/users/{id}', {});
  // @ts-expect-error a query parameter of the wrong type (per is 10, 20, 30, 50 or 100)
  await api.GET('/api/users', { params: { query: { per: 15 } } });
  // @ts-expect-error a body field the operation does not take
  await api.POST('/api/users/{id}/extenddays', { params: { path: { id: 1 } }, body: { days: 1, hours: 2 } });
  // @ts-expect-error a required body field is missing
  await api.POST('/api/users/{id}/extenddays', { params: { path: { id: 1 } }, body: {} });
  const line = await api.GET('/api/users/{id}', { params: { path: { id: 1 } } });
  // @ts-expect-error the answer has no such field
  void line.expires_at;
  return line.exp_date satisfies number;
}
